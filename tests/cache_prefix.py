"""The prompt cache's rule, checked on what the fake API received: each request of a
conversation extends the one before it byte for byte (the same system blocks and tools,
the earlier messages unchanged), so the cache's prefix is read, never written again.

A conversation is the requests of one session and agent (`x-claude-code-session-id`,
`x-claude-code-agent-id`) on one model with tools of ours (side requests have none, or a server tool only). Cache
breakpoints move from request to request by design, so `cache_control` is left out of
the comparison. `breaks` names each request that does not extend the one before it.
"""

from __future__ import annotations

import json
from typing import Any

from tests.fakeapi import Recorded


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _key(request: Recorded) -> tuple[str, str, str] | None:
    body, headers = request.body, request.headers
    tools = body.get("tools") or []
    if request.path != "/v1/messages" or all("type" in t for t in tools):
        return None  # a side request (none of our tools, a server tool at most)
    return (headers.get("x-claude-code-session-id", ""),
            headers.get("x-claude-code-agent-id", ""), str(body.get("model")))


def breaks(requests: list[Recorded]) -> list[str]:
    """Why each request that breaks the previous one's prefix does (empty: none does)."""
    last: dict[tuple[str, str, str], dict[str, Any]] = {}
    found = []
    for index, request in enumerate(requests):
        key = _key(request)
        if key is None:
            continue
        body = _plain(request.body)
        before = last.get(key)
        last[key] = body
        if before is None:
            continue
        found += [f"request {index}: {why}" for why in _extends(before, body)]
    return found


def extends(before: Recorded, after: Recorded) -> list[str]:
    """Why `after` does not read `before` whole from the cache (empty: it does): the same
    system blocks and tools, and `before`'s messages first, cache breakpoints aside."""
    return _extends(_plain(before.body), _plain(after.body))


def _extends(before: dict[str, Any], body: dict[str, Any]) -> list[str]:
    found = [f"its {part} differs from the request before" for part in ("system", "tools")
             if json.dumps(body.get(part)) != json.dumps(before.get(part))]
    old, new = before["messages"], body["messages"]
    if new[: len(old)] != old:
        at = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b),
                  len(new))
        found.append(f"message {at} of the request before changed")
    return found
