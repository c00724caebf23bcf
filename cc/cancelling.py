"""Ending tasks for sure: `cancel_and_wait` cancels a set of tasks and waits for them,
cancelling again any that absorbed the cancel, and gives up on one after the last round
rather than hang whoever is closing (the supervisor, MCP connections, the SDK host, hook
work in the background, the REPL's worker). A leaf: any layer may use it."""

from __future__ import annotations

import asyncio
from typing import Any

#: A cancelled task gets this long to end before it is cancelled again; after the last
#: round it is left behind rather than hang the close.
CANCEL_WAIT = 10.0
CANCEL_ROUNDS = 3


async def cancel_and_wait(tasks: list[asyncio.Task[Any]], *, wait: float = CANCEL_WAIT,
                          rounds: int = CANCEL_ROUNDS) -> list[asyncio.Task[Any]]:
    """Cancel the tasks and wait for them to end; the ones that did not. A task whose
    cancellation was absorbed (anyio's cancel scopes can take a cancel for their own
    when both land together, in the MCP SDK's shutdown say) is cancelled again, so a
    close ends instead of waiting forever."""
    pending = [t for t in tasks if not t.done()]
    for _ in range(rounds):
        if not pending:
            break
        for task in pending:
            task.cancel()
        await asyncio.wait(pending, timeout=wait)
        pending = [t for t in pending if not t.done()]
    for task in tasks:  # retrieve outcomes, so none is reported as never retrieved
        if task.done() and not task.cancelled():
            task.exception()
    return pending
