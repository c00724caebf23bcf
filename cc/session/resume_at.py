"""`--resume-session-at UUID`: resume a conversation as it stood at one of its lines, and
`--resume-drops-turn UUID`: first make sure that what that leaves out is one turn.

The lines up to and including the named one (in file order) are read as the whole
transcript, so the conversation is the chain that ends there; the next line written
hangs off it (a branch: the lines after it stay in the file, off the conversation).

With `--resume-drops-turn`, the conversation's lines after the resume point must be the
declared turn: its prompt first (the user line with that uuid), then only what the turn
itself made (answers, tool results, the loop's own notes). A second prompt, or a
background task's notification taken in mid-turn, means the caller would lose
something it has not seen, and the resume is refused. The refusal begins with the
words the Agent SDK tells its users to match (`REFUSED`).
"""

from __future__ import annotations

import json

from cc.errors import UsageError
from cc.session.entry import Entry
from cc.session.lines import MESSAGE_TYPES

#: How a refusal begins (the SDK documents this text as the one to match).
REFUSED = "Resume rejected by --resume-drops-turn:"


def cut_at(entries: list[Entry], uuid: str) -> list[Entry]:
    """The entries up to and including the conversation line `uuid` (UsageError if the
    transcript has none)."""
    for position, entry in enumerate(entries):
        if entry.uuid == uuid and not entry.data.get("isSidechain"):
            return entries[: position + 1]
    raise UsageError(f"--resume-session-at: the session has no message {uuid}")


def check_dropped_turn(entries: list[Entry], uuid: str, turn: str) -> None:
    """Refuse (UsageError) unless the conversation lines after `uuid` are turn `turn`."""
    at = len(cut_at(entries, uuid))
    dropped = [e for e in entries[at:]
               if e.type in MESSAGE_TYPES and e.uuid and not e.data.get("isSidechain")]
    if not dropped:
        return
    first = dropped[0]
    if first.type != "user" or first.uuid != turn:
        raise UsageError(f"{REFUSED} the first line after {uuid} is {_name(first)}, not the "
                         f"prompt of turn {turn}")
    for entry in dropped[1:]:
        why = _not_of_the_turn(entry)
        if why is not None:
            raise UsageError(f"{REFUSED} resuming at {uuid} would also drop {_name(entry)}, "
                             f"{why}")


def _not_of_the_turn(entry: Entry) -> str | None:
    """Why a line after the prompt is not the turn's own doing (None: it is)."""
    if entry.type != "user" or entry.only_tool_results or entry.is_compact_summary:
        return None
    if "<task-notification>" in json.dumps(entry.content):
        return "a background task's notification taken in during the turn"
    if not entry.data.get("isMeta"):
        return "a prompt of its own"
    return None


def _name(entry: Entry) -> str:
    return f"a {entry.type} line ({entry.uuid})"
