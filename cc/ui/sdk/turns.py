"""One turn of an SDK session: the program's user message, the records of what followed,
and the `result` (print mode's writers, so the records are the same)."""

from __future__ import annotations

import asyncio
import sys
import time
from typing import TYPE_CHECKING

from cc import __version__
from cc.core.events import Terminal
from cc.ui.records import init_record, result_record
from cc.ui.turn_writer import Turn, Writer, aborted, consume, emit_interrupted

if TYPE_CHECKING:
    from cc.models.messages import UserMessage
    from cc.ui.sdk.host import Host
    from cc.ui.sdk.wire import UserInput


async def run_turn(host: Host, item: UserInput) -> bool:
    """The turn for `item`, its records and result written; whether it went well."""
    session = host.session
    engine = session.engine
    started = time.monotonic()
    emit = host.outbox.send
    for note in await session.mcp_ready():
        print(f"Warning: {note}", file=sys.stderr, flush=True)
    if not item.should_query:  # `shouldQuery: false`: it joins the conversation, unanswered
        message, _, _ = await _message(host, item)
        if message is not None:
            engine.append(message)
        return True
    emit(init_record(session, __version__))
    turn = Turn(start=len(engine.messages))
    writer = Writer(emit, records=True, text=False, partial=host.partial)
    failure: str | None = None
    interrupted = False
    try:
        message, model, tools = await _message(host, item)
        if message is not None:
            turn.start = len(engine.messages)
            await consume(engine, session.submit(message, model=model, tools=tools), turn,
                           writer)
    except asyncio.CancelledError:
        interrupted = True
    except Exception as exc:  # noqa: BLE001 - reported in the result, the session goes on
        failure = f"{type(exc).__name__}: {exc}"
    if interrupted:
        turn.terminal = aborted(turn)
        emit_interrupted(engine, turn, emit)
    terminal = turn.terminal or Terminal("turn_setup_failed")
    result = result_record(terminal, terminal.summary or engine.summarize(), turn.last,
                           failure=failure, duration_ms=int((time.monotonic() - started) * 1000),
                           denials=engine.denials)
    emit(result)
    return not result["is_error"]


async def _message(host: Host, item: UserInput
                   ) -> tuple[UserMessage | None, str | None, tuple[str, ...]]:
    """The message to send for `item` (a typed string goes through the same preparation
    as a prompt: custom commands, MCP prompts, @mentions); its model and allowed tools
    for the turn."""
    from cc.models.content_blocks import parse_content
    from cc.models.messages import UserMessage

    session = host.session
    if not host.started:  # SessionStart hooks, before the first turn
        host.started = True
        for note in await session.start():
            print(note, file=sys.stderr, flush=True)
    if isinstance(item.content, str):
        prepared = await session.prepare(item.content)
        return prepared.message, prepared.model, prepared.allowed_tools
    message = UserMessage(parse_content(item.content))
    if item.uuid:
        message.uuid = item.uuid
    return message, None, ()
