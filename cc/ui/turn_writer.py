"""Writing one turn's events as records: what print mode and the SDK host share.

    Writer             where records go, and in which form (records, text, partial)
    Turn               what is known of the turn once it is over
    consume(...)       the turn's events written as they come (its Terminal kept)
    emit_interrupted   what an interrupt left in the conversation, as records
    aborted(turn)      the Terminal of an interrupted turn
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cc.core.events import (
    AssistantEvent,
    Compacted,
    CompactionFailed,
    Event,
    ModelFallback,
    Notice,
    RetryEvent,
    StreamEvent,
    SubagentEvent,
    Terminal,
    ToolDone,
    ToolStart,
    UserEvent,
)
from cc.models.content_blocks import ToolResultBlock
from cc.models.messages import AssistantMessage, UserMessage
from cc.ui.records import (
    assistant_records,
    compact_boundary_record,
    compact_summary_record,
    model_fallback_record,
    retry_record,
    stream_record,
    task_notification_record,
    task_started_record,
    user_records,
    user_text_record,
)

if TYPE_CHECKING:
    from cc.core.query_engine import QueryEngine


@dataclass(frozen=True)
class Writer:
    """How the turn's events are written: `emit` a record (json and stream-json), print
    retries to stderr (text), pass raw stream events on (--include-partial-messages)."""

    emit: Callable[[dict[str, Any]], None]
    records: bool
    text: bool
    partial: bool


@dataclass
class Turn:
    """What the writer needs to know once the turn is over."""

    terminal: Terminal | None = None
    last: AssistantMessage | None = None
    tools_running: int = 0
    #: Where this turn's messages begin in the conversation.
    start: int = 0


async def consume(
    engine: QueryEngine,
    events: AsyncIterator[Event],
    turn: Turn,
    writer: Writer,
) -> None:
    emit, records, text, partial = writer.emit, writer.records, writer.text, writer.partial
    started_agents: set[str] = set()
    async for event in events:
        if isinstance(event, SubagentEvent):
            if records:
                _emit_subagent(event, engine.session_id, emit, started_agents)
        elif isinstance(event, StreamEvent):
            if partial:
                emit(stream_record(event, engine.session_id))
        elif isinstance(event, AssistantEvent):
            turn.last = event.message
            if records:
                for record in assistant_records(event.message, engine.session_id):
                    emit(record)
        elif isinstance(event, UserEvent):
            if records and any(isinstance(b, ToolResultBlock) for b in event.message.content):
                for record in user_records(event.message, engine.session_id):
                    emit(record)
            elif records and event.synthetic:
                emit({**user_text_record(event.message, engine.session_id),
                      "isSynthetic": True})
        elif isinstance(event, ToolStart):
            turn.tools_running += 1
        elif isinstance(event, ToolDone):
            turn.tools_running = max(0, turn.tools_running - 1)
        elif isinstance(event, RetryEvent):
            if records:
                emit(retry_record(event, engine.session_id))
            elif text:
                print(event.summary, file=sys.stderr, flush=True)
        elif isinstance(event, ModelFallback):
            if records:
                emit(model_fallback_record(event, engine.session_id))
            elif text:
                print(event.summary, file=sys.stderr, flush=True)
        elif isinstance(event, Notice) and event.level == "warning":
            print(f"Warning: {event.text}", file=sys.stderr, flush=True)
        elif isinstance(event, Compacted):
            if records:
                emit(compact_boundary_record(event, engine.session_id))
                emit(compact_summary_record(event, engine.session_id))
        elif isinstance(event, CompactionFailed):
            print(f"Warning: could not compact the conversation: {event.reason}",
                  file=sys.stderr, flush=True)
        elif isinstance(event, Terminal):
            turn.terminal = event


def _emit_subagent(event: SubagentEvent, session_id: str, emit: Callable[[dict[str, Any]], None],
                   started: set[str]) -> None:
    """A sub-agent's prompt, calls and results, marked with its Agent call's id."""
    agent, inner = event.agent, event.event
    if agent.agent_id not in started:
        started.add(agent.agent_id)
        emit(task_started_record(agent, session_id))
    if isinstance(inner, AssistantEvent):
        for record in assistant_records(inner.message, session_id, agent):
            emit(record)
    elif isinstance(inner, UserEvent):
        if any(isinstance(b, ToolResultBlock) for b in inner.message.content):
            for record in user_records(inner.message, session_id, agent):
                emit(record)
        elif not inner.message.is_meta:
            emit(user_text_record(inner.message, session_id, agent))
    elif isinstance(inner, Terminal):
        emit(task_notification_record(agent, inner, session_id))


def emit_interrupted(
    engine: QueryEngine, turn: Turn, emit: Callable[[dict[str, Any]], None]
) -> None:
    """What the interrupt left in the conversation: the answer as far as it got, the marker."""
    from cc.core.query_engine import INTERRUPTED_TEXT

    for message in engine.messages[turn.start:]:
        if isinstance(message, AssistantMessage) and message.aborted:
            for record in assistant_records(message, engine.session_id):
                emit(record)
        elif isinstance(message, UserMessage) and message.is_meta and (
            message.content and getattr(message.content[0], "text", None) == INTERRUPTED_TEXT
        ):
            emit(user_text_record(message, engine.session_id))


def aborted(turn: Turn) -> Terminal:
    reason = "aborted_tools" if turn.tools_running else "aborted_streaming"
    return Terminal(reason, error="Interrupted by the user")
