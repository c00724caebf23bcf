"""The supervisor ends what an engine started and closes what it holds, in order."""

from __future__ import annotations

import asyncio

import pytest

from cc.core.supervisor import Supervisor


async def test_close_cancels_running_work_then_closes_resources_last_first() -> None:
    sup = Supervisor()
    order: list[str] = []
    started = asyncio.Event()

    async def forever() -> None:
        started.set()
        try:
            await asyncio.Event().wait()
        finally:
            order.append("task ended")

    async def async_close() -> None:
        order.append("client closed")

    sup.on_close(async_close)
    sup.on_close(lambda: order.append("shell closed"))
    task = sup.spawn(forever(), name="background")
    await started.wait()
    assert sup.running == 1
    await sup.aclose()
    assert task.cancelled()
    assert order == ["task ended", "shell closed", "client closed"]
    await sup.aclose()  # idempotent
    assert order == ["task ended", "shell closed", "client closed"]


async def test_a_failed_task_is_kept_and_nothing_starts_after_close() -> None:
    sup = Supervisor()

    async def boom() -> None:
        raise ValueError("lost?")

    task = sup.spawn(boom())
    await asyncio.gather(task, return_exceptions=True)
    assert [str(e) for e in sup.failures] == ["lost?"]
    await sup.aclose()

    async def late() -> None:  # never awaited: spawn closes it
        pass

    with pytest.raises(RuntimeError, match="closed"):
        sup.spawn(late())
