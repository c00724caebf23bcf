"""A streamed message, put together from the SDK's events.

The SDK parses the SSE stream and types each event (`messages.create(stream=True)`);
this module folds them into the finished message, as the API would have sent it whole.
The SDK's own helper (`messages.stream()`) does the same into pydantic snapshots: it
re-parses a tool call's JSON at every delta and builds a generic message class per
stream, about three times the CPU per event and a quarter of a second on first use. Here
a block is a dict, its text grows by concatenation, and a tool call's input is parsed
once, when its block ends.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

#: The fields of a message_delta's usage that, when present, replace message_start's
#: (the API sends running totals).
_USAGE_TOTALS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens",
                 "server_tool_use", "output_tokens_details")


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

    def add(self, event: Any) -> dict[str, Any] | None:
        """Fold in one SDK event; the block it ended, if it was a content_block_stop."""
        kind = event.type
        if kind == "content_block_delta":
            self._delta(event.index, event.delta)
        elif kind == "content_block_start":
            self.blocks[event.index] = _dump(event.content_block)
        elif kind == "content_block_stop":
            return self._stop(event.index)
        elif kind == "message_start":
            message = event.message
            self.message_id, self.model = message.id, message.model
            self.usage = _dump(message.usage, exclude_none=True)
        elif kind == "message_delta":
            self.stop_reason = event.delta.stop_reason
            self._usage(event.usage)
        return None

    def content(self) -> list[dict[str, Any]]:
        return [self.blocks[i] for i in sorted(self.blocks)]

    def _block(self, index: int) -> dict[str, Any]:
        block = self.blocks.get(index)
        if block is None:
            raise StreamOrderError(f"a delta for block {index}, which never started")
        return block

    def _delta(self, index: int, delta: Any) -> None:
        block, kind = self._block(index), delta.type
        if kind == "text_delta":
            block["text"] = block.get("text", "") + delta.text
        elif kind == "input_json_delta":
            self._json.setdefault(index, []).append(delta.partial_json)
        elif kind == "thinking_delta":
            block["thinking"] = block.get("thinking", "") + delta.thinking
        elif kind == "signature_delta":
            block["signature"] = delta.signature
        elif kind == "citations_delta":
            block.setdefault("citations", []).append(_dump(delta.citation))
        # (a delta of a kind not known here changes nothing, as in the SDK's helper)

    def _stop(self, index: int) -> dict[str, Any]:
        block = self._block(index)
        parts = self._json.pop(index, None)
        if parts is not None:
            block["input"] = _tool_input("".join(parts))
        return block

    def _usage(self, usage: Any) -> None:
        if usage is None:
            return
        self.usage["output_tokens"] = usage.output_tokens
        for name in _USAGE_TOTALS:
            value = getattr(usage, name, None)
            if value is not None:
                self.usage[name] = _dump(value, exclude_none=True) if hasattr(
                    value, "model_dump") else value


def _dump(model: Any, *, exclude_none: bool = False) -> dict[str, Any]:
    """An SDK object as the API sent it (fields it did not send left out)."""
    dumped: dict[str, Any] = model.model_dump(
        exclude_unset=True, exclude_none=exclude_none, by_alias=True, warnings=False)
    return dumped


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
