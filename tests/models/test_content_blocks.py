"""Content blocks: parsing API/transcript dicts and SDK objects, and giving them back."""

from __future__ import annotations

import copy
from typing import Any

import anthropic.types as sdk
import pytest

from cc.errors import UnknownBlockError
from cc.models.content_blocks import (
    ImageBlock,
    OpaqueBlock,
    RedactedThinkingBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    parse_block,
    parse_content,
)

PNG_SOURCE = {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgoAAAANSUhEUgAAAAE="}

ROUND_TRIPS: list[tuple[dict[str, Any], type]] = [
    ({"type": "text", "text": "Hello, ü \n world"}, TextBlock),
    ({"type": "tool_use", "id": "toolu_01", "name": "Bash",
      "input": {"command": "ls -la", "nested": {"a": [1, 2, {"b": None}]}}}, ToolUseBlock),
    ({"type": "tool_result", "tool_use_id": "toolu_01", "content": "file.txt"}, ToolResultBlock),
    ({"type": "tool_result", "tool_use_id": "toolu_02", "is_error": True,
      "content": [{"type": "text", "text": "boom"},
                  {"type": "image", "source": PNG_SOURCE}]}, ToolResultBlock),
    ({"type": "thinking", "thinking": "Let me think.",
      "signature": "EqQBCkYIBRgCKkB+/==sig-with-odd-chars=="}, ThinkingBlock),
    ({"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4a+/encrypted=="},
     RedactedThinkingBlock),
    ({"type": "image", "source": PNG_SOURCE}, ImageBlock),
    ({"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}, ImageBlock),
]


@pytest.mark.parametrize(("raw", "cls"), ROUND_TRIPS, ids=lambda v: v.get("type") if isinstance(v, dict) else None)
def test_round_trip_dict_to_block_to_api(raw: dict[str, Any], cls: type) -> None:
    original = copy.deepcopy(raw)
    block = parse_block(raw)
    assert isinstance(block, cls)
    assert block.type == raw["type"]
    assert block.to_api() == original
    assert raw == original  # parsing did not touch its input


def test_thinking_signature_and_redacted_data_are_byte_identical() -> None:
    sig = "ErUBCkYIAxgCIkA" + "x" * 500 + "/+=="
    block = parse_block({"type": "thinking", "thinking": "t", "signature": sig})
    assert isinstance(block, ThinkingBlock)
    assert block.signature == sig and block.to_api()["signature"] == sig
    data = "Em" + "y" * 700 + "=="
    red = parse_block({"type": "redacted_thinking", "data": data})
    assert isinstance(red, RedactedThinkingBlock) and red.to_api() == {"type": "redacted_thinking", "data": data}


def test_tool_result_is_error_false_is_omitted_and_list_content_kept() -> None:
    block = parse_block({"type": "tool_result", "tool_use_id": "t1", "is_error": False,
                         "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]})
    assert isinstance(block, ToolResultBlock)
    assert block.is_error is False
    assert block.content == [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]
    assert block.to_api() == {"type": "tool_result", "tool_use_id": "t1",
                               "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}


def test_tool_result_is_error_true_survives() -> None:
    block = parse_block({"type": "tool_result", "tool_use_id": "t1", "content": "denied", "is_error": True})
    assert isinstance(block, ToolResultBlock) and block.is_error is True
    assert block.to_api()["is_error"] is True


def test_tool_result_without_content_becomes_empty_string() -> None:
    block = parse_block({"type": "tool_result", "tool_use_id": "t1", "content": None})
    assert isinstance(block, ToolResultBlock) and block.content == ""


def test_tool_use_input_is_copied_not_shared() -> None:
    raw = {"type": "tool_use", "id": "t", "name": "Read", "input": {"file_path": "/a"}}
    block = parse_block(raw)
    assert isinstance(block, ToolUseBlock)
    block.input["file_path"] = "/b"
    assert raw["input"] == {"file_path": "/a"}


def test_bare_string_content_is_one_text_block() -> None:
    blocks = parse_content("just words")
    assert blocks == [TextBlock("just words")]
    assert [b.to_api() for b in blocks] == [{"type": "text", "text": "just words"}]


def test_list_content_parses_every_item_in_order() -> None:
    raw = [{"type": "text", "text": "a"}, {"type": "tool_use", "id": "t", "name": "Bash", "input": {}}]
    blocks = parse_content(raw)
    assert [type(b) for b in blocks] == [TextBlock, ToolUseBlock]
    assert [b.to_api() for b in blocks] == raw


SERVER_BLOCKS = [
    {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search",
     "input": {"query": "pydantic v3"}},
    {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": [
        {"type": "web_search_result", "url": "https://a.example", "title": "A",
         "encrypted_content": "Eq==", "page_age": None}]},
]


@pytest.mark.parametrize("raw", [*SERVER_BLOCKS, {"type": "document_v9", "x": None, "y": [1, {}]}],
                         ids=lambda r: r["type"])
def test_unmodelled_types_are_carried_verbatim(raw: dict[str, Any]) -> None:
    block = parse_block(copy.deepcopy(raw))
    assert isinstance(block, OpaqueBlock) and block.type == raw["type"]
    assert block.to_api() == raw
    assert block.known == (raw["type"] != "document_v9")
    block.to_api()["type"] = "changed"  # callers get copies: the block itself never changes
    assert block.to_api() == raw


@pytest.mark.parametrize("kind", ["", None, 7])
def test_a_block_without_a_type_raises(kind: Any) -> None:
    with pytest.raises(UnknownBlockError, match="without a type"):
        parse_block({"type": kind, "text": "x"})


def test_unknown_type_inside_content_list_is_kept_in_place() -> None:
    blocks = parse_content([{"type": "text", "text": "ok"}, {"type": "mystery", "n": 1},
                            {"type": "text", "text": "after"}])
    assert [b.type for b in blocks] == ["text", "mystery", "text"]
    assert blocks[1].to_api() == {"type": "mystery", "n": 1}


def test_text_citations_survive_the_round_trip() -> None:
    raw = {"type": "text", "text": "Pydantic 3 is out.", "citations": [
        {"type": "web_search_result_location", "url": "https://a.example", "title": "A",
         "encrypted_index": "Eo==", "cited_text": "Pydantic 3"}]}
    assert parse_block(copy.deepcopy(raw)).to_api() == raw


@pytest.mark.parametrize(
    "raw",
    [
        {"type": "text"},
        {"type": "tool_use", "name": "Bash", "input": {}},
        {"type": "tool_use", "id": "t1", "input": {}},
        {"type": "tool_result", "content": "x"},
        {"type": "redacted_thinking"},
        {"type": "image"},
    ],
    ids=lambda r: f"{r['type']}-missing",
)
def test_missing_field_raises_unknown_block_error(raw: dict[str, Any]) -> None:
    with pytest.raises(UnknownBlockError, match=f"malformed {raw['type']} block"):
        parse_block(raw)


def test_unknown_block_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        parse_block({"text": "no type"})


def test_non_dict_without_model_dump_raises() -> None:
    with pytest.raises(UnknownBlockError, match="not a content block"):
        parse_block(42)


def test_parse_sdk_text_block() -> None:
    block = parse_block(sdk.TextBlock(type="text", text="from the SDK", citations=None))
    assert block == TextBlock("from the SDK")
    assert block.to_api() == {"type": "text", "text": "from the SDK"}  # citations=None not carried


def test_parse_sdk_tool_use_block() -> None:
    raw = sdk.ToolUseBlock(type="tool_use", id="toolu_sdk", name="Grep", input={"pattern": "x", "n": [1]})
    block = parse_block(raw)
    assert isinstance(block, ToolUseBlock)
    assert (block.id, block.name, block.input) == ("toolu_sdk", "Grep", {"pattern": "x", "n": [1]})
    assert block.to_api() == {"type": "tool_use", "id": "toolu_sdk", "name": "Grep",
                              "input": {"pattern": "x", "n": [1]}}


def test_parse_sdk_thinking_block_keeps_signature() -> None:
    raw = sdk.ThinkingBlock(type="thinking", thinking="hmm", signature="sig/+==")
    assert parse_block(raw).to_api() == {"type": "thinking", "thinking": "hmm", "signature": "sig/+=="}
