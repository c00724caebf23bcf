"""Print mode: one turn, written as text, one JSON result, or a JSON line stream.

The records follow Claude Code's `--output-format json|stream-json` shapes so
that scripts written for it read ours.
"""

from __future__ import annotations

import json
import sys
import time
from typing import IO, TYPE_CHECKING, Any

from cc import __version__
from cc.core.events import (
    AssistantEvent,
    RetryEvent,
    Terminal,
    UserEvent,
)
from cc.models.content_blocks import ToolResultBlock
from cc.models.messages import AssistantMessage, UserMessage, new_uuid
from cc.ui.records import assistant_records, init_record, result_record, user_records

if TYPE_CHECKING:
    from cc.core.query_engine import QueryEngine
    from cc.main import Runtime

#: What text mode prints for error subtypes (Claude Code's fixed strings).
_ERROR_TEXT = {
    "error_max_turns": "Error: Reached max turns ({max_turns})",
    "error_during_execution": "Execution error",
}


async def run_print(
    engine: QueryEngine,
    prompt: str,
    output_format: str,
    runtime: Runtime,
    out: IO[str] | None = None,
) -> int:
    out = out or sys.stdout
    started = time.monotonic()
    streaming = output_format == "stream-json"

    def emit(record: dict[str, Any]) -> None:
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
        out.flush()

    if streaming:
        emit(init_record(engine, runtime, __version__))
    terminal: Terminal | None = None
    last: AssistantMessage | None = None
    failure: str | None = None
    try:
        for note in await engine.start_session("resume" if runtime.resumed else "startup"):
            print(note, file=sys.stderr)
        message = await _prepare(prompt, engine, runtime)
        async for event in engine.submit(message):
            if isinstance(event, AssistantEvent):
                last = event.message
                if streaming:
                    for record in assistant_records(event.message, engine.session_id):
                        emit(record)
            elif isinstance(event, UserEvent) and streaming:
                if any(isinstance(b, ToolResultBlock) for b in event.message.content):
                    for record in user_records(event.message, engine.session_id):
                        emit(record)
            elif isinstance(event, RetryEvent) and streaming:
                emit(_retry_record(event, engine.session_id))
            elif isinstance(event, Terminal):
                terminal = event
        await engine.end_session("other")
        for warning in engine.warnings:
            print(f"Warning: {warning}", file=sys.stderr)
    except Exception as exc:  # noqa: BLE001 - reported as error_during_execution
        failure = f"{type(exc).__name__}: {exc}"
    finally:
        await engine.aclose()

    result = result_record(
        engine,
        terminal,
        last,
        failure=failure,
        duration_ms=int((time.monotonic() - started) * 1000),
    )
    if output_format == "text":
        out.write(_text_of(result, engine) + "\n")
        out.flush()
        if failure:
            print(f"cc: {failure}", file=sys.stderr)
    else:
        emit(result)
    return 1 if result["is_error"] else 0


async def _prepare(prompt: str, engine: QueryEngine, runtime: Runtime) -> UserMessage:
    """The user message for `prompt`: a custom `/command` expanded, `@files` attached."""
    from cc.commands.registry import prepare_prompt
    from cc.core.model_catalog import resolve_model
    from cc.permissions.grants import command_permit

    permit = command_permit(runtime.permissions, engine.registry.get("Bash"))
    prepared = await prepare_prompt(
        prompt, runtime.cwd, runtime.config_dir, session_id=engine.session_id, permit=permit
    )
    if prepared.model:
        engine.set_model(resolve_model(prepared.model))
    assert prepared.submit is not None
    return prepared.submit


def _text_of(result: dict[str, Any], engine: QueryEngine) -> str:
    subtype = result["subtype"]
    if subtype in _ERROR_TEXT:
        return _ERROR_TEXT[subtype].format(max_turns=engine.config.max_turns)
    return str(result.get("result", ""))


def _retry_record(event: RetryEvent, session_id: str) -> dict[str, Any]:
    return {
        "type": "system",
        "subtype": "api_retry",
        "attempt": event.attempt,
        "max_retries": event.max_retries,
        "retry_delay_ms": int(event.delay_s * 1000),
        "error_status": event.error.status,
        "error": event.error.kind,
        "uuid": new_uuid(),
        "session_id": session_id,
    }
