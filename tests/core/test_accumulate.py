"""The streamed message put together from the events (the API's JSON objects, as cc asks
the SDK for them) is the one the SDK's own stream helper puts together from the same
stream (the fake API sends it twice)."""

from __future__ import annotations

from typing import Any

import anthropic
import pytest

from cc.core import sdk
from cc.core.accumulate import Accumulated, StreamOrderError, usage_sent
from tests.fakeapi import (
    FakeAPI,
    Reply,
    server_tool_use,
    text,
    thinking,
    tool_use,
    web_search_result,
)

CITATION = {"type": "char_location", "cited_text": "the sky is blue", "document_index": 0,
            "document_title": "notes", "start_char_index": 0, "end_char_index": 15}
ARGS = {"model": "claude-sonnet-5-5", "max_tokens": 100,
        "messages": [{"role": "user", "content": "go"}]}


async def _both(api: FakeAPI, reply: Reply) -> tuple[Accumulated, dict[str, Any]]:
    """Ours from a raw stream, and the SDK helper's final message, for `reply` twice."""
    api.script(reply, reply)
    client = anthropic.AsyncAnthropic(api_key="k", base_url=api.base_url, max_retries=0)
    try:
        ours = Accumulated()
        seen: list[tuple[dict[str, Any], str]] = []
        async with await sdk.load().create_message(client, dict(ARGS), stream=True) as stream:
            async for event in stream:
                seen.append((event, repr(event)))
                ours.add(event)
        # The events are read, never changed (stream-json writes them as they came).
        assert [repr(event) for event, _ in seen] == [shown for _, shown in seen]
        async with client.messages.stream(**ARGS) as helper:
            final = await helper.get_final_message()
        return ours, final.to_dict(warnings=False)
    finally:
        await client.close()


@pytest.mark.cache_prefix_exempt("the SDK itself sends the requests; no conversation")
async def test_every_kind_of_block_comes_out_as_the_sdk_helper_makes_it(fake_api: FakeAPI) -> None:
    cited = text("The sky is blue.")
    cited["citations"] = [CITATION]
    search = server_tool_use("weather", id="srvtoolu_1")
    reply = Reply([thinking("let me see"), cited, search, web_search_result("srvtoolu_1"),
                   tool_use("Read", {"file_path": "/tmp/a.txt", "limit": 5}, id="toolu_1")],
                  usage={"input_tokens": 42, "output_tokens": 7, "cache_read_input_tokens": 3,
                         "cache_creation_input_tokens": 0})
    ours, sdk = await _both(fake_api, reply)
    assert ours.content() == sdk["content"]
    assert ours.message_id.startswith("msg_")  # (each of the two replies has its own)
    assert (ours.model, ours.stop_reason) == (sdk["model"], "tool_use")
    assert ours.usage == {k: v for k, v in sdk["usage"].items() if v is not None}
    assert ours.content()[-1]["input"] == {"file_path": "/tmp/a.txt", "limit": 5}


@pytest.mark.cache_prefix_exempt("the SDK itself sends the requests; no conversation")
async def test_a_tool_call_cut_short_by_max_tokens_is_read_as_far_as_it_goes(
    fake_api: FakeAPI
) -> None:
    reply = Reply([text("Writing it."), tool_use("Write", {"file_path": "/tmp/x", "content": "abc"})],
                  stop_reason="max_tokens", cut_input_at=24)
    ours, sdk = await _both(fake_api, reply)
    assert ours.stop_reason == "max_tokens"
    assert ours.content() == sdk["content"]
    assert ours.content()[-1]["input"] == {"file_path": "/tmp/x"}


def test_a_delta_for_a_block_that_never_started_is_a_broken_stream() -> None:
    delta = {"type": "content_block_delta", "index": 3,
             "delta": {"type": "text_delta", "text": "x"}}
    with pytest.raises(StreamOrderError, match="block 3"):
        Accumulated().add(delta)


def test_usage_is_what_the_api_sent_without_its_nulls_all_the_way_down() -> None:
    """The streamed and the whole message read usage the same way (`usage_sent`)."""
    sent = {"input_tokens": 3, "service_tier": None,
            "cache_creation": {"ephemeral_5m_input_tokens": None, "ephemeral_1h_input_tokens": 2}}
    assert usage_sent(sent) == {"input_tokens": 3,
                                "cache_creation": {"ephemeral_1h_input_tokens": 2}}
    assert usage_sent(None) == {} and usage_sent("not an object") == {}
