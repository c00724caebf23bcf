"""Fetched pages kept for 15 minutes (`CLAUDE_CODE_WEBFETCH_CACHE_TTL_MS` overrides),
keyed by URL, the oldest dropped past a count and a size; a second question about a
page does not fetch it again."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from cc.config.env import env_number

TTL_MS = 15 * 60 * 1000
MAX_ENTRIES = 64
MAX_CHARS = 50 * 1024 * 1024


@dataclass(frozen=True)
class CachedPage:
    """A page as fetched and converted: what WebFetch needs to answer again."""

    url: str
    code: int
    code_text: str
    bytes: int
    content: str


class PageCache:
    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 max_entries: int = MAX_ENTRIES, max_chars: int = MAX_CHARS) -> None:
        self._clock = clock
        self._max_entries = max_entries
        self._max_chars = max_chars
        self._pages: OrderedDict[str, tuple[float, CachedPage]] = OrderedDict()

    def get(self, url: str) -> CachedPage | None:
        held = self._pages.get(url)
        if held is None:
            return None
        expires, page = held
        if self._clock() >= expires:
            del self._pages[url]
            return None
        self._pages.move_to_end(url)
        return page

    def put(self, url: str, page: CachedPage) -> None:
        ttl = env_number("CLAUDE_CODE_WEBFETCH_CACHE_TTL_MS", TTL_MS) / 1000
        self._pages[url] = (self._clock() + ttl, page)
        self._pages.move_to_end(url)
        while len(self._pages) > self._max_entries or (
                len(self._pages) > 1 and self._chars() > self._max_chars):
            self._pages.popitem(last=False)

    def _chars(self) -> int:
        return sum(len(page.content) for _, page in self._pages.values())


#: The process's cache (every WebFetch of every agent shares it, as pages are public).
PAGES = PageCache()
