"""Content blocks: the pieces a message is made of.

One parse entry, `parse_block()`, turns an API or transcript dict into a block; an
unknown type raises `UnknownBlockError` rather than being dropped, because dropping
it would silently lose part of the conversation. `to_api()` gives the dict the
Messages API expects back, unchanged where it matters (thinking signatures).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cc.errors import UnknownBlockError


@dataclass
class TextBlock:
    text: str
    type: str = field(default="text", init=False)

    def to_api(self) -> dict[str, Any]:
        return {"type": "text", "text": self.text}


@dataclass
class ToolUseBlock:
    id: str
    name: str
    input: dict[str, Any]
    type: str = field(default="tool_use", init=False)

    def to_api(self) -> dict[str, Any]:
        return {"type": "tool_use", "id": self.id, "name": self.name, "input": self.input}


@dataclass
class ToolResultBlock:
    tool_use_id: str
    content: str | list[dict[str, Any]]
    is_error: bool = False
    type: str = field(default="tool_result", init=False)

    def to_api(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": "tool_result",
            "tool_use_id": self.tool_use_id,
            "content": self.content,
        }
        if self.is_error:
            out["is_error"] = True
        return out


@dataclass
class ThinkingBlock:
    thinking: str
    signature: str
    type: str = field(default="thinking", init=False)

    def to_api(self) -> dict[str, Any]:
        return {"type": "thinking", "thinking": self.thinking, "signature": self.signature}


@dataclass
class RedactedThinkingBlock:
    data: str
    type: str = field(default="redacted_thinking", init=False)

    def to_api(self) -> dict[str, Any]:
        return {"type": "redacted_thinking", "data": self.data}


@dataclass
class ImageBlock:
    source: dict[str, Any]
    type: str = field(default="image", init=False)

    def to_api(self) -> dict[str, Any]:
        return {"type": "image", "source": self.source}


ContentBlock = (
    TextBlock | ToolUseBlock | ToolResultBlock | ThinkingBlock | RedactedThinkingBlock | ImageBlock
)


def _text(d: dict[str, Any]) -> TextBlock:
    return TextBlock(text=d["text"])


def _tool_use(d: dict[str, Any]) -> ToolUseBlock:
    return ToolUseBlock(id=d["id"], name=d["name"], input=dict(d.get("input") or {}))


def _tool_result(d: dict[str, Any]) -> ToolResultBlock:
    content = d.get("content", "")
    if content is None:
        content = ""
    return ToolResultBlock(
        tool_use_id=d["tool_use_id"], content=content, is_error=bool(d.get("is_error", False))
    )


def _thinking(d: dict[str, Any]) -> ThinkingBlock:
    return ThinkingBlock(thinking=d.get("thinking", ""), signature=d.get("signature", ""))


def _redacted(d: dict[str, Any]) -> RedactedThinkingBlock:
    return RedactedThinkingBlock(data=d["data"])


def _image(d: dict[str, Any]) -> ImageBlock:
    return ImageBlock(source=dict(d["source"]))


_PARSERS = {
    "text": _text,
    "tool_use": _tool_use,
    "tool_result": _tool_result,
    "thinking": _thinking,
    "redacted_thinking": _redacted,
    "image": _image,
}


def parse_block(raw: dict[str, Any] | Any) -> ContentBlock:
    """The block for an API/transcript dict (or an SDK object with `model_dump`)."""
    if not isinstance(raw, dict):
        dump = getattr(raw, "model_dump", None)
        if dump is None:
            raise UnknownBlockError(f"not a content block: {raw!r}")
        raw = dump(exclude_none=True)
    kind = raw.get("type")
    parser = _PARSERS.get(kind)  # type: ignore[arg-type]
    if parser is None:
        raise UnknownBlockError(f"unknown content block type: {kind!r}")
    try:
        return parser(raw)
    except (KeyError, TypeError) as exc:
        raise UnknownBlockError(f"malformed {kind} block: missing {exc}") from exc


def parse_content(raw: str | list[Any]) -> list[ContentBlock]:
    """Blocks for a message's `content` (a bare string is one text block)."""
    if isinstance(raw, str):
        return [TextBlock(raw)]
    return [parse_block(item) for item in raw]
