"""/rewind (also /checkpoint, /undo): go back to before an earlier prompt.

The user picks a prompt (the latest first), then what to restore: the code and the
conversation, the conversation only, the code only, or nothing. A restored
conversation ends just before that prompt, whose text goes back into the input box.
Outside the REPL the prompts are listed, and nothing is changed.
"""

from __future__ import annotations

from cc.commands.context import CommandContext, CommandResult

CHOICES = ("Restore code and conversation", "Restore conversation", "Restore code",
           "Never mind")
SHOWN_CHARS = 70


def _line(text: str) -> str:
    shown = " ".join(text.split())
    return shown if len(shown) <= SHOWN_CHARS else shown[: SHOWN_CHARS - 1] + "…"


async def rewind_command(ctx: CommandContext, args: str) -> CommandResult:
    from cc.session import rewind

    points = rewind.prompt_points(ctx.engine)
    if not points:
        ctx.say("Nothing to rewind to yet: no prompt has been sent.", style="dim")
        return CommandResult()
    if ctx.choose is None:
        ctx.say("Earlier prompts (rewind to one in the interactive session):")
        for point in reversed(points):
            ctx.say(f"  {_line(point.text)}")
        return CommandResult()
    newest_first = list(reversed(points))
    labels = []
    for point in newest_first:
        changed = await rewind.turn_summary(ctx.engine, point.message_id)
        labels.append(f"{_line(point.text)} · {changed}" if changed else _line(point.text))
    index = await ctx.choose("Rewind to before which prompt?", labels)
    if index is None:
        ctx.say("Rewind cancelled.", style="dim")
        return CommandResult()
    point = newest_first[index]
    plan = await rewind.plan_code(ctx.engine, point.message_id)
    code = plan if isinstance(plan, str) else rewind.describe(plan, ctx.cwd)
    title = f"Rewind to before: {_line(point.text)}\n{code}\n{rewind.NOT_TRACKED}"
    choice = await ctx.choose(title, list(CHOICES))
    if choice is None or choice == 3:
        ctx.say("Rewind cancelled.", style="dim")
        return CommandResult()
    said: list[str] = []
    if choice in (0, 2):
        done = await rewind.rewind_code(ctx.engine, point.message_id)
        if isinstance(done, str):
            ctx.say(f"Could not restore the code: {done}", style="red")
            return CommandResult()
        said.append(f"Restored the code ({_files(len(done.changes))} changed).")
    if choice == 2:
        ctx.say(said[0], style="dim")
        return CommandResult()
    text = rewind.rewind_conversation(ctx.engine, point.message_id)
    if text is None:
        ctx.say("That prompt is no longer in the conversation.", style="red")
        return CommandResult()
    if ctx.replay is not None:  # a fresh screen: the conversation as it now stands
        ctx.replay(ctx.engine.messages)
        ctx.say("")
    for line in [*said, f"Rewound the conversation to before: {_line(text)}"]:
        ctx.say(line, style="dim")
    return CommandResult(prefill=text, clear_screen=ctx.replay is not None)


def _files(n: int) -> str:
    return "1 file" if n == 1 else f"{n} files"
