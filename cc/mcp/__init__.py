"""MCP: the servers a user configured, connected on the official SDK, their tools offered
as `mcp__<server>__<tool>` catalog entries (config, client, connection, hub, tool)."""
