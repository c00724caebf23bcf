"""Compaction: the conversation before a point becomes a summary, and the session goes on.

    before_request(messages, state)   auto: compacts when the context passes the threshold
    reactive(messages, state)         after "prompt is too long": compacts once per turn
    compact(messages, trigger, text)  the work itself (manual /compact comes here too)

After a compaction the messages are: the summary (a `CompactBoundaryMessage`, saying
the session continues from an earlier one and where its transcript is), the most recent
exchanges verbatim, then the files read or edited most recently, re-read from disk.
The kept exchanges are the same messages, already in the transcript: the boundary names
their lines (`preserved`) instead of their being written again, as Claude Code does;
their usage figures are zeroed, since they tell the size of the context before.
A failed compaction leaves the messages as they were; three failures in a row stop
compaction for the session. Every step is an event; nothing here prints.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from string import Template
from typing import TYPE_CHECKING, Any, Protocol

from cc.compact import auto
from cc.compact.summarize import fallback_request, summary_of, summary_request
from cc.compact.tokens import context_tokens, estimate, messages_tokens
from cc.core.events import (
    Compacted,
    CompactionFailed,
    CompactionStarted,
    Event,
    Notice,
)
from cc.models.catalog import model_info
from cc.models.content_blocks import ToolUseBlock
from cc.models.messages import (
    AssistantMessage,
    CompactBoundaryMessage,
    Message,
    UserMessage,
    system_reminder,
)
from cc.models.usage import zeroed_usage

if TYPE_CHECKING:
    from cc.core.client import ModelRequest
    from cc.core.query_engine import EngineConfig, TranscriptSink
    from cc.core.toolset import Toolset
    from cc.hooks.runner import HookOutcome
    from cc.models.messages import AssistantMessage
    from cc.models.state import QueryState
    from cc.tools.base import ToolContext

#: At least this many exchanges must lie before the kept tail for a compaction to help.
MIN_GROUPS = 2
#: The verbatim tail: at most this share of the threshold, and at most this many tokens.
KEEP_SHARE = 0.1
KEEP_MAX_TOKENS = 40_000
#: Files re-attached after compaction, and their budget.
MAX_FILES = 5
MAX_FILE_TOKENS = 20_000
MAX_FILES_TOKENS = 50_000

TOO_FEW = "too few exchanges to compact yet"


class CompactionHooks(Protocol):
    async def pre_compact(self, trigger: str, custom: str | None) -> HookOutcome: ...

    async def post_compact(self, trigger: str, summary: str) -> HookOutcome: ...


class HasContext(Protocol):
    ctx: ToolContext


class CompactionHost(Protocol):
    """What compaction uses of the engine it keeps (`cc.core.query_engine.QueryEngine`):
    the conversation and its request parts, one request beside it (`ask`), its hooks,
    its transcript, and the files and todos it re-attaches."""

    messages: list[Message]
    config: EngineConfig
    toolset: Toolset
    executor: HasContext
    hooks: Any
    transcript: TranscriptSink | None

    @property
    def model(self) -> str: ...

    async def ask(self, request: ModelRequest) -> AssistantMessage | None: ...

    def save(self) -> None: ...

    def seconds_since_response(self) -> float | None: ...

    async def start_session(self, source: str) -> list[str]: ...


class Compactor:
    """One engine's context management."""

    def __init__(self, engine: CompactionHost, *, settings: Mapping[str, Any],
                 env: Mapping[str, str] | None = None) -> None:
        self.engine = engine
        self.settings = settings
        self.env = os.environ if env is None else env
        self.breaker = auto.Breaker()

    # -- when ---------------------------------------------------------------------------

    def threshold(self) -> int | None:
        return auto.threshold(model_info(self.engine.model).context_window, self.env,
                              self.settings)

    def tokens(self, messages: list[Message]) -> int:
        return context_tokens(messages, overhead=self._overhead)

    def _overhead(self) -> int:
        """The system prompt and tools, estimated (needed only before the first usage)."""
        engine = self.engine
        return estimate([s.text for s in engine.config.system]) + estimate(
            engine.toolset.definitions())

    async def before_request(self, messages: list[Message],
                             state: QueryState) -> AsyncIterator[Event]:
        """The cheap layers when they are worth a cache miss, then compaction if the
        context is still past the threshold."""
        from cc.compact.micro import trim

        size = self.tokens(messages)
        trimmed = trim(messages, cwd=self.engine.executor.ctx.cwd, context_tokens=size,
                       seconds_since_last_response=self.engine.seconds_since_response())
        size -= trimmed.saved_tokens
        limit = self.threshold()
        if limit is None or self.breaker.open or size < limit:
            return
        if split_point(messages, self._keep_budget()) is None:
            return  # too little to summarise yet: the request goes as it is
        async for event in self.compact(messages, "auto"):
            yield event

    async def reactive(self, messages: list[Message], state: QueryState) -> list[Event]:
        """The API said the prompt is too long: compact once in this turn."""
        if state.compact.reactive_attempted or self.breaker.open:
            return []
        state.compact.reactive_attempted = True
        return [event async for event in self.compact(messages, "auto")]

    # -- how ----------------------------------------------------------------------------

    async def compact(self, messages: list[Message], trigger: str,
                      custom: str | None = None) -> AsyncIterator[Event]:
        """Summarise `messages` (in place) up to a verbatim tail."""
        started = time.monotonic()
        cut = split_point(messages, self._keep_budget())
        if cut is None:
            yield CompactionFailed(trigger, TOO_FEW)
            return
        hooks = self.engine.hooks
        if hooks is not None:
            outcome = await hooks.pre_compact(trigger, custom)
            if outcome.blocked:
                yield CompactionFailed(trigger, "a PreCompact hook blocked it: "
                                       + (outcome.reason or "no reason given"))
                return
        yield CompactionStarted(trigger)
        pre_tokens = self.tokens(messages)
        answer = await self._summarise(messages, custom)
        summary = summary_of(answer) if answer else None
        if summary is None:
            tripped = self.breaker.failed()
            reason = "the summary request failed" + (
                f"; compaction is off for the rest of the session after "
                f"{auto.MAX_FAILURES} failures in a row" if tripped else "")
            yield CompactionFailed(trigger, reason)
            return
        self.breaker.succeeded()
        kept = [_kept(m) for m in messages[cut:]]
        boundary = CompactBoundaryMessage(
            self._continuation(summary, messages[:cut], kept), trigger=trigger,
            pre_tokens=pre_tokens, preserved=self._preserved(messages, kept),
            loaded_tools=self.engine.toolset.loaded() if messages is self.engine.messages
            else [])
        rebuilt: list[Message] = [boundary, *kept]
        files = self._reattached_files()
        if files is not None:
            rebuilt.append(files)
        todos = self._reattached_todos()
        if todos is not None:
            rebuilt.append(todos)
        messages[:] = rebuilt
        boundary.post_tokens = messages_tokens(messages)
        boundary.duration_ms = int((time.monotonic() - started) * 1000)
        if messages is self.engine.messages:
            self.engine.save()
        for note in await self.engine.start_session("compact"):
            yield Notice(note)
        if hooks is not None:
            await hooks.post_compact(trigger, answer or "")
        yield Compacted(trigger, pre_tokens, boundary.post_tokens, boundary.duration_ms,
                        boundary)

    def _preserved(self, messages: list[Message], kept: list[Message]) -> list[str]:
        """What the boundary names as kept: the transcript lines holding `kept` (written
        first if they are not yet), or, with no transcript, their uuids."""
        engine = self.engine
        if messages is not engine.messages:
            return [m.uuid for m in kept]
        engine.save()
        transcript = engine.transcript
        return transcript.lines_of(kept) if transcript is not None else [m.uuid for m in kept]

    def _keep_budget(self) -> int:
        limit = self.threshold() or model_info(self.engine.model).context_window
        return min(int(limit * KEEP_SHARE), KEEP_MAX_TOKENS)

    async def _summarise(self, messages: list[Message], custom: str | None) -> str | None:
        """The model's answer to the summary request (then to the fallback), or None."""
        engine = self.engine
        config = engine.config
        request = summary_request(
            messages, model=engine.model, max_tokens=_cap(engine), system=config.system,
            tools=engine.toolset.definitions(), thinking_budget=config.thinking_budget,
            controls=config.controls.without_task_budget(), custom=custom)
        answer = await self._ask(request)
        if answer is None:
            answer = await self._ask(fallback_request(messages, model=engine.model,
                                                      max_tokens=_cap(engine),
                                                      custom=custom))
        return answer

    async def _ask(self, request: ModelRequest) -> str | None:
        """The summary request's answer, if it is one (it has a `<summary>`)."""
        answer = await self.engine.ask(request)
        return answer.text if answer is not None and summary_of(answer.text) else None

    def _continuation(self, summary: str, summarised: list[Message],
                      kept: list[Message]) -> str:
        from cc.prompts import load_text
        from cc.prompts.builder import fill

        transcript = self.engine.transcript
        tools = sorted({b.name for m in summarised if isinstance(m, AssistantMessage)
                        for b in m.content if isinstance(b, ToolUseBlock)})
        return fill(load_text("compact/continuation.md").strip(), {
            "transcript": str(transcript.path) if transcript is not None else None,
            "tools_used": system_reminder(
                f"<tools-used-before-summary>{', '.join(tools)}</tools-used-before-summary>")
            if tools else None,
            "summary": summary,
            "kept_note": "The messages after this one are the latest of the earlier "
                         "conversation, kept as they were." if kept else None,
        })

    def _reattached_todos(self) -> UserMessage | None:
        """The checklist (TodoWrite) as it stood, so the work goes on from it."""
        todos = self.engine.executor.ctx.todos
        if not todos:
            return None
        return UserMessage.text(system_reminder(
            "The todo list before the conversation was compacted (it is still current):\n"
            + _todo_lines(todos)), is_meta=True)

    def _reattached_files(self) -> UserMessage | None:
        """The files read or edited last, as they are now (so the model need not read
        them again, and Edit still knows they were read)."""
        from cc.tools.base import FileReadRecord

        read = self.engine.executor.ctx.read_files
        parts: list[str] = []
        budget = MAX_FILES_TOKENS
        for path in list(read)[::-1][:MAX_FILES]:
            try:
                text = Path(path).read_text(encoding="utf-8")
                mtime = os.stat(path).st_mtime_ns
            except (OSError, UnicodeDecodeError):
                continue
            cost = estimate(text)
            if cost > MAX_FILE_TOKENS or cost > budget:
                continue
            budget -= cost
            parts.append(f"## {path}\n```\n{text}\n```")
            read[path] = FileReadRecord(mtime_ns=mtime)
        if not parts:
            return None
        text = Template("These files were read or edited before the conversation was "
                        "compacted; here they are as they are on disk now.\n\n$files")
        return UserMessage.text(system_reminder(text.substitute(files="\n\n".join(parts))),
                                is_meta=True)


def _todo_lines(todos: list[dict[str, str]]) -> str:
    return "\n".join(f"- [{t.get('status', 'pending')}] {t.get('content', '')}" for t in todos)


def split_point(messages: list[Message], keep_tokens: int) -> int | None:
    """Where the verbatim tail starts: whole exchanges from the end, within
    `keep_tokens` (the last one always), with at least MIN_GROUPS exchanges before it;
    None if there are too few to compact."""
    starts = _group_starts(messages)
    if len(starts) <= MIN_GROUPS:
        return None
    cut = starts[-1]
    size = messages_tokens(messages[cut:])
    for start in reversed(starts[:-1]):
        more = messages_tokens(messages[start:cut])
        if size + more > keep_tokens or starts.index(start) < MIN_GROUPS:
            break
        cut, size = start, size + more
    return cut if starts.index(cut) >= MIN_GROUPS else None


def _group_starts(messages: list[Message]) -> list[int]:
    """Indices where an exchange begins: a person's prompt, or a model message (its tool
    results belong to it)."""
    starts = []
    for index, message in enumerate(messages):
        if isinstance(message, AssistantMessage) or isinstance(message, CompactBoundaryMessage):
            starts.append(index)
        elif isinstance(message, UserMessage) and not message.is_meta and not any(
                getattr(b, "type", "") == "tool_result" for b in message.content):
            starts.append(index)
    return starts


def _kept(message: Message) -> Message:
    """A message kept verbatim: the same one (same uuid, so the transcript need not
    write it again), an assistant's usage figures zeroed."""
    if isinstance(message, AssistantMessage):
        return dataclasses.replace(message, usage=zeroed_usage(message.usage))
    return message


def _cap(engine: CompactionHost) -> int:
    """The main request's output cap: the same thinking settings keep the cache warm."""
    from cc.core.query_loop import output_caps

    return output_caps(engine.model, engine.config.max_output_tokens)[0]

