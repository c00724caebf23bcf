"""Content blocks: the pieces a message is made of.

One parse entry, `parse_block()`, turns an API or transcript dict into a block.
A type this code does not model (a server tool call or result, or a type added
to the API later) becomes an `OpaqueBlock` that carries the dict exactly as it
came and gives it back unchanged: dropping it would silently lose part of the
conversation, and refusing it would end the run. Only a block with no type at
all, or a known type missing its fields, raises `UnknownBlockError`. `to_api()`
gives the dict the Messages API expects back, unchanged where it matters
(thinking signatures, citations, opaque blocks).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

#: Block types of the API's server-side tools and documents: carried opaquely, and
#: known, so they raise no warning. Any other unmodelled type is "unknown".
SERVER_BLOCK_TYPES = frozenset({
    "server_tool_use",
    "web_search_tool_result",
    "web_fetch_tool_result",
    "code_execution_tool_result",
    "bash_code_execution_tool_result",
    "text_editor_code_execution_tool_result",
    "tool_search_tool_result",
    "mcp_tool_use",
    "mcp_tool_result",
    "container_upload",
    "document",
    "search_result",
})

from cc.errors import UnknownBlockError


@dataclass
class TextBlock:
    text: str
    #: Fields the API sent beside the text (`citations`), given back as they came.
    extra: dict[str, Any] = field(default_factory=dict)
    type: str = field(default="text", init=False)

    def to_api(self) -> dict[str, Any]:
        return {"type": "text", "text": self.text, **copy.deepcopy(self.extra)}


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


@dataclass
class OpaqueBlock:
    """A block carried without being understood: kept and sent back exactly as received."""

    raw: dict[str, Any]

    @property
    def type(self) -> str:
        return str(self.raw["type"])

    @property
    def known(self) -> bool:
        """A server tool's block (expected), not a type this code has never heard of."""
        return self.type in SERVER_BLOCK_TYPES

    def to_api(self) -> dict[str, Any]:
        return copy.deepcopy(self.raw)


ContentBlock = (
    TextBlock
    | ToolUseBlock
    | ToolResultBlock
    | ThinkingBlock
    | RedactedThinkingBlock
    | ImageBlock
    | OpaqueBlock
)

#: What a text block may carry besides its text, kept for the round trip.
_TEXT_EXTRAS = ("citations",)


def _text(d: dict[str, Any]) -> TextBlock:
    extra = {k: d[k] for k in _TEXT_EXTRAS if d.get(k) is not None}
    return TextBlock(text=d["text"], extra=extra)


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
        # Only the fields the API sent: an unknown block is kept exactly as it came.
        raw = dump(exclude_unset=True)
    kind = raw.get("type")
    if not isinstance(kind, str) or not kind:
        raise UnknownBlockError(f"content block without a type: {raw!r:.200}")
    parser = _PARSERS.get(kind)
    if parser is None:
        return OpaqueBlock(copy.deepcopy(raw))
    try:
        return parser(raw)
    except (KeyError, TypeError) as exc:
        raise UnknownBlockError(f"malformed {kind} block: missing {exc}") from exc


def parse_content(raw: str | list[Any]) -> list[ContentBlock]:
    """Blocks for a message's `content` (a bare string is one text block)."""
    if isinstance(raw, str):
        return [TextBlock(raw)]
    return [parse_block(item) for item in raw]
