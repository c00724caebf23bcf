"""How often the session's own changes redraw the screen.

A stream delta, an agent's call, the spinner's tick: each asks for a redraw, and with
agents streaming at once they ask hundreds of times a second. `Throttle` lets one
through at once, then at most one per `interval`, the last one late rather than lost.
Keys are not throttled: prompt_toolkit redraws for them itself, at once. (Its own
`min_redraw_interval` would throttle those too: a key typed just after a redraw
waited out the interval before it showed.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

#: The shortest time between two redraws the session asks for (about 30 a second).
INTERVAL_S = 0.03


class Later(Protocol):
    def __call__(self, delay: float, callback: Callable[[], object], /) -> object: ...


class Throttle:
    """Calls `redraw` at once, or once at the end of the current interval."""

    def __init__(self, redraw: Callable[[], None], clock: Callable[[], float],
                 later: Later, interval: float = INTERVAL_S) -> None:
        self.redraw, self.clock, self.later, self.interval = redraw, clock, later, interval
        self._last: float | None = None
        self._pending = False

    def __call__(self) -> None:
        if self._pending:
            return  # the redraw already asked for will show this change too
        now = self.clock()
        wait = 0.0 if self._last is None else self._last + self.interval - now
        if wait <= 0:
            self._fire(now)
        else:
            self._pending = True
            self.later(wait, self._due)

    def _due(self) -> None:
        self._pending = False
        self._fire(self.clock())

    def _fire(self, now: float) -> None:
        self._last = now
        self.redraw()
