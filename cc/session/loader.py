"""Load a transcript for `--continue` / `--resume`, repairing what an abrupt end left.

`validate_transcript(lines)` is pure: lines in, a LoadedSession out (messages that pass
`normalize_messages_for_api()`, plus warnings for everything it had to skip or mend).
`load_session(path)` reads the file, validates it and, when the file does not end with a
newline (a write cut short), appends one, so that the next line starts fresh. The file
is only ever appended to: never truncated, never rewritten.
"""

from __future__ import annotations

import fcntl
import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from cc.models.messages import Message
from cc.session.chain import Entry, build_chain, parse_lines
from cc.session.decode import decode_entries
from cc.session.lines import KNOWN_SKIPPED_TYPES, MESSAGE_TYPES
from cc.session.listing import (
    SessionInfo,
    find_latest_session,
    find_session_by_id,
    list_sessions,
)
from cc.session.repair import KilledTask, find_killed_tasks, killed_notice, pair_tool_results

__all__ = [
    "KilledTask",
    "LoadedSession",
    "SessionInfo",
    "find_latest_session",
    "find_session_by_id",
    "list_sessions",
    "load_session",
    "validate_transcript",
]


@dataclass
class LoadedSession:
    messages: list[Message]
    session_id: str
    #: What was skipped or mended, one sentence each, for the user to see.
    warnings: list[str] = field(default_factory=list)
    #: The uuid of the conversation's last line: the parentUuid of the next line written.
    last_uuid: str | None = None
    #: Background work that was running when the session ended (a notice about it ends
    #: `messages`).
    killed_tasks: list[KilledTask] = field(default_factory=list)
    #: Messages the loader made up (interrupted results, the killed-task notice): in
    #: `messages`, not in the file.
    repairs: list[Message] = field(default_factory=list)
    #: The uuids of the transcript lines each message was read from (by message uuid).
    lines: dict[str, list[str]] = field(default_factory=dict)
    path: Path | None = None


def validate_transcript(lines: Iterable[str | bytes], *, sidechain: bool = False,
                        at: str | None = None, drops_turn: str | None = None) -> LoadedSession:
    """The conversation in transcript `lines`, made whole (see the module docstring);
    with `sidechain`, the sub-agent's conversation its own transcript holds; with `at`,
    as it stood at that line (`cc.session.resume_at`: UsageError if there is none, or
    if what it leaves out is not turn `drops_turn`)."""
    entries, warnings = parse_lines(lines)
    if at is not None:
        from cc.session.resume_at import check_dropped_turn, cut_at

        if drops_turn is not None:
            check_dropped_turn(entries, at, drops_turn)
        entries = cut_at(entries, at)
    warnings += _unknown_types(entries)
    chain, chain_warnings = build_chain(entries, sidechain=sidechain)
    warnings += chain_warnings
    messages, decode_warnings, lines = decode_entries(chain)
    warnings += decode_warnings
    messages, pairing_warnings = pair_tool_results(messages)
    warnings += pairing_warnings
    killed = find_killed_tasks(messages)
    if killed:
        messages.append(killed_notice(killed))
        names = ", ".join(t.task_id for t in killed)
        warnings.append(
            f"Background task(s) {names} were running when the session ended; they were killed."
        )
    on_file = {e.uuid for e in chain}
    return LoadedSession(
        messages=messages,
        session_id=_session_id(entries),
        warnings=warnings,
        last_uuid=chain[-1].uuid if chain else None,
        killed_tasks=killed,
        repairs=[m for m in messages if m.uuid not in on_file],
        lines={m.uuid: lines[m.uuid] for m in messages if lines.get(m.uuid)},
    )


def load_session(path: Path, *, at: str | None = None,
                 drops_turn: str | None = None) -> LoadedSession:
    """Load the transcript at `path` (FileNotFoundError if there is none); `at` and
    `drops_turn` as `validate_transcript` takes them."""
    path = Path(path)
    data = path.read_bytes()
    loaded = validate_transcript(data.split(b"\n"), at=at, drops_turn=drops_turn)
    if data and not data.endswith(b"\n"):
        _end_with_newline(path)
    loaded.session_id = path.stem
    loaded.path = path
    return loaded


def _end_with_newline(path: Path) -> None:
    """Append a newline unless the file (by now) ends with one. Append only."""
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            os.write(fd, b"\n")
            os.fsync(fd)
    finally:
        os.close(fd)  # releases the lock


def _session_id(entries: list[Entry]) -> str:
    for entry in entries:
        value = entry.data.get("sessionId")
        if isinstance(value, str) and value:
            return value
    return ""


def _unknown_types(entries: list[Entry]) -> list[str]:
    """A warning per unknown line type that looks like conversation we skip: a
    message on the uuid chain.

    Other unknown lines are Claude Code's bookkeeping (request records and blobs,
    cost state, ...): newer versions add such types often, so they are skipped quietly.
    """
    counts = Counter(
        str(e.type)
        for e in entries
        if e.type not in MESSAGE_TYPES | KNOWN_SKIPPED_TYPES
        and isinstance(e.data.get("message"), dict)
        and e.uuid is not None
    )
    return [
        f"Skipped {n} transcript line(s) of unknown type {kind!r}."
        for kind, n in sorted(counts.items())
    ]
