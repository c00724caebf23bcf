"""Which slash commands exist, and running one.

    dispatch("/model opus", ctx)   -> CommandResult   (a command ran)
    dispatch("fix the bug", ctx)   -> None            (not a command: send it as a prompt)

A command is recognized only at the start of the input; the rest is its arguments.
Input such as "/usr/bin/env is broken" (a path, not a name) is a prompt. An unknown
name is reported with the nearest known one.
"""

from __future__ import annotations

import difflib
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from cc.commands.context import CommandContext, CommandResult, maybe_await
from cc.errors import CommandError
from cc.input.custom import CustomCommand, expand_command, find_custom, load_custom_commands
from cc.input.prepare import parse_slash

Handler = Callable[[CommandContext, str], Awaitable[CommandResult]]
#: Custom command files are looked up again at most this often (seconds).
REFRESH_S = 2.0


@dataclass(frozen=True)
class BuiltinCommand:
    name: str
    description: str
    handler: Handler
    aliases: tuple[str, ...] = ()
    argument_hint: str | None = None


@dataclass(frozen=True)
class Entry:
    """A line of /help and of completion."""

    name: str
    description: str
    argument_hint: str | None = None


class CommandRegistry:
    def __init__(self, builtins: Iterable[BuiltinCommand], cwd: Path, config_dir: Path) -> None:
        self.builtins = list(builtins)
        self._by_name = {n: b for b in self.builtins for n in (b.name, *b.aliases)}
        self._cwd, self._config_dir = cwd, config_dir
        self._custom: list[CustomCommand] = []
        self._loaded_at: float | None = None

    @classmethod
    def default(cls, cwd: Path, config_dir: Path) -> CommandRegistry:
        from cc.commands.builtins import BUILTINS

        return cls(BUILTINS, cwd, config_dir)

    @property
    def custom(self) -> list[CustomCommand]:
        now = time.monotonic()
        if self._loaded_at is None or now - self._loaded_at > REFRESH_S:
            self._custom = load_custom_commands(self._cwd, self._config_dir)
            self._loaded_at = now
        return self._custom

    def find(self, name: str) -> BuiltinCommand | CustomCommand | None:
        if name in self._by_name:
            return self._by_name[name]
        return find_custom(self.custom, name)

    def entries(self) -> list[Entry]:
        """Built-ins, then custom commands (each also under `folder:name`)."""
        out = [Entry(b.name, b.description, b.argument_hint) for b in self.builtins]
        for c in self.custom:
            described = f"{c.description} {c.label}".strip()
            out.append(Entry(c.name, described, c.argument_hint))
            if c.namespace:
                out.append(Entry(c.qualified_name, described, c.argument_hint))
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
    return await run_custom(command, args, ctx)


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

    A prompt is the text plus the files its `@path` mentions name. The REPL and print
    mode both start here; only `!` shell lines are the REPL's own.
    """
    result = await dispatch(text, ctx)
    if result is not None:
        return result
    from cc.input.mentions import expand_mentions

    return CommandResult(submit=expand_mentions(text, ctx.cwd))
