"""/rename <name>: names the session. The name goes into the transcript as Claude
Code writes it (a `custom-title` line, then an `agent-name` line; the last one wins),
so `/resume` and Claude Code's own picker show it."""

from __future__ import annotations

from cc.commands.context import CommandContext, CommandResult

__all__ = ["rename_command"]


async def rename_command(ctx: CommandContext, args: str) -> CommandResult:
    from cc.session.transcript import TranscriptWriter

    name = " ".join(args.split())
    if not name:
        ctx.say("Usage: /rename <name>", style="red")
        return CommandResult()
    writer = ctx.engine.transcript
    if not isinstance(writer, TranscriptWriter):
        ctx.say("This session is not saved, so its name cannot be kept.", style="yellow")
        return CommandResult()
    try:
        ctx.engine.save()  # the conversation first, then its name after it
        writer.record_title(name)
    except OSError as exc:
        ctx.say(f"Could not rename the session: {exc.strerror or exc}", style="red")
        return CommandResult()
    ctx.say(f"Session renamed to: {name}")
    return CommandResult()
