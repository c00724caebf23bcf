"""Start tools while the model is still streaming.

`add()` is called as each tool_use block completes. A concurrency-safe call
starts at once unless an unsafe call came before it and has not finished; an
unsafe call waits for every call before it. At most `max_concurrency` run at a
time. `events()` yields starts and progress as they happen and the results in
tool_use order.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from cc.core.events import Event, ToolDone, ToolProgress, ToolStart
from cc.core.pipeline.executor import ToolExecutor
from cc.models.content_blocks import ToolUseBlock
from cc.tools.base import ToolResult

INTERRUPTED_TEXT = "[Request interrupted by user for tool use]"
SIBLING_FAILED_TEXT = (
    "<tool_use_error>Cancelled: an earlier Bash command in this batch failed, "
    "so this one was not completed.</tool_use_error>"
)
#: Tools whose failure cancels their unfinished siblings of the same kind.
_CASCADING = frozenset({"Bash"})
DEFAULT_MAX_CONCURRENCY = 10


def max_concurrency_from_env() -> int:
    try:
        return max(1, int(os.environ.get("CLAUDE_CODE_MAX_TOOL_USE_CONCURRENCY", "")))
    except ValueError:
        return DEFAULT_MAX_CONCURRENCY


@dataclass
class _Call:
    tool_use: ToolUseBlock
    safe: bool
    task: asyncio.Task[ToolResult] | None = None
    result: ToolResult | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)


class StreamingToolExecutor:
    def __init__(self, executor: ToolExecutor, max_concurrency: int | None = None) -> None:
        self._executor = executor
        self._sem = asyncio.Semaphore(max_concurrency or max_concurrency_from_env())
        self._calls: list[_Call] = []
        self._events: asyncio.Queue[Event | None] = asyncio.Queue()
        self._closed = False
        self._failed_kinds: set[str] = set()

    def is_safe(self, tool_use: ToolUseBlock) -> bool:
        """Whether the call may run alongside others (a read-only one, say)."""
        parsed = self._executor.parse(tool_use)
        return not isinstance(parsed, ToolResult) and parsed[0].is_concurrency_safe(parsed[1])

    def starts_early(self, tool_use: ToolUseBlock) -> bool:
        """Whether the call may start before its message is whole: one that changes
        nothing (an Agent call runs alongside others, but only once the message ended)."""
        parsed = self._executor.parse(tool_use)
        return not isinstance(parsed, ToolResult) and parsed[0].is_read_only(parsed[1]) and \
            parsed[0].is_concurrency_safe(parsed[1])

    def add(self, tool_use: ToolUseBlock) -> None:
        safe = self.is_safe(tool_use)
        waits_for = [c.done for c in self._calls if not (safe and c.safe)]
        call = _Call(tool_use, safe)
        self._calls.append(call)
        if tool_use.name in self._failed_kinds:
            call.result = ToolResult(SIBLING_FAILED_TEXT, is_error=True)
            call.done.set()
            self._events.put_nowait(None)
            return
        call.task = asyncio.create_task(self._run(call, waits_for), name=f"tool:{tool_use.name}")

    async def drop(self, tool_use_id: str) -> None:
        """Forget a call (its tool_use turned out to be cut short), stopping it if running."""
        for call in [c for c in self._calls if c.tool_use.id == tool_use_id]:
            self._calls.remove(call)
            if call.task is not None and not call.task.done():
                call.task.cancel()
                await asyncio.gather(call.task, return_exceptions=True)

    def close(self) -> None:
        """No more calls will be added (the message has finished streaming)."""
        self._closed = True
        self._events.put_nowait(None)

    @property
    def tool_uses(self) -> list[ToolUseBlock]:
        return [c.tool_use for c in self._calls]

    async def _run(self, call: _Call, waits_for: list[asyncio.Event]) -> ToolResult:
        try:
            for event in waits_for:
                await event.wait()
            async with self._sem:
                self._events.put_nowait(ToolStart(call.tool_use))
                tid = call.tool_use.id
                result = await self._executor.run(
                    call.tool_use, lambda text: self._events.put_nowait(ToolProgress(tid, text)),
                    self._events.put_nowait,
                )
            call.result = result
            if result.is_error and call.tool_use.name in _CASCADING:
                self._cancel_siblings_of(call)
            return result
        finally:
            call.done.set()
            self._events.put_nowait(None)

    def _cancel_siblings_of(self, failed: _Call) -> None:
        self._failed_kinds.add(failed.tool_use.name)
        for call in self._calls:
            if call is failed or call.tool_use.name != failed.tool_use.name:
                continue
            if call.task is not None and not call.done.is_set():
                call.result = ToolResult(SIBLING_FAILED_TEXT, is_error=True)
                call.task.cancel()

    async def events(self) -> AsyncIterator[Event]:
        """Starts, progress and asks as they come; ToolDone in tool_use order. Ends when
        all are done."""
        next_done = 0
        while True:
            while not self._events.empty():  # what a call said before it ended comes first
                queued = self._events.get_nowait()
                if queued is not None:
                    yield queued
            while next_done < len(self._calls) and self._calls[next_done].done.is_set():
                call = self._calls[next_done]
                yield ToolDone(call.tool_use, call.result or _result_of(call))
                next_done += 1
            if self._closed and next_done == len(self._calls):
                return
            event = await self._events.get()
            if event is not None:
                yield event

    async def cancel(self) -> list[ToolDone]:
        """Stop every unfinished call; the results they get say they were interrupted."""
        pending = [c.task for c in self._calls if c.task is not None and not c.task.done()]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        return [ToolDone(c.tool_use, c.result or _result_of(c)) for c in self._calls]


def _result_of(call: _Call) -> ToolResult:
    task = call.task
    if task is not None and task.done() and not task.cancelled() and task.exception() is None:
        return task.result()
    return ToolResult(INTERRUPTED_TEXT, is_error=True)
