"""Which slash commands exist, and running one.

    dispatch("/model opus", ctx)   -> CommandResult   (a command ran)
    dispatch("fix the bug", ctx)   -> None            (not a command: send it as a prompt)

A command is recognized only at the start of the input; the rest is its arguments.
Input such as "/usr/bin/env is broken" (a path, not a name) is a prompt. An unknown
name is reported with the nearest known one. Besides built-ins and custom commands,
the MCP servers' prompts are commands (`/mcp__<server>__<prompt>`), as their servers
list them at the moment.
"""

from __future__ import annotations

import difflib
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from cc.commands.context import CommandContext, CommandResult, maybe_await
from cc.errors import CommandError
from cc.input.custom import CustomCommand, expand_command, find_custom, load_custom_commands
from cc.input.mcp_prompts import PromptSource, expand_mcp_prompt, find_prompt
from cc.input.prepare import McpInputs, parse_slash, prompt_message
from cc.mcp.prompts import PromptCommand

Handler = Callable[[CommandContext, str], Awaitable[CommandResult]]
#: What a built-in does when it is typed to `-p` (`cc.commands.headless`): runs ("run":
#: what it says is the answer, or its prompt is sent), says it "isn't available in this
#: environment" ("unavailable"), or goes to the model as typed ("model").
InPrint = Literal["run", "unavailable", "model"]
#: Custom command files are looked up again at most this often (seconds).
REFRESH_S = 2.0


@dataclass(frozen=True)
class BuiltinCommand:
    name: str
    description: str
    handler: Handler
    aliases: tuple[str, ...] = ()
    argument_hint: str | None = None
    in_print: InPrint = "model"


@dataclass(frozen=True)
class Entry:
    """A line of /help and of completion."""

    name: str
    description: str
    argument_hint: str | None = None


class CommandRegistry:
    def __init__(self, builtins: Iterable[BuiltinCommand], cwd: Path, config_dir: Path,
                 prompts: PromptSource | None = None) -> None:
        self.builtins = list(builtins)
        #: Where the MCP servers' prompts come from (the session's hub; None: no servers).
        self.prompts = prompts
        self._by_name = {n: b for b in self.builtins for n in (b.name, *b.aliases)}
        self._cwd, self._config_dir = cwd, config_dir
        self._custom: list[CustomCommand] = []
        self._loaded_at: float | None = None

    @classmethod
    def default(cls, cwd: Path, config_dir: Path,
                prompts: PromptSource | None = None) -> CommandRegistry:
        from cc.commands.builtins import BUILTINS

        return cls(BUILTINS, cwd, config_dir, prompts)

    @property
    def custom(self) -> list[CustomCommand]:
        now = time.monotonic()
        if self._loaded_at is None or now - self._loaded_at > REFRESH_S:
            self._custom = load_custom_commands(self._cwd, self._config_dir)
            self._loaded_at = now
        return self._custom

    def find(self, name: str) -> BuiltinCommand | CustomCommand | PromptCommand | None:
        if name in self._by_name:
            return self._by_name[name]
        return find_custom(self.custom, name) or find_prompt(self.prompts, name)

    def entries(self) -> list[Entry]:
        """Built-ins, then custom commands (each also under `folder:name`), then the MCP
        servers' prompts."""
        out = [Entry(b.name, b.description, b.argument_hint) for b in self.builtins]
        for c in self.custom:
            described = f"{c.description} {c.label}".strip()
            out.append(Entry(c.name, described, c.argument_hint))
            if c.namespace:
                out.append(Entry(c.qualified_name, described, c.argument_hint))
        for p in self.prompts.prompt_commands() if self.prompts is not None else ():
            out.append(Entry(p.name, f"{p.description} ({p.label})".strip(),
                             p.argument_hint or None))
        return out

    def names(self) -> list[str]:
        names = [n for b in self.builtins for n in (b.name, *b.aliases)]
        return names + [e.name for e in self.entries() if e.name not in names]

    def suggest(self, name: str) -> str | None:
        close = difflib.get_close_matches(name, self.names(), n=1, cutoff=0.5)
        return close[0] if close else None


async def dispatch(text: str, ctx: CommandContext) -> CommandResult | None:
    """Run `text` if it is a slash command; None when it is a prompt for the model."""
    parsed = parse_slash(text)
    if parsed is None:
        return None
    name, args = parsed
    command = ctx.commands.find(name)
    if command is None:
        suggestion = ctx.commands.suggest(name)
        hint = f" Did you mean /{suggestion}?" if suggestion else ""
        ctx.say(f"Unknown command: /{name}.{hint}", style="red")
        return CommandResult()
    if isinstance(command, BuiltinCommand):
        return await command.handler(ctx, args)
    if isinstance(command, PromptCommand):
        return await run_mcp_prompt(command, args, text, ctx)
    return await run_custom(command, args, ctx)


async def run_mcp_prompt(command: PromptCommand, args: str, typed: str,
                         ctx: CommandContext) -> CommandResult:
    """An MCP server's prompt: its messages are the prompt sent (nothing is sent when an
    argument is missing or a hook blocks it; the user is told)."""
    source = ctx.commands.prompts
    if source is None:
        ctx.say(f"/{command.name}: no MCP servers in this session.", style="red")
        return CommandResult()
    expansion = await expand_mcp_prompt(command, args, source, typed=typed,
                                        hooks=ctx.engine.hooks)
    for note in expansion.notices:
        ctx.say(note, style="yellow")
    if expansion.message is None:
        ctx.say(expansion.problem or f"/{command.name} gave nothing to send", style="red")
        return CommandResult()
    return CommandResult(submit=expansion.message)


async def run_custom(command: CustomCommand, args: str, ctx: CommandContext) -> CommandResult:
    permit = None
    check = ctx.services.permit_shell
    if check is not None:
        allowed = command.allowed_tools

        async def permit(cmd: str) -> bool:
            return bool(await maybe_await(check(cmd, allowed)))

    try:
        expanded = await expand_command(
            command, args, cwd=ctx.cwd, session_id=ctx.engine.session_id, permit=permit
        )
    except CommandError as exc:
        ctx.say(str(exc), style="red")
        return CommandResult()
    return CommandResult(
        submit=expanded.message, model=command.model, allowed_tools=command.allowed_tools
    )


async def resolve_input(text: str, ctx: CommandContext) -> CommandResult:
    """What typed (or `-p`) input amounts to: a command's result, or the prompt to send.

    A prompt is the text plus the files its `@path` mentions name and the MCP resources
    its `@server:uri` mentions name (a notice for each that cannot be attached). Only `!`
    shell lines are the REPL's own.
    """
    result = await dispatch(text, ctx)
    if result is not None:
        return result
    resources: McpInputs | None = ctx.runtime.mcp
    message, notices = await prompt_message(text, ctx.cwd, resources)
    for note in notices:
        ctx.say(note, style="yellow")
    return CommandResult(submit=message)
