from __future__ import annotations

import pytest

from cc.tools.web.cache import CachedPage, PageCache


def page(url: str, content: str = "text") -> CachedPage:
    return CachedPage(url, 200, "OK", len(content), content)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_pages_expire_after_fifteen_minutes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLAUDE_CODE_WEBFETCH_CACHE_TTL_MS", raising=False)
    clock = Clock()
    cache = PageCache(clock)
    cache.put("u", page("u"))
    clock.now = 899.0
    assert cache.get("u") == page("u")
    clock.now = 900.0
    assert cache.get("u") is None


def test_the_ttl_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CODE_WEBFETCH_CACHE_TTL_MS", "1000")
    clock = Clock()
    cache = PageCache(clock)
    cache.put("u", page("u"))
    clock.now = 1.0
    assert cache.get("u") is None


def test_the_cache_is_bounded_oldest_first() -> None:
    cache = PageCache(Clock(), max_entries=2, max_chars=10)
    cache.put("a", page("a"))
    cache.put("b", page("b"))
    cache.get("a")  # used: now the newest
    cache.put("c", page("c"))
    assert [cache.get(u) is not None for u in "abc"] == [True, False, True]
    cache.put("d", page("d", "x" * 10))
    assert cache.get("a") is None and cache.get("d") is not None
