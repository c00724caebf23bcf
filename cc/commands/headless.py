"""Slash commands typed to print mode (`cc -p "/cost"`), handled as Claude Code 2.1
was observed to handle them:

    -p "/cost"      a built-in that needs no terminal runs; what it says is the run's
                    answer, and no request is made
    -p "/review"    a prompt command: its prompt goes to the model
    -p "/export"    a built-in that needs the terminal: "/export isn't available in
                    this environment." is the answer
    -p "/exprot"    no such command: the text goes to the model, after a note that the
                    command does not exist (naming the nearest one)
    -p "/status"    the other built-ins, custom commands, MCP prompts: as before

`headless_command` says which; print mode acts on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from io import StringIO
from typing import TYPE_CHECKING

from cc.input.prepare import parse_slash

if TYPE_CHECKING:
    from cc.app.session import Session
    from cc.commands.context import CommandResult

__all__ = ["Headless", "headless_command", "unknown_note"]


@dataclass(frozen=True)
class Headless:
    #: Answered here: the run's result (no request).
    said: str | None = None
    #: A built-in's result to act on (its `submit` is the prompt to send).
    result: CommandResult | None = None
    #: No such command: a note to put before the prompt sent.
    note: str | None = None


async def headless_command(session: Session, text: str) -> Headless | None:
    """What `text` amounts to in print mode; None when it is handled as any prompt."""
    parsed = parse_slash(text)
    if parsed is None:  # most prompts: nothing more is imported
        return None
    from rich.console import Console

    from cc.commands.context import CommandContext
    from cc.commands.registry import BuiltinCommand, CommandRegistry

    name, args = parsed
    commands = CommandRegistry.default(session.cwd, session.config_dir, prompts=session.mcp)
    command = commands.find(name)
    if command is None:
        return Headless(note=unknown_note(name, commands.suggest(name)))
    if not isinstance(command, BuiltinCommand) or command.in_print == "model":
        return None
    if command.in_print == "unavailable":
        return Headless(said=f"/{name} isn't available in this environment.")
    console = Console(file=StringIO(), width=100, color_system=None, force_terminal=False)
    ctx = CommandContext(session.engine, session, console, commands)
    result = await command.handler(ctx, args)
    said = console.file.getvalue().rstrip()  # type: ignore[attr-defined]
    if result.submit is not None:
        return Headless(result=result)
    return Headless(said="\n".join(line.rstrip() for line in said.splitlines()))


def unknown_note(name: str, nearest: str | None) -> str:
    """The note sent before a prompt that starts with a command this session lacks."""
    from cc.prompts import load_text

    hint = f" The nearest command is /{nearest}." if nearest else ""
    return load_text("commands/unknown_command.md").strip().format(name=name, nearest=hint)
