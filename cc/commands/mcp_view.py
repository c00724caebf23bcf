"""/mcp: the session's MCP servers as they are now, and what can be done about one.

    /mcp                    each server by scope: its state, what it offers, why it
                            failed; in the REPL, then a picker of the actions below
    /mcp reconnect <name>   drop the connection and connect again; says how it went
    /mcp enable <name>      use a project server held back (not approved yet, or
                            refused): recorded in .claude/settings.local.json

The view reads the hub's live state, so a server that connects or fails later shows
as it is at the next /mcp.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from cc.commands.context import CommandContext, CommandResult

if TYPE_CHECKING:
    from cc.mcp.connection import ServerConnection
    from cc.mcp.hub import McpHub

USAGE = "Usage: /mcp · /mcp reconnect <name> · /mcp enable <name>"
MARKS = {"connected": "✔", "failed": "✘", "pending": "…", "disabled": "○"}
STYLES = {"connected": "green", "failed": "red", "pending": "yellow", "disabled": "dim"}
#: Scopes in the order they are shown.
SCOPE_ORDER = ("project", "local", "user", "dynamic")


async def mcp_command(ctx: CommandContext, args: str) -> CommandResult:
    hub = ctx.runtime.mcp
    words = args.split()
    if not words:
        if hub is None or not hub.connections:
            ctx.say("No MCP servers are configured. Add one to .mcp.json in this folder, "
                    "or give one with --mcp-config.")
            return CommandResult()
        show_servers(ctx, hub)
        await _pick_action(ctx, hub)
        return CommandResult()
    if len(words) != 2 or words[0] not in ("reconnect", "enable"):
        ctx.say(USAGE, style="yellow")
        return CommandResult()
    action, name = words
    connection = hub.get(name) if hub is not None else None
    if hub is None or connection is None:
        known = ", ".join(hub.connections) if hub is not None and hub.connections else "none"
        ctx.say(f'No MCP server is named "{name}" (configured: {known}).', style="red")
        return CommandResult()
    if action == "reconnect":
        await reconnect(ctx, hub, connection)
    else:
        await enable(ctx, hub, connection)
    return CommandResult()


def in_order(hub: McpHub) -> list[ServerConnection]:
    """The servers as /mcp shows them: by scope, then as configured."""
    connections = list(hub.connections.values())
    return sorted(connections, key=lambda c: SCOPE_ORDER.index(c.entry.scope))


def show_servers(ctx: CommandContext, hub: McpHub) -> None:
    connections = in_order(hub)
    ctx.say(f"MCP servers: {len(connections)}", style="bold")
    width = max(len(c.name) for c in connections) + 2
    for scope in SCOPE_ORDER:
        group = [c for c in connections if c.entry.scope == scope]
        if not group:
            continue
        ctx.say("")
        ctx.say(_scope_title(group[0]), style="dim")
        for connection in group:
            _server_lines(ctx, hub, connection, width)
    ctx.say("")
    ctx.say(USAGE, style="dim")


def _scope_title(connection: ServerConnection) -> str:
    origin = connection.entry.origin
    return {"project": f"Project · {origin}",
            "local": f"Local · {origin} (this folder only)",
            "user": f"User · {origin}",
            "dynamic": f"--mcp-config · {origin or 'given as JSON'}"}[connection.entry.scope]


def _server_lines(ctx: CommandContext, hub: McpHub, connection: ServerConnection,
                  width: int) -> None:
    status = connection.status
    mark = MARKS.get(status, "?")
    ctx.say(f"  {mark} {connection.name:<{width}}{state_text(hub, connection)}",
            style=STYLES.get(status))
    if status == "failed" and connection.error:
        for line in connection.error.strip().splitlines()[:6]:
            ctx.say(f"    {' ' * width}{line}", style="dim")


def state_text(hub: McpHub, connection: ServerConnection) -> str:
    """`connected · 8 tools · 1 prompt · resources`, `failed`, `connecting`, or why a
    server is off."""
    status = connection.status
    if status == "connected":
        listing = connection.listing
        parts = ["connected", _count(len(listing.tools), "tool")]
        if listing.prompts:
            parts.append(_count(len(listing.prompts), "prompt"))
        if listing.resources:
            parts.append("resources")
        return " · ".join(parts)
    if status == "pending":
        return "connecting"
    if status == "disabled":
        if hub.is_awaiting(connection.name):
            return f"awaiting your approval · /mcp enable {connection.name}"
        return f"not used in this project · /mcp enable {connection.name}"
    return status


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


async def _pick_action(ctx: CommandContext, hub: McpHub) -> None:
    """In the REPL: reconnect or enable one server, or nothing (Esc)."""
    if ctx.choose is None:
        return
    actions = [(("enable" if c.status == "disabled" else "reconnect"), c)
               for c in in_order(hub)]
    labels = [f"Use {c.name} in this project" if action == "enable" else f"Reconnect {c.name}"
              for action, c in actions]
    index = await ctx.choose("Reconnect or enable a server (esc to close)", labels)
    if index is None:
        return
    action, connection = actions[index]
    if action == "reconnect":
        await reconnect(ctx, hub, connection)
    else:
        await enable(ctx, hub, connection)


async def reconnect(ctx: CommandContext, hub: McpHub, connection: ServerConnection) -> None:
    if connection.status == "disabled":
        ctx.say(f"{connection.name} is not used in this project: /mcp enable "
                f"{connection.name} first.", style="yellow")
        return
    await connection.reconnected(hub.setup.connect_timeout)
    _outcome(ctx, connection, "Reconnected to")


async def enable(ctx: CommandContext, hub: McpHub, connection: ServerConnection) -> None:
    if connection.status != "disabled":
        ctx.say(f"{connection.name} is in use already ({connection.status}).")
        return
    if connection.entry.scope != "project":
        ctx.say(f"{connection.name} cannot be enabled from here.", style="yellow")
        return
    from cc.mcp.approval import ServerAnswer

    for warning in ctx.runtime.answer_mcp(ServerAnswer(approved=(connection.name,))):
        ctx.say(warning, style="yellow")
    ctx.runtime.start_mcp()  # the servers may not have been started yet
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(hub.setup.connect_timeout):
            await connection.settled()
    _outcome(ctx, connection, "Connected to")


def _outcome(ctx: CommandContext, connection: ServerConnection, done: str) -> None:
    if connection.status == "connected":
        ctx.say(f"{done} {connection.name} ({_count(len(connection.listing.tools), 'tool')})")
        return
    if connection.status == "pending":
        ctx.say(f"{connection.name} is still connecting; /mcp shows how it goes.",
                style="yellow")
        return
    lines = (connection.error or "no reason given").strip().splitlines()
    ctx.say(f"Could not connect to {connection.name}: {lines[0]}", style="red")
    for line in lines[1:6]:
        ctx.say(f"  {line}", style="dim")
