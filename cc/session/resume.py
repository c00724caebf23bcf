"""Writers for a loaded conversation: go on in the same transcript, or fork it.

`resume_writer()` (`-c`, `-r`): the same session id and file. New lines chain onto the
conversation's last line. The loader's repairs that end the conversation (results for
calls cut short, the notice about killed background tasks) are appended at once, so the
next load finds them on file and does not report them again; a repair in the middle of
the conversation cannot be appended in place and is simply made again on every load.

`fork_session()` (`--fork-session`): a new session id and file. Its first lines
re-record every loaded message (repairs included), each marked `forkedFrom: {sessionId,
messageUuid}` as Claude Code marks forks, so the fork resumes on its own even if the
source transcript is deleted. Messages keep their uuids; the source file is only read.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from cc.session.loader import LoadedSession
from cc.session.transcript import TranscriptMirror, TranscriptWriter


def resume_writer(
    loaded: LoadedSession,
    *,
    cwd: Path,
    version: str,
    fsync: bool = True,
    clock: Callable[[], datetime] | None = None,
    mirror: TranscriptMirror | None = None,
) -> TranscriptWriter:
    """A writer continuing `loaded` (from `load_session`) in its own file; `mirror` is
    told of what it writes, the repairs it appends at once included."""
    if loaded.path is None:
        raise ValueError("the loaded session has no file (use load_session)")
    writer = TranscriptWriter(
        loaded.path,
        session_id=loaded.session_id,
        cwd=cwd,
        version=version,
        fsync=fsync,
        parent_uuid=loaded.last_uuid,
        clock=clock,
    )
    writer.mirror = mirror
    repairs = {m.uuid for m in loaded.repairs}
    cut = len(loaded.messages)
    while cut and loaded.messages[cut - 1].uuid in repairs:
        cut -= 1
    writer.mark_recorded(loaded.messages[:cut], loaded.lines)
    writer.sync(loaded.messages[cut:])
    return writer


def fork_session(loaded: LoadedSession, writer: TranscriptWriter) -> None:
    """Write `loaded`'s messages as the start of `writer`'s (new, empty) transcript."""
    saved = writer.extra
    try:
        for message in loaded.messages:
            fork = {"sessionId": loaded.session_id, "messageUuid": message.uuid}
            writer.extra = saved | {"forkedFrom": fork}
            writer.record(message)
    finally:
        writer.extra = saved
