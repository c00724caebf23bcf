"""/context: what fills the context window, by part, with the count compaction uses.

The tools are counted as the next request carries them: with tool search on, a deferred
tool not loaded yet costs nothing (it is named in a reminder, part of the messages), as
Claude Code counts it. MCP tools are a part of their own; `/context all` lists each.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cc.commands.context import CommandContext, CommandResult

if TYPE_CHECKING:
    from cc.core.query_engine import QueryEngine


@dataclass
class ToolCounts:
    """Tokens of the tool definitions the next request carries."""

    system: int = 0
    mcp: int = 0
    #: Each MCP tool's tokens (None: deferred, not loaded yet).
    mcp_tools: list[tuple[str, int | None]] = field(default_factory=list)

    @property
    def deferred(self) -> int:
        return sum(1 for _, n in self.mcp_tools if n is None)


def tool_counts(engine: QueryEngine) -> ToolCounts:
    from cc.compact.tokens import estimate

    counts = ToolCounts()
    offered = set(engine.toolset.offered())
    for entry in engine.registry.entries():
        is_mcp = entry.name.startswith("mcp__")
        tool = engine.registry.get(entry.name) if entry.name in offered else None
        n = estimate(tool.api_definition()) if tool is not None else None
        if is_mcp:
            counts.mcp_tools.append((entry.name, n))
            counts.mcp += n or 0
        else:
            counts.system += n or 0
    return counts


async def context_command(ctx: CommandContext, args: str) -> CommandResult:
    from cc.compact.tokens import context_tokens, estimate, messages_tokens
    from cc.figures import format_tokens
    from cc.models.catalog import model_info

    engine = ctx.engine
    sections = list(engine.config.system)
    memory = sum(estimate(s.text) for s in sections if s.name in ("claude_md", "memory"))
    system = sum(estimate(s.text) for s in sections) - memory
    tools = tool_counts(engine)
    messages = messages_tokens(engine.messages)
    window = model_info(engine.model).context_window
    overhead = system + memory + tools.system + tools.mcp
    used = context_tokens(engine.messages, overhead=overhead)
    reported = used != overhead + messages
    ctx.say(f"Context: {engine.model} · {format_tokens(used)}/{format_tokens(window)} tokens "
            f"({used * 100 / window:.1f}%) · "
            + ("the last response's usage and an estimate since" if reported
               else "estimated as bytes / 4"))
    compactor = engine.compactor
    limit = compactor.threshold() if compactor is not None else None
    if limit is not None:
        ctx.say(f"  Compacts automatically at {format_tokens(limit)} tokens")
    parts = [("System prompt", system), ("System tools", tools.system)]
    if tools.mcp_tools:
        parts.append(("MCP tools", tools.mcp))
    parts += [("Memory files", memory), ("Messages", messages),
              ("Free space", max(window - used, 0))]
    for label, n in parts:
        ctx.say(f"  {label:<15}{format_tokens(n):>8}  {n * 100 / window:5.1f}%")
    if tools.mcp_tools:
        _mcp_lines(ctx, tools, show_each=args.strip() == "all")
    return CommandResult()


def _mcp_lines(ctx: CommandContext, tools: ToolCounts, *, show_each: bool) -> None:
    from cc.figures import format_tokens

    count = len(tools.mcp_tools)
    summary = f"  {count} MCP tool{'' if count == 1 else 's'}"
    if tools.deferred:
        summary += (f" ({tools.deferred} deferred: nothing until ToolSearch loads "
                    f"{'it' if tools.deferred == 1 else 'them'})")
    ctx.say(summary + ("" if show_each else " · /context all lists them"), style="dim")
    if not show_each:
        return
    width = max(len(name) for name, _ in tools.mcp_tools) + 2
    for name, n in tools.mcp_tools:
        shown = "deferred" if n is None else f"{format_tokens(n)} tokens"
        ctx.say(f"    {name:<{width}}{shown}")
