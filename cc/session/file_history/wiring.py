"""When a session keeps checkpoints, and the engine's factory for them.

Claude Code keeps them in the interactive session, and for the SDK (print mode) only
when `CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING` is on (the SDKs' file-checkpointing
option sets it); `CLAUDE_CODE_DISABLE_FILE_CHECKPOINTING` turns them off. A session
saved nowhere (`--no-session-persistence`) keeps none.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from cc.config.env import truthy

if TYPE_CHECKING:
    from cc.core.query_engine import TranscriptSink
    from cc.session.file_history.store import FileHistory


def checkpointing_enabled(interactive: bool, env: Mapping[str, str] | None = None) -> bool:
    env = os.environ if env is None else env
    if truthy(env.get("CLAUDE_CODE_DISABLE_FILE_CHECKPOINTING")):
        return False
    return interactive or truthy(env.get("CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING"))


def checkpoint_factory(
    config: Path, cwd: Path, warn: Callable[[list[str]], None]
) -> Callable[[str, TranscriptSink | None], FileHistory | None]:
    """Make a session's FileHistory beside its transcript: what the transcript already
    records (a resumed session's), and its new lines written to it."""

    def make(session_id: str, writer: TranscriptSink | None) -> FileHistory | None:
        from cc.session.file_history.store import FileHistory, history_folder
        from cc.session.transcript import TranscriptWriter

        if not isinstance(writer, TranscriptWriter):
            return None
        history, warnings = FileHistory.load(history_folder(config, session_id), cwd,
                                             _objects(writer.path), writer.record_meta)
        warn(warnings)
        return history

    return make


def _objects(path: Path) -> list[dict[str, object]]:
    from cc.session.chain import parse_lines

    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return []
    entries, _ = parse_lines(raw.splitlines())  # the loader reports damaged lines
    return [e.data for e in entries]
