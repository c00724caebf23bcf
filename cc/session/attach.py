"""Connect an engine to its transcript: a new session, or one resumed (-c, -r ID).

`--fork-session` continues under a new id in a new file, leaving the old one
untouched; without persistence nothing is written. `--resume-session-at` resumes the
conversation as it stood at an earlier line (`cc.session.resume_at`).
"""

from __future__ import annotations

import sys
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cc import __version__
from cc.errors import UsageError
from cc.session.cleanup import cleanup_transcripts
from cc.session.opening import opening_lines
from cc.session.paths import session_path
from cc.session.transcript import TranscriptMirror, TranscriptWriter

if TYPE_CHECKING:
    from cc.core.query_engine import QueryEngine


@dataclass(frozen=True)
class SessionChoice:
    """What the command line asked for."""

    continue_latest: bool = False
    resume_id: str | None = None
    fork: bool = False
    #: --session-id was given (the engine already carries it).
    fixed_id: bool = False
    persist: bool = True
    #: --resume-session-at: the conversation as it stood at this line.
    resume_at: str | None = None
    #: --resume-drops-turn: what resuming at `resume_at` leaves out must be this turn.
    drops_turn: str | None = None
    #: --session-mirror: told of every line the session's transcripts get.
    mirror: TranscriptMirror | None = None
    #: Keep checkpoints of the files tools change (`cc.session.file_history`).
    checkpoints: bool = False


def attach_session(
    engine: QueryEngine,
    choice: SessionChoice,
    *,
    cwd: Path,
    config: Path,
    cleanup_days: object = None,
) -> bool:
    """Load what `choice` resumes into `engine` and give it a transcript; True if resumed."""

    def new_writer(session_id: str) -> TranscriptWriter:
        path = session_path(cwd, config, session_id)
        writer = TranscriptWriter(path, session_id=session_id, cwd=cwd, version=__version__,
                                  opening=lambda: opening_lines(cwd, engine.model))
        writer.mirror = choice.mirror
        return writer

    source = None
    if choice.continue_latest or choice.resume_id:  # reading transcripts loads with the need
        from cc.session.loader import find_latest_session, find_session_by_id
    if choice.continue_latest:
        source = find_latest_session(cwd, config)  # none yet: start afresh, as Claude Code does
    elif choice.resume_id:
        source = find_session_by_id(config, choice.resume_id, cwd)
        if source is None:
            raise UsageError(f"No conversation found with session ID: {choice.resume_id}")

    engine.use_transcript_factory(new_writer if choice.persist else None)
    if choice.checkpoints:
        from cc.session.file_history.wiring import checkpoint_factory

        engine.checkpoint_factory = checkpoint_factory(config, cwd, _warn)
    if source is None:
        if choice.fixed_id and session_path(cwd, config, engine.session_id).exists():
            raise UsageError(f"Session ID {engine.session_id} is already in use")
        engine.use_transcript(new_writer(engine.session_id) if choice.persist else None)
    else:
        if choice.fork and not choice.fixed_id:
            engine.set_session_id(str(uuid.uuid4()))
        resume_into(engine, source, cwd=cwd, fork=choice.fork, persist=choice.persist,
                    at=choice.resume_at, drops_turn=choice.drops_turn, mirror=choice.mirror)
    kept = engine.transcript.path if engine.transcript else source
    _deleted, warnings = cleanup_transcripts(config, cleanup_days, kept)
    _warn(warnings)
    return source is not None


def resume_into(
    engine: QueryEngine, path: Path, *, cwd: Path, fork: bool = False, persist: bool = True,
    at: str | None = None, drops_turn: str | None = None,
    mirror: TranscriptMirror | None = None,
) -> None:
    """Load the transcript at `path` into `engine`, and the writer that continues it.

    With `fork`, the engine keeps its own (new) session id and the conversation is
    re-recorded into a new file; the old file is left as it is. With `at`, the
    conversation as it stood at that line (`cc.session.resume_at`); the next line
    written hangs off it.
    """
    from cc.session.loader import load_session
    from cc.session.resume import fork_session, resume_writer

    loaded = load_session(path, at=at, drops_turn=drops_turn)
    _warn(loaded.warnings)
    engine.replace_messages(loaded.messages)
    writer = None
    if fork:
        factory = engine.transcript_factory
        if persist and factory is not None:
            writer = factory(engine.session_id)
            fork_session(loaded, writer)
    else:
        engine.set_session_id(loaded.session_id)
        if persist:
            writer = resume_writer(loaded, cwd=cwd, version=__version__, mirror=mirror)
    engine.use_transcript(writer)


def _warn(warnings: list[str]) -> None:
    for warning in warnings:
        print(f"Warning: {warning}", file=sys.stderr)
