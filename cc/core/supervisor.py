"""The supervisor: what an engine started in the background and what it holds open.

    spawn(coro)        a task the engine owns (a background agent, a memory extractor…)
    on_close(fn)       a resource to close (the shell, background commands, the client)
    aclose()           cancel and await every task still running, then close the
                       resources in the reverse order of registration; idempotent

A task that fails is not lost: its exception is kept in `failures` for whoever reports
them. After `aclose()` nothing new may start.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from cc.cancelling import cancel_and_wait

T = TypeVar("T")


class Supervisor:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stack = contextlib.AsyncExitStack()
        self._closed = False
        #: Exceptions of tasks that failed (not cancelled ones).
        self.failures: list[BaseException] = []

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def running(self) -> int:
        return sum(not t.done() for t in self._tasks)

    def spawn(self, coro: Coroutine[Any, Any, T], *, name: str | None = None) -> asyncio.Task[T]:
        if self._closed:
            coro.close()
            raise RuntimeError("the supervisor is closed: nothing new may start")
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.failures.append(task.exception())  # type: ignore[arg-type]

    def on_close(self, close: Callable[[], Awaitable[None] | None]) -> None:
        """Close a resource at `aclose()` (sync or async), after the tasks have ended."""

        async def call() -> None:
            result = close()
            if inspect.isawaitable(result):
                await result

        self._stack.push_async_callback(call)

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        await cancel_and_wait(list(self._tasks))
        await self._stack.aclose()
