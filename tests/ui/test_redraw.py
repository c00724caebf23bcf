"""The session's redraws: one at once, then at most one per interval, the last never lost."""

from __future__ import annotations

from collections.abc import Callable

from cc.ui.repl.redraw import Throttle


class Loop:
    """A clock that moves when told, and the callbacks asked for later."""

    def __init__(self) -> None:
        self.now = 100.0
        self.timers: list[tuple[float, Callable[[], object]]] = []

    def later(self, delay: float, callback: Callable[[], object]) -> None:
        self.timers.append((self.now + delay, callback))

    def advance(self, seconds: float) -> None:
        self.now += seconds
        due = [t for t in self.timers if t[0] <= self.now + 1e-9]
        self.timers = [t for t in self.timers if t[0] > self.now + 1e-9]
        for _, callback in due:
            callback()


def test_a_burst_of_changes_redraws_at_once_then_once_at_the_end_of_the_interval() -> None:
    loop, drawn = Loop(), []
    throttle = Throttle(lambda: drawn.append(loop.now), lambda: loop.now, loop.later,
                        interval=0.03)
    throttle()
    assert drawn == [100.0]  # the first change shows at once
    for _ in range(50):  # a stream's deltas within the interval
        loop.advance(0.0005)
        throttle()
    assert drawn == [100.0] and len(loop.timers) == 1  # one redraw waits, not fifty
    loop.advance(0.004)
    assert len(drawn) == 1  # not before the interval is over
    loop.advance(0.001)
    assert len(drawn) == 2 and abs(drawn[1] - 100.03) < 1e-6  # the last change is shown
    loop.advance(1.0)
    throttle()  # long after: at once again
    assert len(drawn) == 3 and drawn[2] == loop.now and not loop.timers
