"""What hooks do behind the turn: `async` hooks still running, the FileChanged watch,
and what they said for the model, which waits for its next request."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from cc.cancelling import cancel_and_wait


class Background:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()
        self._output: list[str] = []

    def start(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` without waiting for it; it ends by itself or at `cancel()`."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def say(self, text: str) -> None:
        """A text for the model's next request."""
        self._output.append(text)

    def take_output(self) -> list[str]:
        """The texts for the model, oldest first; taken."""
        texts, self._output = self._output, []
        return texts

    async def cancel(self) -> None:
        """End whatever still runs (the session is over); one that will not end is left
        behind rather than hold the close."""
        await cancel_and_wait(list(self._tasks))
