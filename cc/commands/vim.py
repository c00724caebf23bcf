"""/vim: switch the prompt between vi editing (prompt_toolkit's vi mode: Esc for normal
mode, i/a to insert) and the usual readline keys. The choice is remembered as Claude
Code remembers it, `editorMode` ("vim" or "normal") in the global state file, and a
settings file's `editorMode` wins over it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from cc.commands.context import CommandContext, CommandResult

if TYPE_CHECKING:
    from cc.config.settings import Settings

__all__ = ["editor_mode", "vim_command"]


def editor_mode(config_dir: Path, settings: Settings | None = None) -> str:
    """"vim" or "normal": how the prompt edits."""
    from cc.config.global_state import read_state

    chosen = settings.get("editorMode") if settings is not None else None
    if chosen not in ("vim", "normal"):
        chosen = read_state(config_dir).get("editorMode")
    return "vim" if chosen == "vim" else "normal"


async def vim_command(ctx: CommandContext, args: str) -> CommandResult:
    from cc.config.global_state import update_state

    mode = "normal" if editor_mode(ctx.config_dir) == "vim" else "vim"
    try:
        update_state(ctx.config_dir, lambda data: data.__setitem__("editorMode", mode))
    except OSError as exc:
        ctx.say(f"Could not remember the editor mode: {exc}", style="yellow")
    if ctx.set_editing_mode is not None:
        ctx.set_editing_mode(mode)
    if mode == "vim":
        ctx.say("Editor mode set to vim: Esc for normal mode, i or a to insert again.")
    else:
        ctx.say("Editor mode set to normal: the usual readline keys.")
    if (ctx.runtime.settings.get("editorMode") or mode) != mode:
        ctx.say("A settings file sets editorMode; it wins at the next start.", style="yellow")
    return CommandResult()
