"""/release-notes: what each version of cc brought (`cc/release_notes.md`, newest first)."""

from __future__ import annotations

from importlib import resources

from cc.commands.context import CommandContext, CommandResult

__all__ = ["release_notes", "release_notes_command"]


def release_notes() -> str:
    return resources.files("cc").joinpath("release_notes.md").read_text(encoding="utf-8")


async def release_notes_command(ctx: CommandContext, args: str) -> CommandResult:
    from cc import __version__

    ctx.say(f"cc {__version__} · release notes", style="bold")
    ctx.say("")
    ctx.say(release_notes().strip())
    return CommandResult()
