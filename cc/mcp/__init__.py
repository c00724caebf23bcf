"""MCP: the servers a user configured, connected on the official SDK, their tools offered
as `mcp__<server>__<tool>` catalog entries (config, client, connection, hub, tool), their
resources read for the resource tools and `@server:uri` mentions (resources), their
prompts offered as `/mcp__<server>__<prompt>` commands (prompts)."""
