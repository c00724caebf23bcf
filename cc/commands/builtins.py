"""The built-in slash commands that act on the conversation itself.

/help /clear /compact /model /cost /init /exit here; the read-only views (/status,
/config, /permissions, /hooks) in `info.py`, /context in `context_view.py`, /sandbox in
`sandbox_view.py`, /agents in `agents_view.py`, /skills in `skills_view.py`, /team in
`team_view.py`, /mcp in `mcp_view.py`; /resume and /memory in `sessions.py`; the
others each in their own module (named in the imports). `BUILTINS` lists them all, in
/help order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cc import __version__
from cc.commands.add_dir import add_dir_command
from cc.commands.agents_view import agents_command
from cc.commands.auth_view import login_command, logout_command
from cc.commands.config_edit import config_command
from cc.commands.context import CommandContext, CommandResult
from cc.commands.context_view import context_command
from cc.commands.doctor_view import doctor_command
from cc.commands.export import export_command
from cc.commands.info import (
    hooks_command,
    permissions_command,
    status_command,
)
from cc.commands.mcp_view import mcp_command
from cc.commands.output_style import output_style_command, restyle
from cc.commands.registry import BuiltinCommand
from cc.commands.release_notes import release_notes_command
from cc.commands.rename import rename_command
from cc.commands.review import review_command, security_review_command
from cc.commands.rewind import rewind_command
from cc.commands.sandbox_view import sandbox_command
from cc.commands.sessions import memory_command, resume_command
from cc.commands.skills_view import skills_command
from cc.commands.statusline import statusline_command
from cc.commands.tasks_view import tasks_command, todos_command
from cc.commands.team_view import team_command
from cc.commands.terminal_setup import terminal_setup_command
from cc.commands.vim import vim_command
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
    BuiltinCommand("help", "Show commands and shortcuts", help_command, in_print="unavailable"),
    BuiltinCommand("clear", "Start a new conversation (history is kept on disk)", clear_command,
                   in_print="run"),
    BuiltinCommand("compact", "Summarize the conversation to free context", compact_command,
                   argument_hint="[instructions]"),
    BuiltinCommand("model", "Show or set the model", model_command, argument_hint="[name]",
                   in_print="run"),
    BuiltinCommand("cost", "Tokens, cost and prompt cache use of this session", cost_command,
                   in_print="run"),
    BuiltinCommand("usage", "Tokens, cost and prompt cache use of this session", cost_command,
                   aliases=("stats",), in_print="run"),
    BuiltinCommand("status", "Version, model, session, permission mode, API key", status_command,
                   in_print="unavailable"),
    BuiltinCommand("config", "Show the settings, or set one (/config set <key> <value>)",
                   config_command, argument_hint="[set <key> <value>]", in_print="run"),
    BuiltinCommand("permissions", "List permission rules", permissions_command,
                   in_print="unavailable"),
    BuiltinCommand("hooks", "List configured hooks", hooks_command, in_print="unavailable"),
    BuiltinCommand("sandbox", "Show the Bash sandbox's state", sandbox_command,
                   in_print="unavailable"),
    BuiltinCommand("agents", "List the sub-agent types and where they are defined",
                   agents_command, in_print="run"),
    BuiltinCommand("skills", "List the skills and how to run them", skills_command,
                   in_print="unavailable"),
    BuiltinCommand("mcp", "MCP servers and their state; reconnect or enable one", mcp_command,
                   argument_hint="[reconnect|enable <name>]", in_print="run"),
    BuiltinCommand("team", "The team's members and their state; /team <name>: a member's "
                   "conversation", team_command, argument_hint="[name]"),
    BuiltinCommand("context", "What fills the context window (/context all: each MCP tool)",
                   context_command, argument_hint="[all]", in_print="run"),
    BuiltinCommand("memory", "Edit a CLAUDE.md memory file", memory_command,
                   in_print="unavailable"),
    BuiltinCommand("init", "Write a CLAUDE.md for this repository", init_command),
    BuiltinCommand("resume", "Resume an earlier conversation", resume_command,
                   argument_hint="[session id]", in_print="unavailable"),
    BuiltinCommand("export", "Export the conversation as text to a file, or the clipboard",
                   export_command, argument_hint="[file]", in_print="unavailable"),
    BuiltinCommand("tasks", "Background shells and agents; stop one", tasks_command,
                   aliases=("bashes",), argument_hint="[stop <id>]", in_print="unavailable"),
    BuiltinCommand("todos", "The current todo list", todos_command, in_print="unavailable"),
    BuiltinCommand("add-dir", "Add a working directory for this session", add_dir_command,
                   argument_hint="<path>", in_print="unavailable"),
    BuiltinCommand("review", "Review a pull request, or the changes on this branch",
                   review_command, argument_hint="[pr]", in_print="run"),
    BuiltinCommand("security-review", "Security review of the pending changes on this branch",
                   security_review_command, in_print="run"),
    BuiltinCommand("doctor", "Check the install, settings, key, MCP servers and sandbox",
                   doctor_command, in_print="run"),
    BuiltinCommand("rename", "Name this session", rename_command, argument_hint="<name>",
                   in_print="run"),
    BuiltinCommand("release-notes", "What each version of cc brought", release_notes_command,
                   in_print="unavailable"),
    BuiltinCommand("vim", "Switch between vi and normal editing keys", vim_command,
                   in_print="unavailable"),
    BuiltinCommand("terminal-setup", "How Shift+Enter and new lines work in this terminal",
                   terminal_setup_command, in_print="unavailable"),
    BuiltinCommand("login", "How to configure an API key", login_command,
                   in_print="unavailable"),
    BuiltinCommand("logout", "How to stop using an API key", logout_command,
                   in_print="unavailable"),
    BuiltinCommand("output-style", "Show or choose the output style", output_style_command,
                   argument_hint="[name]", in_print="run"),
    BuiltinCommand("statusline", "Set up the status line under the prompt",
                   statusline_command, argument_hint="[what to show]", in_print="unavailable"),
    BuiltinCommand("rewind", "Restore the code and/or conversation to before an earlier prompt",
                   rewind_command, aliases=("checkpoint", "undo"), in_print="unavailable"),
    BuiltinCommand("exit", "Leave cc", exit_command, aliases=("quit",), in_print="unavailable"),
)
