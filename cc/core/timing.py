"""How long a turn took to get going, for the result record's timing fields:

    time_to_request_ms      from the turn's start to its first request going out
    ttft_stream_ms          ... to the first event of a response stream
    first_content_frame_ms  ... to the first content block of a response beginning
    ttft_ms                 ... to the first piece of content (text, thinking, a call)
                            reaching the loop

Retries and fallbacks before the first answer count in them; each is None until it
happens (a turn that never reached the model has none).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cc.core.events import (
    BlockComplete,
    Event,
    RequestStart,
    StreamEvent,
    TextDelta,
    ThinkingStarted,
)


@dataclass
class TurnTiming:
    started: float
    time_to_request_ms: int | None = None
    ttft_stream_ms: int | None = None
    first_content_frame_ms: int | None = None
    ttft_ms: int | None = None

    def saw(self, event: Event, now: Callable[[], float]) -> None:
        """Note what `event` (one of the turn's own) says about the turn's progress."""
        if self.ttft_ms is not None:
            return
        if isinstance(event, RequestStart):
            self.time_to_request_ms = self._since(now) if self.time_to_request_ms is None \
                else self.time_to_request_ms
        elif isinstance(event, StreamEvent):
            if self.ttft_stream_ms is None:
                self.ttft_stream_ms = self._since(now)
            if self.first_content_frame_ms is None and event.kind in (
                    "content_block_start", "content_block_delta"):
                self.first_content_frame_ms = self._since(now)
        elif isinstance(event, (TextDelta, ThinkingStarted, BlockComplete)):
            self.ttft_ms = self._since(now)

    @property
    def fields(self) -> dict[str, int]:
        """The result record's timing fields that have a value."""
        values = {"ttft_ms": self.ttft_ms, "ttft_stream_ms": self.ttft_stream_ms,
                  "time_to_request_ms": self.time_to_request_ms,
                  "first_content_frame_ms": self.first_content_frame_ms}
        return {k: v for k, v in values.items() if v is not None}

    def _since(self, now: Callable[[], float]) -> int:
        return int((now() - self.started) * 1000)
