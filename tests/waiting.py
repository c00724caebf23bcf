"""Waiting on a condition, never on the clock.

A test that needs something to happen first polls for it with `wait_for` (or
`wait_for_async` inside a coroutine) and fails only after a generous deadline, so a
loaded machine makes the test slower, never red. The deadline is not a measurement.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: How long a condition may take before the test fails: far beyond any healthy run.
DEADLINE = 30.0
_POLL = 0.02


def wait_for(
    predicate: Callable[[], T], timeout: float = DEADLINE, *, what: str = "the condition"
) -> T:
    """Poll `predicate` until it returns something truthy; return that value."""
    end = time.monotonic() + timeout
    while not (value := predicate()):
        if time.monotonic() > end:
            raise AssertionError(f"{what} did not happen within {timeout:g} s")
        time.sleep(_POLL)
    return value


async def wait_for_async(
    predicate: Callable[[], T], timeout: float = DEADLINE, *, what: str = "the condition"
) -> T:
    """`wait_for` for coroutines: the event loop keeps running between polls."""
    end = time.monotonic() + timeout
    while not (value := predicate()):
        if time.monotonic() > end:
            raise AssertionError(f"{what} did not happen within {timeout:g} s")
        await asyncio.sleep(_POLL)
    return value
