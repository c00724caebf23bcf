"""A streamed message, put together from the SDK's events.

The SDK decodes the SSE stream and each event's JSON (`cc.core.sdk`, which asks it for
the events untyped); this module folds them into the finished message, as the API would
have sent it whole. The SDK's own helper (`messages.stream()`) does the same into
pydantic snapshots: it types every event, re-parses a tool call's JSON at every delta and
builds a generic message class per stream, several times the CPU per event and a quarter
of a second on first use. Here a block is a dict, its text grows by concatenation, and a
tool call's input is parsed once, when its block ends.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

#: The fields of a message_delta's usage that, when present, replace message_start's
#: (the API sends running totals).
_USAGE_TOTALS = ("output_tokens", "input_tokens", "cache_creation_input_tokens",
                 "cache_read_input_tokens", "server_tool_use", "output_tokens_details")


class StreamOrderError(ValueError):
    """An event that cannot come where it came (a delta for a block never started)."""


@dataclass
class Accumulated:
    """The message so far: its blocks by index, and the envelope."""

    message_id: str = ""
    model: str = ""
    stop_reason: str | None = None
    usage: dict[str, Any] = field(default_factory=dict)
    blocks: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: A tool call's input as it streams (JSON text), by block index.
    _json: dict[int, list[str]] = field(default_factory=dict)

    def add(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """Fold in one event (the API's JSON object); the block it ended, if it was a
        content_block_stop. The event is read, never changed: what is kept is copied."""
        kind = event["type"]
        if kind == "content_block_delta":
            self._delta(event["index"], event["delta"])
        elif kind == "content_block_start":
            self.blocks[event["index"]] = _copy(event["content_block"])
        elif kind == "content_block_stop":
            return self._stop(event["index"])
        elif kind == "message_start":
            message = event["message"]
            self.message_id, self.model = message["id"], message["model"]
            self.usage = usage_sent(message.get("usage"))
        elif kind == "message_delta":
            self.stop_reason = event["delta"].get("stop_reason")
            self._usage(event.get("usage"))
        return None

    def content(self) -> list[dict[str, Any]]:
        return [self.blocks[i] for i in sorted(self.blocks)]

    def _block(self, index: int) -> dict[str, Any]:
        block = self.blocks.get(index)
        if block is None:
            raise StreamOrderError(f"a delta for block {index}, which never started")
        return block

    def _delta(self, index: int, delta: dict[str, Any]) -> None:
        block, kind = self._block(index), delta["type"]
        if kind == "text_delta":
            block["text"] = block.get("text", "") + delta["text"]
        elif kind == "input_json_delta":
            self._json.setdefault(index, []).append(delta["partial_json"])
        elif kind == "thinking_delta":
            block["thinking"] = block.get("thinking", "") + delta["thinking"]
        elif kind == "signature_delta":
            block["signature"] = delta["signature"]
        elif kind == "citations_delta":
            block.setdefault("citations", []).append(_copy(delta["citation"]))
        # (a delta of a kind not known here changes nothing, as in the SDK's helper)

    def _stop(self, index: int) -> dict[str, Any]:
        block = self._block(index)
        parts = self._json.pop(index, None)
        if parts is not None:
            block["input"] = _tool_input("".join(parts))
        return block

    def _usage(self, usage: dict[str, Any] | None) -> None:
        if not usage:
            return
        for name in _USAGE_TOTALS:
            value = usage.get(name)
            if value is not None:
                self.usage[name] = usage_sent(value) if isinstance(value, dict) else value


def _copy(value: Any) -> Any:
    """A JSON value's own copy (dicts and lists copied all the way down)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def usage_sent(usage: object) -> dict[str, Any]:
    """A usage object without the fields the API sent as null (all the way down); {} for
    none, or for anything that is not an object."""
    if not isinstance(usage, dict):
        return {}
    return {k: usage_sent(v) if isinstance(v, dict) else _copy(v)
            for k, v in usage.items() if v is not None}


def _tool_input(text: str) -> Any:
    """A tool call's input from its streamed JSON. JSON cut short (the answer hit
    max_tokens) is read as far as it goes, as the SDK's helper reads it; JSON that is
    not JSON at all raises ValueError (the stream is broken)."""
    if not text:
        return {}
    try:
        return json.loads(text)
    except ValueError:
        from jiter import from_json  # (the SDK's own dependency, and its helper's reader)

        return from_json(text.encode(), partial_mode=True)
