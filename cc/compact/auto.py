"""When to compact on its own: a threshold below the window, switches, a breaker.

Claude Code compacts when the context reaches the window less about 33,000 tokens
(measured on 2.1.328 at 100K, 200K and 1M windows); the seeds put it at 93.5% of a
200K window (187K). We take Claude Code's reserve: it leaves room for the summary
itself (the summary request carries the whole conversation, and its answer can run
to 20K tokens) and for the next turn, at every window size, where a fixed percentage
reserves too little at 200K and far too much at 1M.

`CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` (1-100) sets the threshold as a percentage of the
window instead; `DISABLE_AUTO_COMPACT` or settings `autoCompactEnabled: false` turn
it off (manual `/compact` and the reactive compaction still work).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cc.config.env import truthy

#: Room kept below the window: the summary's request and answer, and the next turn.
RESERVE_TOKENS = 33_000
#: Failures in a row after which compaction stops trying for the session.
MAX_FAILURES = 3


def threshold(window: int, env: Mapping[str, str], settings: Mapping[str, Any]) -> int | None:
    """The context size at which to compact, or None when auto-compaction is off."""
    if truthy(env.get("DISABLE_AUTO_COMPACT")) or settings.get("autoCompactEnabled") is False:
        return None
    chosen = env.get("CLAUDE_CODE_AUTO_COMPACT_WINDOW", "").strip()  # (--autocompact)
    if chosen.isdigit() and int(chosen) > 0:
        window = min(window, int(chosen))
    override = env.get("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE", "").strip()
    if override:
        try:
            percent = float(override)
        except ValueError:
            percent = 0.0
        if 0 < percent <= 100:
            return int(window * percent / 100)
    return max(window // 2, window - RESERVE_TOKENS)



class Breaker:
    """Stops compaction after MAX_FAILURES failures in a row (a success resets it)."""

    def __init__(self) -> None:
        self.failures = 0

    @property
    def open(self) -> bool:
        return self.failures >= MAX_FAILURES

    def failed(self) -> bool:
        """Count a failure; whether this one tripped the breaker."""
        self.failures += 1
        return self.failures == MAX_FAILURES

    def succeeded(self) -> None:
        self.failures = 0
