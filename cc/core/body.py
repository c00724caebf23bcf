"""A request's body in the SDK's encoding, with only what changed encoded again.

The SDK encodes a Messages body whole for every request (`json.dumps`: a few ms per
request once a conversation is long, nearly all of it the messages the request before
sent too). `BodyEncoder.encode(body)` gives the bytes the SDK's encoder would give
(`json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False)`),
joined from parts: each top-level field, and each message of `messages`, is kept with
the bytes it was encoded to and a copy of the value they encode. The next body's value
in the same place is compared with that copy; if equal, the bytes are used again, if
not, the value is encoded afresh.

Why stale bytes are never sent: the copy belongs to the encoder alone (every dict and
list copied, strings and None shared since they cannot change), so nothing done to the
conversation in place afterwards (a trimmed result, a moved cache breakpoint, a tool's
input edited) can change it; equal to it, the value is what was encoded then. Python's
equality is looser than JSON's in two ways, closed in the copy: a number or a boolean
is kept as `_Exact`, equal only to a value of the same type that encodes the same
(True == 1 == 1.0, and -0.0 == 0.0, in Python, not in JSON). The one thing equality
does not see is the order of an object's keys; two objects that differ only in it are
the same JSON object (RFC 8259), so what is sent means the same.

A body that is not plain JSON (a value of another type, a float JSON has no spelling
for, a value that holds itself) gets None: the caller lets the SDK's encoder, which takes
more (and words its errors its own way), do it as before.

Conversations are told apart by their first message: the encoder keeps the parts of a
few (`LANES`, the least recently used dropped), so a sub-agent's or a side request's
call between two of the main conversation's costs neither its reuse.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: The SDK's encoding of plain JSON values (`anthropic._utils._json.openapi_dumps`).
_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
#: Conversations whose parts are kept at once.
LANES = 4


class NotPlain(Exception):
    """A value that is not made of JSON's own types alone."""


class _Exact:
    """A number or boolean in a copy: equal only to a value that encodes the same."""

    __slots__ = ("value",)

    def __init__(self, value: bool | int | float) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self.value):
            return False
        if type(other) is float:
            return repr(other) == repr(self.value)  # -0.0 == 0.0, yet they encode apart
        return other == self.value

    __hash__ = None  # type: ignore[assignment]  # compared, never hashed


def _copy(value: Any) -> Any:
    """The encoder's own copy of `value`, for comparing; NotPlain if it is not JSON."""
    kind = type(value)
    if kind is str or value is None:
        return value
    if kind is dict:
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                raise NotPlain
            out[key] = _copy(item)
        return out
    if kind is list:
        return [_copy(item) for item in value]
    if kind is bool or kind is int or kind is float:
        return _Exact(value)
    raise NotPlain


@dataclass
class _Part:
    """A value's copy and its encoding."""

    copy: Any
    data: bytes


def _part(value: Any, before: _Part | None) -> _Part:
    """`before` again if `value` equals what it encodes, else `value` encoded now."""
    if before is not None and before.copy == value:
        return before
    copy = _copy(value)
    return _Part(copy, _JSON.encode(value).encode())  # ValueError: a float JSON cannot spell


@dataclass
class _Lane:
    """One conversation's parts, from the last body encoded for it."""

    fields: dict[str, _Part] = field(default_factory=dict)
    message_parts: list[_Part] = field(default_factory=list)


class BodyEncoder:
    """Encodes request bodies, reusing what an earlier body of the same conversation
    encoded. Synchronous (no awaits), so concurrent requests cannot interleave in it."""

    def __init__(self, lanes: int = LANES) -> None:
        self._lanes: list[_Lane] = []
        self._max = lanes
        self._keys: dict[str, bytes] = {}

    def encode(self, body: Mapping[str, Any]) -> bytes | None:
        """`body` as the SDK's encoder would encode it; None if it is not plain JSON."""
        try:
            return self._encode(body)
        except (NotPlain, ValueError, RecursionError):  # (a value that holds itself)
            return None

    def _encode(self, body: Mapping[str, Any]) -> bytes:
        messages = body.get("messages")
        lane = self._lane(messages if type(messages) is list else [])
        fields: dict[str, _Part] = {}
        out: list[bytes] = []
        for key, value in body.items():
            if type(key) is not str:
                raise NotPlain
            if key == "messages" and type(value) is list:
                data = b"[" + b",".join(self._messages(lane, value)) + b"]"
            else:
                part = fields[key] = _part(value, lane.fields.get(key))
                data = part.data
            out.append(self._key(key) + data)
        lane.fields = fields
        return b"{" + b",".join(out) + b"}"

    def _messages(self, lane: _Lane, messages: list[Any]) -> list[bytes]:
        before = lane.message_parts
        parts = [_part(m, before[i] if i < len(before) else None)
                 for i, m in enumerate(messages)]
        lane.message_parts = parts
        return [p.data for p in parts]

    def _lane(self, messages: list[Any]) -> _Lane:
        """The lane whose conversation starts as `messages` does (a new one if none)."""
        if not messages:
            return _Lane()  # nothing to tell it by, nor much to keep: not kept
        first = messages[0]
        for i, lane in enumerate(self._lanes):
            if lane.message_parts and lane.message_parts[0].copy == first:
                if i:
                    self._lanes.insert(0, self._lanes.pop(i))
                return lane
        lane = _Lane()
        self._lanes.insert(0, lane)
        del self._lanes[self._max:]
        return lane

    def _key(self, key: str) -> bytes:
        data = self._keys.get(key)
        if data is None:
            data = self._keys[key] = _JSON.encode(key).encode() + b":"
        return data
