"""What waits for an agent's next request: one queue over every source of news.

    background commands that ended, agents that ended, a team's letters, a teammate's
    mailbox, texts posted to it (a named agent's letter to the main conversation)

`drain()` takes everything for the next request; `has_news()` says whether anything
waits (an idle REPL or print mode starts a turn for it); `wake()` tells whoever waits
for news (the agent table's watchers: print mode, the REPL) to look again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


class NewsSource(Protocol):
    def take(self) -> list[str]:
        """The texts waiting, taken."""
        ...

    def waiting(self) -> bool:
        """Whether anything waits (without taking it)."""
        ...


@dataclass(frozen=True)
class Source:
    """A source made of two functions (`waiting` None: it never starts a turn itself)."""

    take_texts: Callable[[], list[str]]
    is_waiting: Callable[[], bool] | None = None

    def take(self) -> list[str]:
        return self.take_texts()

    def waiting(self) -> bool:
        return self.is_waiting() if self.is_waiting is not None else False


class NewsQueue:
    def __init__(self, sources: tuple[NewsSource, ...] | list[NewsSource] = (), *,
                 on_wake: Callable[[], None] | None = None) -> None:
        self._sources = list(sources)
        self._posted: list[str] = []
        self._on_wake = on_wake

    def add(self, source: NewsSource) -> None:
        self._sources.append(source)

    def remove(self, source: NewsSource) -> None:
        if source in self._sources:
            self._sources.remove(source)

    def post(self, text: str) -> None:
        """A text for the next request (and a wake-up for whoever waits)."""
        self._posted.append(text)
        self.wake()

    def drain(self) -> list[str]:
        texts, self._posted = self._posted, []
        for source in self._sources:
            texts += source.take()
        return texts

    def has_news(self) -> bool:
        return bool(self._posted) or any(source.waiting() for source in self._sources)

    def wake(self) -> None:
        if self._on_wake is not None:
            self._on_wake()
