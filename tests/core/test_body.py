"""Request bodies encoded once per part (cc/core/body.py): the bytes are the SDK's own
encoding, and a part changed in place after it was sent is never sent stale."""

from __future__ import annotations

import copy
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from anthropic._utils._json import openapi_dumps

from cc.core.body import LANES, BodyEncoder
from cc.core.client import ModelClient, ModelRequest
from cc.core.credentials import Credentials
from cc.prompts.builder import PromptSection
from tests.fakeapi import FakeAPI, Recorded

MODEL = "claude-sonnet-4-6"
SYSTEM = [PromptSection("intro", "You are an agent.", cacheable=True)]
TOOLS = [{"name": "Read", "description": "Read a file", "input_schema": {
    "type": "object", "properties": {"limit": {"type": "integer", "minimum": 1}},
    "additionalProperties": False}}]
LONG = "\n".join(f"{n:6}\tline «{n}» with \"quotes\", a tab\tand \\ a backslash"
                 for n in range(1, 200))

STALE = "each request is compared with what a client that never sent anything sends"


def conversation() -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": [{"type": "text", "text": "read a.txt, then b.txt ✓"}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "Read",
                                           "input": {"file_path": "/a.txt", "limit": 10}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                      "content": LONG}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_2", "name": "Read",
                                           "input": {"file_path": "/b.txt", "flag": True,
                                                     "scale": 0.0, "ratio": 1}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_2",
                                      "content": [{"type": "text", "text": "B"}]}]},
    ]


def request(messages: list[dict[str, Any]], **kw: Any) -> ModelRequest:
    return ModelRequest(model=MODEL, max_tokens=1024, system=SYSTEM, messages=messages,
                        tools=TOOLS, **kw)


def wire(rec: Recorded) -> str:
    """The body as it came, to the type: a re-encoding of the parsed JSON tells true from
    1, 1 from 1.0 and -0.0 from 0.0, and keeps the keys' order."""
    return json.dumps(rec.body)


@pytest.fixture
async def kept(fake_api: FakeAPI) -> AsyncIterator[ModelClient]:
    """The client that keeps sending (and keeps what it encoded)."""
    client = ModelClient(Credentials(api_key="test-key", base_url=fake_api.base_url))
    try:
        yield client
    finally:
        await client.close()


async def send(client: ModelClient, req: ModelRequest) -> None:
    async for _ in client.stream(req):
        pass


async def sent_as_new(fake_api: FakeAPI, kept: ModelClient, req: ModelRequest) -> None:
    """`req` through the client that sent earlier requests, then through a new client:
    the two bodies must be the same, to the byte count and the type of every value."""
    await send(kept, req)
    new = ModelClient(Credentials(api_key="test-key", base_url=fake_api.base_url))
    try:
        await send(new, req)
    finally:
        await new.close()
    ours, reference = fake_api.requests[-2], fake_api.requests[-1]
    assert wire(ours) == wire(reference)
    assert ours.size == reference.size


# --- the bytes --------------------------------------------------------------------------


def test_the_bytes_are_the_sdks_encoding_first_time_and_after_changes() -> None:
    encoder = BodyEncoder()
    body: dict[str, Any] = {"model": MODEL, "max_tokens": 5, "messages": conversation(),
                            "tools": TOOLS, "metadata": {"user_id": "{\"a\":1}"}, "stream": True}
    assert encoder.encode(body) == openapi_dumps(body)
    body["messages"].append({"role": "assistant", "content": [
        {"type": "text", "text": "é\u2028\x00😀", "citations": None}]})
    body["max_tokens"] = 6
    assert encoder.encode(body) == openapi_dumps(body)
    assert encoder.encode(body) == openapi_dumps(body)  # all of it reused


@pytest.mark.parametrize("change", [
    "result trimmed", "input edited", "true became 1", "1 became 1.0", "0.0 became -0.0",
    "block appended", "key removed", "tools changed"])
def test_a_part_changed_in_place_is_encoded_again(change: str) -> None:
    encoder = BodyEncoder()
    body: dict[str, Any] = {"model": MODEL, "messages": conversation(),
                            "tools": copy.deepcopy(TOOLS)}
    encoder.encode(body)
    messages = body["messages"]
    call = messages[3]["content"][0]["input"]
    if change == "result trimmed":
        messages[2]["content"][0]["content"] = "[Old tool result cleared]"
    elif change == "input edited":
        messages[1]["content"][0]["input"]["limit"] = 11
    elif change == "true became 1":
        call["flag"] = 1
    elif change == "1 became 1.0":
        call["ratio"] = 1.0
    elif change == "0.0 became -0.0":
        call["scale"] = -0.0
    elif change == "block appended":
        messages[4]["content"].append({"type": "text", "text": "and more"})
    elif change == "key removed":
        del call["flag"]
    else:
        body["tools"][0]["input_schema"]["additionalProperties"] = 0
    assert encoder.encode(body) == openapi_dumps(body)


def test_what_json_cannot_take_is_left_to_the_sdk() -> None:
    encoder = BodyEncoder()
    assert encoder.encode({"messages": [{"role": "user", "content": ("a", "tuple")}]}) is None
    assert encoder.encode({"temperature": float("nan")}) is None
    assert encoder.encode({1: "a key that is no string"}) is None  # type: ignore[dict-item]
    loop: dict[str, Any] = {"role": "user"}
    loop["content"] = [loop]
    assert encoder.encode({"messages": [loop]}) is None


# --- through the client, against the fake -----------------------------------------------


@pytest.mark.cache_prefix_exempt("messages are changed in place on purpose: " + STALE)
async def test_messages_changed_in_place_between_requests_go_as_they_are_now(
        fake_api: FakeAPI, kept: ModelClient) -> None:
    fake_api.script(*["ok"] * 12)
    messages = conversation()
    await sent_as_new(fake_api, kept, request(messages))
    # As micro-compaction does (a result becomes a placeholder), as a hook or a tool
    # might (an input edited in place), and values Python finds equal but JSON does not.
    messages[2]["content"][0]["content"] = "[Old tool result cleared to save context.]"
    messages[1]["content"][0]["input"]["limit"] = 20
    call = messages[3]["content"][0]["input"]
    call.update(flag=1, ratio=1.0, scale=-0.0)
    await sent_as_new(fake_api, kept, request(messages))
    assert fake_api.requests[-1].body["messages"][3]["content"][0]["input"] == {
        "file_path": "/b.txt", "flag": 1, "ratio": 1.0, "scale": -0.0}
    # The last message's block, which carried the cache breakpoint, gets a text appended.
    messages[4]["content"].append({"type": "text", "text": "now c.txt"})
    await sent_as_new(fake_api, kept, request(messages))
    fake_api.assert_clean()


async def test_the_breakpoint_moves_on_and_leaves_no_marker_behind(
        fake_api: FakeAPI, kept: ModelClient) -> None:
    fake_api.script(*["ok"] * 6)
    messages = conversation()
    await sent_as_new(fake_api, kept, request(messages))
    messages += [{"role": "assistant", "content": [{"type": "text", "text": "read both"}]},
                 {"role": "user", "content": [{"type": "text", "text": "thanks"}]}]
    await sent_as_new(fake_api, kept, request(messages))
    marked = [i for i, m in enumerate(fake_api.requests[-2].body["messages"])
              if any("cache_control" in b for b in m["content"])]
    assert marked == [len(messages) - 1]
    fake_api.assert_clean()


@pytest.mark.cache_prefix_exempt("conversations and rewritten histories on purpose: " + STALE)
async def test_interleaved_conversations_each_go_as_they_are(
        fake_api: FakeAPI, kept: ModelClient) -> None:
    """More conversations than the encoder keeps, taking turns, one of them compacted
    (its first message replaced) and one sent with its history cut short."""
    rounds = 3
    talks = [conversation() for _ in range(LANES + 2)]
    for n, talk in enumerate(talks):
        talk[0]["content"][0]["text"] += f" (conversation {n})"
    fake_api.script(*["ok"] * (2 * rounds * len(talks) + 4))
    for r in range(rounds):
        for n, talk in enumerate(talks):
            talk += [{"role": "assistant", "content": [{"type": "text", "text": f"{r}.{n}"}]},
                     {"role": "user", "content": [{"type": "text", "text": "go on"}]}]
            await sent_as_new(fake_api, kept, request(talk))
    talks[0][0] = {"role": "user", "content": [{"type": "text", "text": "summary"}]}
    await sent_as_new(fake_api, kept, request(talks[0]))
    await sent_as_new(fake_api, kept, request(talks[1][:3]))
    fake_api.assert_clean()


async def test_a_body_json_cannot_take_as_it_is_still_goes(
        fake_api: FakeAPI, kept: ModelClient) -> None:
    fake_api.script(*["ok"] * 4)
    messages = conversation()
    messages[1]["content"][0]["input"]["pair"] = ("a", "b")  # the SDK's encoder takes it
    await sent_as_new(fake_api, kept, request(messages))
    assert fake_api.requests[-1].body["messages"][1]["content"][0]["input"]["pair"] == ["a", "b"]
    fake_api.assert_clean()
