"""The built-in slash commands that act on the conversation itself.

/help /clear /compact /model /cost /init /exit here; the read-only views (/status,
/config, /permissions, /hooks) in `info.py`, /context in `context_view.py`, /sandbox in
`sandbox_view.py`, /agents in `agents_view.py`, /skills in `skills_view.py`, /team in
`team_view.py`, /mcp in `mcp_view.py`; /resume and /memory in `sessions.py`. `BUILTINS`
lists them all, in /help order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cc import __version__
from cc.commands.agents_view import agents_command
from cc.commands.config_edit import config_command
from cc.commands.context import CommandContext, CommandResult
from cc.commands.context_view import context_command
from cc.commands.info import (
    hooks_command,
    permissions_command,
    status_command,
)
from cc.commands.mcp_view import mcp_command
from cc.commands.output_style import output_style_command, restyle
from cc.commands.registry import BuiltinCommand
from cc.commands.rewind import rewind_command
from cc.commands.sandbox_view import sandbox_command
from cc.commands.sessions import memory_command, resume_command
from cc.commands.skills_view import skills_command
from cc.commands.statusline import statusline_command
from cc.commands.team_view import team_command
from cc.models.content_blocks import TextBlock
from cc.models.messages import UserMessage

if TYPE_CHECKING:
    from cc.core.query_engine import QueryEngine

SHORTCUTS = (
    "! for shell mode · @ to mention a file · shift+tab to cycle permission modes · "
    "esc to interrupt · meta+enter or \\ for a new line · ctrl+d to exit"
)


async def help_command(ctx: CommandContext, args: str) -> CommandResult:
    entries = ctx.commands.entries()
    builtin_names = {b.name for b in ctx.commands.builtins}
    width = max((len(e.name) + len(e.argument_hint or "") for e in entries), default=10) + 4
    ctx.say(f"cc {__version__} · a Claude Code clone", style="bold")
    ctx.say("")
    ctx.say("Commands:")
    for e in entries:
        if e.name in builtin_names:
            ctx.say(f"  {_usage(e.name, e.argument_hint):<{width}} {e.description}")
    custom = [e for e in entries if e.name not in builtin_names]
    if custom:
        ctx.say("")
        ctx.say("Custom commands:")
        for e in custom:
            ctx.say(f"  {_usage(e.name, e.argument_hint):<{width}} {e.description}")
    ctx.say("")
    ctx.say(SHORTCUTS, style="dim")
    return CommandResult()


def _usage(name: str, hint: str | None) -> str:
    return f"/{name} {hint}" if hint else f"/{name}"


async def clear_command(ctx: CommandContext, args: str) -> CommandResult:
    """A new conversation under a new session id; SessionEnd/SessionStart hooks say "clear"."""
    await ctx.engine.end_session("clear")
    restyle(ctx)  # a new conversation takes the output style chosen since
    ctx.engine.clear()
    ctx.say("Started a new conversation.", style="dim")
    for note in await ctx.engine.start_session("clear"):
        ctx.say(note, style="yellow")
    return CommandResult(clear_screen=True)


async def compact_command(ctx: CommandContext, args: str) -> CommandResult:
    """Summarise the conversation now; `args` say what the summary should keep."""
    from cc.core.events import Compacted, CompactionFailed, CompactionStarted, Notice

    async for event in ctx.engine.compact(args.strip() or None):
        if isinstance(event, CompactionStarted):
            ctx.say("Compacting the conversation…", style="dim")
        elif isinstance(event, Compacted):
            ctx.say(compacted_line(event), style="dim")
        elif isinstance(event, CompactionFailed):
            ctx.say(f"Could not compact: {event.reason}", style="yellow")
        elif isinstance(event, Notice):
            ctx.say(event.text, style="yellow" if event.level == "warning" else "dim")
    return CommandResult()


def compacted_line(event: Any) -> str:
    """One line for a compaction that happened."""
    from cc.figures import format_tokens

    return (f"Compacted the conversation ({format_tokens(event.pre_tokens)} → "
            f"{format_tokens(event.post_tokens)} tokens)")


async def model_command(ctx: CommandContext, args: str) -> CommandResult:
    from cc.models.catalog import ALIASES, DEFAULT_MODEL, resolve_model

    if not args:
        ctx.say(f"Current model: {ctx.engine.model}")
        ctx.say("Aliases: " + ", ".join(f"{a} ({m})" for a, m in ALIASES.items()), style="dim")
        ctx.say("Use /model <alias or model id> to switch.", style="dim")
        return CommandResult()
    name = DEFAULT_MODEL if args.strip().lower() == "default" else args.strip()
    model = resolve_model(name)
    ctx.engine.set_model(model)
    shown = f"{name} ({model})" if model != name else model
    ctx.say(f"Set model to {shown}")
    return CommandResult()


async def cost_command(ctx: CommandContext, args: str) -> CommandResult:
    from cc.figures import cost_report

    added, removed = code_changes(ctx.engine)
    ctx.say(cost_report(ctx.engine.usage, ctx.clock() - ctx.started, added, removed))
    return CommandResult()


def code_changes(engine: QueryEngine) -> tuple[int, int]:
    """Lines added and removed by Edit/Write calls in this conversation."""
    from cc.tools.diff import count_changes

    added = removed = 0
    for message in engine.messages:
        data: Any = getattr(message, "tool_use_result", None)
        for item in data if isinstance(data, list) else [data]:
            if not isinstance(item, dict):
                continue
            if item.get("type") == "create" and isinstance(item.get("content"), str):
                added += len(item["content"].splitlines())
            elif isinstance(item.get("structuredPatch"), list):
                a, r = count_changes(item["structuredPatch"])
                added, removed = added + a, removed + r
    return added, removed


async def init_command(ctx: CommandContext, args: str) -> CommandResult:
    from cc.prompts import load_text

    prompt = load_text("commands/init.md").strip()
    if args:
        prompt += f"\n\nAlso: {args}"
    tags = (
        "<command-name>/init</command-name>\n<command-message>init</command-message>\n"
        f"<command-args>{args}</command-args>"
    )
    message = UserMessage([TextBlock(tags), TextBlock(prompt)])
    return CommandResult(submit=message)


async def exit_command(ctx: CommandContext, args: str) -> CommandResult:
    return CommandResult(exit=True)


BUILTINS: tuple[BuiltinCommand, ...] = (
    BuiltinCommand("help", "Show commands and shortcuts", help_command),
    BuiltinCommand("clear", "Start a new conversation (history is kept on disk)", clear_command),
    BuiltinCommand("compact", "Summarize the conversation to free context", compact_command,
                   argument_hint="[instructions]"),
    BuiltinCommand("model", "Show or set the model", model_command, argument_hint="[name]"),
    BuiltinCommand("cost", "Tokens and cost of this session", cost_command),
    BuiltinCommand("status", "Version, model, session, permission mode, API key", status_command),
    BuiltinCommand("config", "Show the settings, or set one (/config set <key> <value>)",
                   config_command, argument_hint="[set <key> <value>]"),
    BuiltinCommand("permissions", "List permission rules", permissions_command),
    BuiltinCommand("hooks", "List configured hooks", hooks_command),
    BuiltinCommand("sandbox", "Show the Bash sandbox's state", sandbox_command),
    BuiltinCommand("agents", "List the sub-agent types and where they are defined",
                   agents_command),
    BuiltinCommand("skills", "List the skills and how to run them", skills_command),
    BuiltinCommand("mcp", "MCP servers and their state; reconnect or enable one", mcp_command,
                   argument_hint="[reconnect|enable <name>]"),
    BuiltinCommand("team", "The team's members and their state; /team <name>: a member's "
                   "conversation", team_command, argument_hint="[name]"),
    BuiltinCommand("context", "What fills the context window (/context all: each MCP tool)",
                   context_command, argument_hint="[all]"),
    BuiltinCommand("memory", "Edit a CLAUDE.md memory file", memory_command),
    BuiltinCommand("init", "Write a CLAUDE.md for this repository", init_command),
    BuiltinCommand("resume", "Resume an earlier conversation", resume_command,
                   argument_hint="[session id]"),
    BuiltinCommand("output-style", "Show or choose the output style", output_style_command,
                   argument_hint="[name]"),
    BuiltinCommand("statusline", "Set up the status line under the prompt",
                   statusline_command, argument_hint="[what to show]"),
    BuiltinCommand("rewind", "Restore the code and/or conversation to before an earlier prompt",
                   rewind_command, aliases=("checkpoint", "undo")),
    BuiltinCommand("exit", "Leave cc", exit_command, aliases=("quit",)),
)
