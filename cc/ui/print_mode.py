"""Print mode: one turn, written as text, one JSON result, or a JSON line stream.

The records follow Claude Code's `--output-format json|stream-json` shapes so
that scripts written for it read ours; `json --verbose` prints every record of
the stream as one JSON array, as Claude Code does.

SIGINT or SIGTERM cancels the turn. The shutdown is bounded: the turn, then the
SessionEnd hooks and the engine's close, each get `SHUTDOWN_GRACE_S` (a second
signal cuts the wait short), and the result record is written whatever they
do, so a script always gets its answer and the process always ends.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any

from cc import __version__
from cc.core.events import (
    Compacted,
    CompactionFailed,
    Event,
    Terminal,
    TurnSummary,
)
from cc.models.content_blocks import TextBlock
from cc.models.messages import AssistantMessage, UserMessage, new_uuid
from cc.models.usage import UsageTotals
from cc.ui.records import (
    assistant_records,
    background_records,
    hook_record,
    init_record,
    result_record,
    user_text_record,
)
from cc.ui.turn_writer import Turn, Writer, aborted, consume, emit_interrupted

if TYPE_CHECKING:
    from pathlib import Path

    from cc.app.session import Session
    from cc.core.query_engine import QueryEngine
    from cc.hooks.lifecycle import HookNote
    from cc.session.transcript import TranscriptMirror

#: What text mode prints for error subtypes (Claude Code's fixed strings).
_ERROR_TEXT = {
    "error_max_turns": "Error: Reached max turns ({max_turns})",
    "error_max_budget_usd": "Error: Exceeded USD budget ({limit_usd:g})",
    "error_during_execution": "Execution error",
    "error_max_structured_output_retries": "Error: {error}",
}
#: How long each step of an interrupted run may take before it is abandoned.
SHUTDOWN_GRACE_S = 3.0
#: Exit statuses after a signal, as Claude Code's: SIGINT ends the run normally (its
#: result record says what happened), SIGTERM as a shell reports it.
_SIGNAL_EXIT = {signal.SIGINT: 0, signal.SIGTERM: 143}


@dataclass
class _Interrupt:
    """Which signal stopped the run, and a way to cut the shutdown short."""

    signum: int | None = None
    signalled: asyncio.Event = field(default_factory=asyncio.Event)
    hurry: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def happened(self) -> bool:
        return self.signum is not None


async def run_print(
    session: Session,
    prompt: str,
    output_format: str,
    out: IO[str] | None = None,
    *,
    verbose: bool = False,
    partial: bool = False,
) -> int:
    engine = session.engine
    stream: IO[str] = out or sys.stdout
    started = time.monotonic()
    collected: list[dict[str, Any]] | None = (
        [] if output_format == "json" and verbose else None
    )
    records = output_format == "stream-json" or collected is not None
    announced = False

    def write(record: dict[str, Any]) -> None:
        if collected is not None:
            collected.append(record)
            return
        stream.write(json.dumps(record, ensure_ascii=False) + "\n")
        stream.flush()

    def emit(record: dict[str, Any]) -> None:
        """A record, after `system/init`: hook records of the session's start and of the
        prompt may come before it (as in Claude Code); anything else writes it first."""
        nonlocal announced
        if records and not announced:
            announced = True
            write(init_record(session, __version__))
        write(record)

    for note in await session.mcp_ready():  # its tools are in the first request
        print(f"Warning: {note}", file=sys.stderr)
    if records:
        every_hook = session.options.include_hook_events

        def hook_ran(note: HookNote) -> None:
            if every_hook or note.hook_event in ("SessionStart", "Setup"):
                write(hook_record(note, engine.session_id))

        session.hook_watchers.append(hook_ran)
        if (agents := engine.executor.ctx.agent_tasks) is not None:
            agents.watchers.append(background_records(engine.session_id, emit))
    turns = [Turn()]
    failure: str | None = None
    interrupt = _Interrupt()
    loop = asyncio.get_running_loop()

    reported = UsageTotals()

    def usage_since_last(summary: TurnSummary) -> UsageTotals | None:
        """What the session used since the previous result (records only)."""
        nonlocal reported
        if not records:
            return None
        since, reported = summary.usage.since(reported), summary.usage
        return since

    def finished_turn(turn: Turn) -> None:
        """A turn before the last one (background agents started another): its result."""
        terminal = turn.terminal or Terminal("turn_setup_failed")
        summary = terminal.summary or engine.summarize()
        record = result_record(terminal, summary, turn.last, failure=None,
                               duration_ms=int((time.monotonic() - started) * 1000),
                               denials=engine.denials, since_last=usage_since_last(summary))
        if records:
            emit(_numbered(record, len(turns) - 1))

    writer = Writer(emit, records, text=output_format == "text",
                     partial=partial and output_format == "stream-json")

    async def turns_of_the_run() -> None:
        await _run_turn(session, prompt, turns[-1], writer)
        # Agents still running in the background: wait for them, then let the model
        # read their notifications in a new turn (as Claude Code does).
        while _completed(turns[-1]) and await session.wait_for_news():
            finished_turn(turns[-1])
            turns.append(Turn(start=len(engine.messages)))
            await consume(engine, session.submit(None), turns[-1], writer)

    work = asyncio.create_task(turns_of_the_run())
    for signum in _SIGNAL_EXIT:
        loop.add_signal_handler(signum, _on_signal, signum, interrupt, work)
    try:
        try:
            await _bounded(work, interrupt)
        except Exception as exc:  # noqa: BLE001 - reported as error_during_execution
            failure = f"{type(exc).__name__}: {exc}"
        turn = turns[-1]
        if interrupt.happened:
            turn.terminal = aborted(turn)
            if records:
                emit_interrupted(engine, turn, emit)
        result = _write_result(turn, turns, engine, failure, started, output_format, stream,
                               collected, emit, usage_since_last)
        session.hook_watchers.clear()  # the result is the last record (SessionEnd's unsaid)
        # The answer is out: end at once (no background memory extraction to wait on).
        await _bounded(_ending(session), interrupt)
    finally:
        for signum in _SIGNAL_EXIT:
            loop.remove_signal_handler(signum)

    if interrupt.signum is not None:
        return _SIGNAL_EXIT[signal.Signals(interrupt.signum)]
    return 1 if result["is_error"] else 0


def mirror_frames(out: IO[str]) -> TranscriptMirror:
    """`--session-mirror`: each batch of transcript lines, as it goes on file, written as
    a `transcript_mirror` frame (the Agent SDK hands them to its session store)."""

    def frame(path: Path, lines: list[dict[str, Any]]) -> None:
        out.write(json.dumps({"type": "transcript_mirror", "filePath": str(path),
                              "entries": lines}, ensure_ascii=False) + "\n")
        out.flush()

    return frame


def startup_failed(session: Session, problem: str, output_format: str,
                   out: IO[str] | None = None) -> int:
    """The run could not start (a session to resume is missing, or the resume was
    refused): said on stderr, and, in json and stream-json, as an error result whose
    `errors` say it (what the Agent SDK raises), as Claude Code does. Exit status 1."""
    print(f"Error: {problem}", file=sys.stderr)
    if output_format in ("json", "stream-json"):
        options = session.options
        summary = TurnSummary(session_id=options.session_id or new_uuid(), model=options.model)
        record = result_record(Terminal("turn_setup_failed", error=problem), summary, None,
                               failure=None, duration_ms=0, denials=())
        stream = out or sys.stdout
        stream.write(json.dumps(record, ensure_ascii=False) + "\n")
        stream.flush()
    return 1


def _write_result(
    turn: Turn,
    turns: list[Turn],
    engine: QueryEngine,
    failure: str | None,
    started: float,
    output_format: str,
    out: IO[str],
    collected: list[dict[str, Any]] | None,
    emit: Callable[[dict[str, Any]], None],
    usage_since_last: Callable[[TurnSummary], UsageTotals | None],
) -> dict[str, Any]:
    """The last turn's result, written in the output format; the record."""
    terminal = turn.terminal or Terminal("turn_setup_failed")
    summary = terminal.summary or engine.summarize()  # an interrupted turn passed on none
    result = result_record(terminal, summary, turn.last, failure=failure,
                           duration_ms=int((time.monotonic() - started) * 1000),
                           denials=engine.denials, since_last=usage_since_last(summary))
    if len(turns) > 1:
        result = _numbered(result, len(turns) - 1)
    if output_format == "text":
        out.write(_text_of(result, max_turns=summary.max_turns,
                           limit_usd=terminal.details.get("limit_usd", 0)) + "\n")
        out.flush()
        if failure:
            print(f"cc: {failure}", file=sys.stderr)
    elif collected is not None:
        emit(result)
        out.write(json.dumps(collected, ensure_ascii=False) + "\n")
        out.flush()
    else:
        emit(result)
    return result


def _on_signal(signum: int, interrupt: _Interrupt, work: asyncio.Task[None]) -> None:
    if interrupt.happened:
        interrupt.hurry.set()  # a second signal: stop waiting for anything
        return
    interrupt.signum = signum
    interrupt.signalled.set()
    work.cancel()


async def _bounded(step: Awaitable[None], interrupt: _Interrupt) -> None:
    """Run `step` to the end; once interrupted, give it SHUTDOWN_GRACE_S at most."""
    task = asyncio.ensure_future(step)
    while not task.done():
        wake = interrupt.hurry if interrupt.happened else interrupt.signalled
        waiter = asyncio.ensure_future(wake.wait())
        timeout = SHUTDOWN_GRACE_S if interrupt.happened else None
        was_interrupted = interrupt.happened
        await asyncio.wait({task, waiter}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        if was_interrupted and not task.done():
            task.cancel()  # abandoned: it may finish cancelling in the background
            return
    if not task.cancelled() and (error := task.exception()) is not None:
        raise error


async def _ending(session: Session) -> None:
    try:
        await session.end("other")
        for warning in session.engine.warnings:
            print(f"Warning: {warning}", file=sys.stderr)
    finally:
        await session.close()


async def _run_turn(session: Session, prompt: str, turn: Turn, writer: Writer) -> None:
    engine = session.engine
    if not session.credentials.present:
        # Never reaching the model, the run leaves no transcript behind for -c to find.
        from cc.core.client import NOT_LOGGED_IN

        turn.terminal = Terminal("api_error", error=NOT_LOGGED_IN,
                                 error_kind="authentication_failed")
        return
    for note in await session.start():
        print(note, file=sys.stderr)
    if _is_compact(prompt):
        await _compact(engine, prompt, turn, writer)
        return
    from cc.commands.headless import headless_command

    command = await headless_command(session, prompt)  # `/cost`, `/review`, `/exprot` …
    if command is not None and command.said is not None:
        _answer_locally(engine, command.said, turn, writer)
        return
    if command is not None and command.result is not None and command.result.submit:
        turn.start = len(engine.messages)
        await consume(engine, session.submit(command.result.submit), turn, writer)
        return
    prepared = await session.prepare(prompt)
    for note in prepared.notices:
        print(f"Warning: {note}", file=sys.stderr)
    if prepared.message is None:
        _answer_locally(engine, prepared.problem or "nothing to send", turn, writer)
        return
    if command is not None and command.note:  # no such command: the model is told so
        prepared.message.content.append(TextBlock(command.note))
    turn.start = len(engine.messages)
    await consume(engine, session.submit(prepared.message, model=prepared.model,
                                          tools=prepared.allowed_tools), turn, writer)


def _answer_locally(engine: QueryEngine, said: str, turn: Turn, writer: Writer) -> None:
    """The prompt became nothing to send (an MCP prompt missing an argument): what it
    says is the run's answer, a success with no request, as Claude Code reports it."""
    from cc.session.lines import SYNTHETIC_MODEL

    message = AssistantMessage([TextBlock(said)], message_id=new_uuid(),
                               model=SYNTHETIC_MODEL, stop_reason="end_turn")
    if writer.records:
        for record in assistant_records(message, engine.session_id):
            writer.emit(record)
    turn.last = message
    turn.terminal = Terminal("completed", summary=engine.summarize())


def _is_compact(prompt: str) -> bool:
    words = prompt.split(maxsplit=1)
    return bool(words) and words[0] == "/compact"


async def _compact(engine: QueryEngine, prompt: str, turn: Turn, writer: Writer) -> None:
    """`-p "/compact [instructions]"`: compact, and report it as a turn with no requests
    (a success with an empty result, as Claude Code reports it)."""
    words = prompt.split(maxsplit=1)
    said, failure = "", "the conversation could not be compacted"

    async def events() -> AsyncIterator[Event]:
        nonlocal said, failure
        async for event in engine.compact(words[1].strip() if len(words) > 1 else None):
            if isinstance(event, Compacted):
                from cc.commands.builtins import compacted_line

                said = compacted_line(event)
            elif isinstance(event, CompactionFailed):
                failure = f"Could not compact: {event.reason}"
            yield event

    await consume(engine, events(), turn, writer)
    if said and writer.records:
        stdout = UserMessage.text(f"<local-command-stdout>{said}</local-command-stdout>")
        writer.emit({**user_text_record(stdout, engine.session_id), "isReplay": True})
    if said:
        turn.terminal = Terminal("completed", summary=engine.summarize())
    else:
        turn.terminal = Terminal("api_error", error=failure, summary=engine.summarize())


def _completed(turn: Turn) -> bool:
    return turn.terminal is not None and turn.terminal.ok


def _numbered(record: dict[str, Any], index: int) -> dict[str, Any]:
    """A result after the first: a turn that background agents' notifications began."""
    if index == 0:
        return record
    return {**record, "origin": {"kind": "task-notification", "producer": "session-task"},
            "result_index": index}


def _text_of(result: dict[str, Any], **limits: Any) -> str:
    subtype = result["subtype"]
    if subtype in _ERROR_TEXT:
        error = (result.get("errors") or [""])[0]
        return _ERROR_TEXT[subtype].format(error=error, **limits)
    return str(result.get("result", ""))


