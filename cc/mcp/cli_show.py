"""`mcp list` and `mcp get`: the configured servers as a session in this folder would
see them, each one that may start checked by connecting to it (all at once, each
within MCP_TIMEOUT), and what is wrong with the configuration.

Which entry a name shows (Claude Code's order): local over an approved project entry
over user; a project entry still pending approval shows only where no other scope has
the name, and a refused one is hidden from the list (`get` still finds it). The list
runs user, project, local, each name where it first appeared.

The status words are Claude Code's (`✔ Connected`, `✘ Failed to connect`,
`⏸ Pending approval`, …), for scripts that look for them. Both commands exit 0
whatever the servers say; `get` of an unknown name exits 1.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

from cc.mcp.cli import PROGRAM, Context
from cc.mcp.client import Probe
from cc.mcp.config import SCOPES, ServerEntry, StdioServer
from cc.mcp.standing import Standing
from cc.subcommand_args import Parsed

SCOPE_LABELS = {
    "local": "Local config (only you, in this folder)",
    "project": "Project config (shared through .mcp.json)",
    "user": "User config (you, in every folder)",
}
WAITING = {
    "pending": "⏸ Pending approval (not yet in enabledMcpjsonServers)",
    "rejected": "✘ Rejected (it is in disabledMcpjsonServers)",
    "disabled": "⊘ Disabled for this project (disabledMcpServers)",
}
LABELS = {"http": "HTTP", "sse": "SSE", "ws": "WS"}


@dataclass(frozen=True)
class Shown:
    entry: ServerEntry
    standing: Standing


@dataclass
class Overview:
    #: By name, in the list's order.
    shown: dict[str, Shown] = field(default_factory=dict)
    #: Refused project servers (not listed; `get` shows them).
    rejected: dict[str, Shown] = field(default_factory=dict)
    #: Every entry of each name, in every scope.
    everywhere: dict[str, list[ServerEntry]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def overview(ctx: Context) -> Overview:
    from cc.mcp.config import scope_servers
    from cc.mcp.standing import project_choices

    choices, warnings = project_choices(ctx.cwd, ctx.config)
    view = Overview(problems=list(warnings))
    for scope in reversed(SCOPES):  # user, project, local: later ones take a name over
        found = scope_servers(scope, ctx.cwd, ctx.config)
        view.problems += found.problems
        for name, entry in found.servers.items():
            view.everywhere.setdefault(name, []).append(entry)
            shown = Shown(entry, choices.standing(entry))
            if shown.standing == "rejected":
                view.rejected[name] = shown
            elif shown.standing == "pending":
                view.shown.setdefault(name, shown)
            else:
                view.shown[name] = shown
    return view


def run_list(ctx: Context) -> int:
    view = overview(ctx)
    if not view.shown:
        ctx.out(f"No MCP servers are configured. Add one with `{PROGRAM} mcp add`.")
        _diagnose(view, ctx)
        return 0
    ctx.out("Checking the MCP servers…")
    ctx.out("")

    async def report() -> None:
        async with asyncio.TaskGroup() as group:
            checks = [group.create_task(_check(s, ctx.cwd)) for s in view.shown.values()]
            for shown, check in zip(view.shown.values(), checks, strict=True):
                status = _status(shown, await check)
                ctx.out(f"{shown.entry.name}: {_target(shown.entry)} - {status}")

    asyncio.run(report())
    _diagnose(view, ctx)
    return 0


def run_get(parsed: Parsed, ctx: Context) -> int:
    name = parsed.positionals["name"]
    view = overview(ctx)
    shown = view.shown.get(name) or view.rejected.get(name)
    if shown is None:
        names = ", ".join(sorted(view.shown))
        ctx.err(f'No MCP server named "{name}".' + (f" Configured: {names}." if names else ""))
        return 1
    probe = asyncio.run(_check(shown, ctx.cwd))
    entry, raw = shown.entry, shown.entry.raw
    lines = [f"{name}:", f"  Scope: {SCOPE_LABELS[entry.scope]}",
             f"  Status: {_status(shown, probe, brief=True)}"]
    if probe is not None and probe.error:
        lines.append("  Issue: " + probe.error.replace("\n", "\n         "))
    lines.append(f"  Type: {entry.config.transport}")
    if isinstance(entry.config, StdioServer):
        lines += [f"  Command: {raw['command']}", f"  Args: {' '.join(raw.get('args', []))}",
                  "  Environment:"]
        lines += [f"    {k}={v}" for k, v in raw.get("env", {}).items()]
    else:
        lines.append(f"  URL: {raw['url']}")
        if raw.get("headers"):
            lines.append("  Headers:")
            lines += [f"    {k}: {v}" for k, v in raw["headers"].items()]
    lines += ["", f"To remove it: {PROGRAM} mcp remove {name} -s {entry.scope}"]
    ctx.out("\n".join(lines))
    return 0


async def _check(shown: Shown, cwd: Path) -> Probe | None:
    """Connect to a server that may start (None: it may not, so it is not tried)."""
    if shown.standing != "ready":
        return None
    from cc.mcp.client import ClientSetup, probe, timeout_from_env

    return await probe(shown.entry, ClientSetup(cwd, connect_timeout=timeout_from_env()))


def _status(shown: Shown, probe: Probe | None, *, brief: bool = False) -> str:
    if probe is None:
        return WAITING[shown.standing]
    if probe.connected:
        return "✔ Connected"
    if brief or not probe.error:
        return "✘ Failed to connect"
    return f"✘ Failed to connect — {probe.error.splitlines()[0]}"


def _target(entry: ServerEntry) -> str:
    raw = entry.raw
    if isinstance(entry.config, StdioServer):
        return " ".join([raw["command"], *raw.get("args", [])])
    return f"{raw['url']} ({LABELS.get(entry.config.transport, entry.config.transport)})"


def _diagnose(view: Overview, ctx: Context) -> None:
    """What is wrong with the configuration, after the list."""
    lines = list(view.problems)
    for name, entries in view.everywhere.items():
        if len({_target(e) for e in entries}) > 1 and name in view.shown:
            used = view.shown[name].entry.scope
            others = [e.scope for e in entries if e.scope != used]
            lines.append(f'"{name}" is set up differently in the '
                         f"{_and([e.scope for e in entries])} scopes; the {used} one is used "
                         f"here. To remove the other: "
                         + " or ".join(f"{PROGRAM} mcp remove {name} -s {s}" for s in others))
    if lines:
        ctx.out("\n".join(["", "Configuration problems:", *(f"  {line}" for line in lines)]))


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
