"""Going back to before an earlier prompt: its code, its conversation, or both.

    prompt_points(engine)              the prompts one may rewind to, oldest first
    turn_summary(engine, id)           what tools changed in that prompt's turn
    plan_code(engine, id)              what restoring the code would change
    rewind_code(engine, id)            restore the files tools changed since then
    rewind_conversation(engine, id)    cut the conversation just before the prompt

The code comes back from the session's checkpoints (`cc.session.file_history`); what
shell commands changed is not tracked, and stays. The conversation is cut in memory
and on file: a notice line hangs off the last message kept, so a resume follows the
cut even if nothing else is said before the session ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cc.models.content_blocks import TextBlock, ToolResultBlock
from cc.models.messages import SystemMessage, UserMessage

if TYPE_CHECKING:
    from cc.core.query_engine import QueryEngine
    from cc.session.file_history.rewind import RewindPlan
    from cc.session.file_history.store import FileHistory

NOT_TRACKED = "Changes made by shell commands (Bash) are not tracked, and are not undone."
NO_CHECKPOINTS = "This session keeps no checkpoints of files."
SHOWN_FILES = 3
_NOT_PROMPTS = ("<bash-stdout>", "<local-command-stdout>", "<command-message>")


@dataclass(frozen=True)
class PromptPoint:
    message_id: str
    #: The prompt as typed (a slash command as `/name args`).
    text: str


def prompt_text(message: UserMessage) -> str | None:
    """What the user typed, if `message` is a prompt of theirs (None: it is not)."""
    if message.is_meta or any(isinstance(b, ToolResultBlock) for b in message.content):
        return None
    texts = [b.text for b in message.content if isinstance(b, TextBlock)]
    if not texts or texts[0].startswith(_NOT_PROMPTS):
        return None
    first = texts[0]
    if first.startswith("<command-name>"):
        name = first.split("</command-name>")[0].removeprefix("<command-name>")
        args = first.partition("<command-args>")[2].partition("</command-args>")[0]
        return f"{name} {args}".strip()
    if first.startswith("<bash-input>"):
        return "!" + first.removeprefix("<bash-input>").removesuffix("</bash-input>")
    return "\n".join(texts)


def prompt_points(engine: QueryEngine) -> list[PromptPoint]:
    points = []
    for message in engine.messages:
        if isinstance(message, UserMessage):
            text = prompt_text(message)
            if text is not None:
                points.append(PromptPoint(message.uuid, text))
    return points


def history_of(engine: QueryEngine) -> FileHistory | None:
    from cc.session.file_history.store import FileHistory

    found = engine.checkpoints
    return found if isinstance(found, FileHistory) else None


async def plan_code(engine: QueryEngine, message_id: str) -> RewindPlan | str:
    history = history_of(engine)
    if history is None:
        return NO_CHECKPOINTS
    return await history.plan(message_id)


async def rewind_code(engine: QueryEngine, message_id: str) -> RewindPlan | str:
    history = history_of(engine)
    if history is None:
        return NO_CHECKPOINTS
    return await history.rewind(message_id)


async def turn_summary(engine: QueryEngine, message_id: str) -> str:
    """What tools changed in the turn of that prompt, as `a.py +2 -1, b.py +3` ("" when
    nothing, or the session keeps no checkpoints)."""
    history = history_of(engine)
    if history is None:
        return ""
    parts = []
    for key, added, removed in await history.turn_changes(message_id):
        counts = " ".join(f for f in (f"+{added}" if added else "",
                                       f"-{removed}" if removed else "") if f)
        parts.append(f"{key} {counts or 'changed'}")
    return ", ".join(parts)


def rewind_conversation(engine: QueryEngine, message_id: str) -> str | None:
    """Cut the conversation before prompt `message_id`; the prompt's text (None: no such
    prompt in the conversation, and nothing changed)."""
    message = engine.rewind_to(message_id)
    if message is None:
        return None
    text = prompt_text(message) or ""
    shown = " ".join(text.split())
    shown = shown if len(shown) <= 60 else shown[:59] + "…"
    engine.append(SystemMessage(f"Rewound the conversation to before: {shown}"))
    return text


def describe(plan: RewindPlan, cwd: Path) -> str:
    """One line for what restoring the code changes (files named, up to three)."""
    n = len(plan.changes)
    if not n:
        return "The code is as it was then; restoring it changes nothing."
    names = [_shown(c.path, cwd) for c in plan.changes]
    files = ", ".join(names) if n <= SHOWN_FILES else f"{n} files"
    return f"Restoring the code changes {files} (+{plan.insertions} -{plan.deletions})."


def _shown(path: Path, cwd: Path) -> str:
    try:
        return str(path.relative_to(cwd))
    except ValueError:
        return str(path)
