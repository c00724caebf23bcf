"""Tests of the fake Anthropic API, exercised through the real ``anthropic`` SDK."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import urllib.request
from collections.abc import AsyncIterator, Callable
from typing import Any

import anthropic
import anthropic._base_client as _sdk_base

# anthropic 2.x vendors an httpx fork (httpx2); 0.x uses httpx. Cut streams surface its errors raw.
transport = getattr(_sdk_base, "httpx2", None) or _sdk_base.httpx
import pytest

from tests.fakeapi import (
    CutStream,
    FakeAPI,
    Fault,
    Hang,
    Reply,
    StreamError,
    first_user_text,
    last_user_text,
    redacted_thinking,
    system_text,
    text,
    thinking,
    tool_use,
)
from tests.waiting import DEADLINE, wait_for

MODEL = "claude-sonnet-4-6"  # NB: 4-5 is in the SDK's DEPRECATED_MODELS -> DeprecationWarning -> error
HI: list[Any] = [{"role": "user", "content": "hi"}]


@pytest.fixture
async def client(fake_api: FakeAPI) -> AsyncIterator[anthropic.AsyncAnthropic]:
    async with anthropic.AsyncAnthropic(base_url=fake_api.base_url, api_key="test-key", max_retries=0) as c:
        yield c


async def stream(client: anthropic.AsyncAnthropic, messages: list[Any] = HI, **kw: Any) -> tuple[list[Any], Any]:
    """Stream one request; return (events seen, final message)."""
    async with client.messages.stream(model=MODEL, max_tokens=100, messages=messages, **kw) as s:
        events = [ev async for ev in s]
        return events, await s.get_final_message()


# --- replies ---------------------------------------------------------------------------


async def test_text_reply_streams_in_pieces(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    fake_api.script(Reply([text("Hello there, how can I help you today?")]))
    events, msg = await stream(client)
    deltas = [e.delta.text for e in events if e.type == "content_block_delta"]
    assert len(deltas) == 3 and "".join(deltas) == "Hello there, how can I help you today?"
    assert [b.model_dump(exclude_none=True) for b in msg.content] == [{"type": "text", "text": "Hello there, how can I help you today?"}]
    assert msg.stop_reason == "end_turn" and msg.model == MODEL and msg.id.startswith("msg_")
    body = fake_api.last_request.body
    assert body["stream"] is True and body["messages"] == HI
    assert msg.usage.input_tokens > 0 and msg.usage.output_tokens > 1
    # NB: anthropic 2.14 sends api_key as `authorization: Bearer ...`, not `x-api-key`
    headers = fake_api.last_request.headers
    assert headers.get("x-api-key") == "test-key" or headers.get("authorization") == "Bearer test-key"
    assert fake_api.turns_left == 0
    fake_api.assert_clean()


async def test_tool_use_input_arrives_intact(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    tool_input = {"command": "ls -la /tmp", "nested": {"a": [1, 2, {"b": "ü\n\"q\""}]}, "timeout": 5}
    fake_api.script(Reply([text("Let me look."), tool_use("Bash", tool_input, id="toolu_x1")]))
    events, msg = await stream(client)
    partials = [e.delta.partial_json for e in events if e.type == "content_block_delta" and e.delta.type == "input_json_delta"]
    assert len(partials) >= 2
    block = msg.content[1]
    assert block.type == "tool_use" and block.id == "toolu_x1" and block.name == "Bash"
    assert block.input == tool_input
    assert msg.stop_reason == "tool_use"
    fake_api.assert_clean()


async def test_auto_tool_ids_are_unique() -> None:
    assert tool_use("A", {})["id"] != tool_use("A", {})["id"]
    assert tool_use("A", {})["id"].startswith("toolu_")


async def test_thinking_and_signature_preserved(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    fake_api.script(Reply([thinking("Hmm, let me think about it.", "sig-abc"), redacted_thinking("opaque=="), text("42")],
                          usage={"cache_read_input_tokens": 7, "output_tokens": 99}))
    events, msg = await stream(client)
    assert any(e.type == "content_block_delta" and e.delta.type == "signature_delta" for e in events)
    assert msg.content[0].type == "thinking"
    assert msg.content[0].thinking == "Hmm, let me think about it." and msg.content[0].signature == "sig-abc"
    assert msg.content[1].type == "redacted_thinking" and msg.content[1].data == "opaque=="
    assert msg.content[2].type == "text" and msg.content[2].text == "42"
    assert msg.usage.cache_read_input_tokens == 7 and msg.usage.output_tokens == 99


async def test_non_stream_request(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    fake_api.script(Reply([text("whole"), tool_use("Read", {"file_path": "/x"})], usage={"input_tokens": 12}))
    msg = await client.messages.create(model=MODEL, max_tokens=10, messages=HI)
    assert msg.content[0].type == "text" and msg.content[0].text == "whole"
    assert msg.content[1].type == "tool_use" and msg.content[1].input == {"file_path": "/x"}
    assert msg.stop_reason == "tool_use" and msg.usage.input_tokens == 12
    assert "stream" not in fake_api.last_request.body
    fake_api.assert_clean()


async def test_count_tokens(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    result = await client.messages.count_tokens(model=MODEL, messages=HI)
    assert result.input_tokens > 0
    assert fake_api.last_request.path == "/v1/messages/count_tokens"
    assert fake_api.bodies == [] and fake_api.violations == []


def test_plain_urllib_client_sees_chunked_sse(fake_api: FakeAPI) -> None:
    """Wire-level check: chunked transfer encoding and the real event order."""
    fake_api.script("hey")
    data = json.dumps({"model": MODEL, "max_tokens": 5, "messages": HI, "stream": True}).encode()
    req = urllib.request.Request(fake_api.base_url + "/v1/messages", data=data, headers={"content-type": "application/json"})
    with urllib.request.urlopen(req) as resp:
        assert resp.headers["transfer-encoding"] == "chunked"
        assert resp.headers["content-type"].startswith("text/event-stream")
        raw = resp.read().decode()
    names = [line.split(": ", 1)[1] for line in raw.splitlines() if line.startswith("event: ")]
    assert names[:3] == ["message_start", "ping", "content_block_start"]
    assert names[-3:] == ["content_block_stop", "message_delta", "message_stop"]
    assert names.count("content_block_delta") == 3  # "h", "e", "y"
    start = json.loads(raw.split("data: ", 1)[1].split("\n", 1)[0])
    assert start["message"]["usage"] == {"input_tokens": len(data) // 4, "output_tokens": 1,
                                         "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}


async def test_pause_after_block_delays_following_events(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    pause = 0.4
    fake_api.script(Reply([tool_use("Bash", {"command": "a"}), tool_use("Bash", {"command": "b"})], pause_after_block={0: pause}))
    async with client.messages.stream(model=MODEL, max_tokens=100, messages=HI) as s:
        await s.get_final_message()
    stopped, restarted = fake_api.sent_at("content_block_stop"), fake_api.sent_at("content_block_start", 1)
    assert stopped is not None and restarted is not None
    assert restarted - stopped >= pause * 0.95  # a lower bound: load only makes the gap longer


async def test_hold_after_block_waits_for_the_client(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    seen = threading.Event()
    fake_api.script(Reply([tool_use("Bash", {"command": "a"}), tool_use("Bash", {"command": "b"})], hold_after_block={0: seen.is_set}))
    order: list[str] = []
    async with client.messages.stream(model=MODEL, max_tokens=100, messages=HI) as s:
        async for ev in s:
            if ev.type in ("content_block_start", "content_block_stop"):
                order.append(f"{ev.type[14:]} {ev.index}")
            if ev.type == "content_block_stop" and ev.index == 0:
                seen.set()  # block 0 reached us before the hold ended: it is not buffered
        await s.get_final_message()
    assert order == ["start 0", "stop 0", "start 1", "stop 1"]
    fake_api.assert_clean()  # the hold ended because the condition held, not by expiry


def test_a_hold_that_never_ends_is_a_violation(monkeypatch: pytest.MonkeyPatch) -> None:
    import tests.fakeapi as fakeapi

    monkeypatch.setattr(fakeapi, "HOLD_LIMIT", 0.05)
    with FakeAPI() as server:
        server.script(Reply("stuck", hold_after_block={0: lambda: False}))
        data = json.dumps({"model": MODEL, "max_tokens": 5, "messages": HI, "stream": True}).encode()
        request = urllib.request.Request(server.base_url + "/v1/messages", data=data)
        with urllib.request.urlopen(request) as resp:
            assert b"message_stop" in resp.read()
        with pytest.raises(AssertionError, match="hold after block 0"):
            server.assert_clean()


# --- faults ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "exc", "etype"),
    [
        (400, anthropic.BadRequestError, "invalid_request_error"),
        (401, anthropic.AuthenticationError, "authentication_error"),
        (403, anthropic.PermissionDeniedError, "permission_error"),
        (413, anthropic.RequestTooLargeError, "request_too_large"),
        (429, anthropic.RateLimitError, "rate_limit_error"),
        (500, anthropic.InternalServerError, "api_error"),
        (529, anthropic.OverloadedError, "overloaded_error"),
    ],
)
async def test_fault_maps_to_sdk_exception(
    fake_api: FakeAPI, client: anthropic.AsyncAnthropic, status: int, exc: type[anthropic.APIStatusError], etype: str
) -> None:
    fake_api.script(Fault(status))
    with pytest.raises(exc) as info:
        await stream(client)
    assert info.value.status_code == status
    assert isinstance(info.value, anthropic.APIStatusError)
    assert info.value.body["error"]["type"] == etype  # type: ignore[index]
    assert info.value.response.headers.get("x-should-retry") is None


async def test_fault_custom_message_and_headers(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    fake_api.script(Fault(400, message="prompt is too long: 210000 tokens > 200000 maximum"),
                    Fault(429, headers={"retry-after": "3"}))
    with pytest.raises(anthropic.BadRequestError, match="prompt is too long: 210000 tokens > 200000 maximum"):
        await stream(client)
    with pytest.raises(anthropic.RateLimitError) as info:
        await client.messages.create(model=MODEL, max_tokens=10, messages=HI)
    assert info.value.response.headers["retry-after"] == "3"


async def test_no_turn_left_is_500_and_violation(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    with pytest.raises(anthropic.InternalServerError, match="fake api: no scripted turn left"):
        await stream(client)
    assert fake_api.violations == ["request 0: no scripted turn left"]
    with pytest.raises(AssertionError, match="no scripted turn left"):
        fake_api.assert_clean()


# --- broken streams --------------------------------------------------------------------

LONG = Reply([text("one two three four five six"), tool_use("Bash", {"command": "echo hi"})])


async def test_cut_stream_raises_raw_remote_protocol_error_during_iteration(
    fake_api: FakeAPI, client: anthropic.AsyncAnthropic
) -> None:
    """A FIN mid-body surfaces as the transport's RemoteProtocolError, NOT wrapped in anthropic.APIConnectionError."""
    fake_api.script(CutStream(LONG, after_events=4))  # message_start, ping, block_start, 1 text delta
    seen: list[str] = []
    with pytest.raises(transport.RemoteProtocolError, match="incomplete chunked read") as info:
        async with client.messages.stream(model=MODEL, max_tokens=100, messages=HI) as s:
            async for ev in s:
                seen.append(ev.type)
    assert not isinstance(info.value, anthropic.APIError)
    assert "content_block_delta" in seen and "message_stop" not in seen


async def test_cut_stream_raises_at_get_final_message_when_not_iterating(
    fake_api: FakeAPI, client: anthropic.AsyncAnthropic
) -> None:
    fake_api.script(CutStream(LONG, after_events=0))  # headers sent, body cut at once
    async with client.messages.stream(model=MODEL, max_tokens=100, messages=HI) as s:  # entering succeeds
        with pytest.raises(transport.RemoteProtocolError):
            await s.get_final_message()


async def test_cut_stream_with_reset_raises_read_error(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    fake_api.script(CutStream(LONG, after_events=5, reset=True))
    with pytest.raises(transport.ReadError):
        await stream(client)


async def test_sdk_does_not_retry_a_cut_stream(fake_api: FakeAPI) -> None:
    fake_api.script(CutStream(LONG, after_events=3), Reply("second"))
    async with anthropic.AsyncAnthropic(base_url=fake_api.base_url, api_key="k", max_retries=2) as c:
        with pytest.raises(transport.RemoteProtocolError):
            await stream(c)
    assert fake_api.turns_left == 1 and len(fake_api.requests) == 1


async def test_cut_before_response_is_api_connection_error(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    fake_api.script(CutStream(LONG, after_events=3))
    with pytest.raises(anthropic.APIConnectionError) as info:  # non-stream: no response at all
        await client.messages.create(model=MODEL, max_tokens=10, messages=HI)
    assert isinstance(info.value.__cause__, transport.RemoteProtocolError)


async def test_mid_stream_error_event(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    """An SSE `error` event yields a plain APIStatusError carrying HTTP 200 (not OverloadedError)."""
    fake_api.script(StreamError(LONG, after_events=4))
    with pytest.raises(anthropic.APIStatusError) as info:
        await stream(client)
    assert type(info.value) is anthropic.APIStatusError
    assert info.value.status_code == 200 and info.value.type == "overloaded_error"


async def test_hang_times_out(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    fake_api.script(Hang(60))  # a hang that ended would be a connection error, not a timeout
    with pytest.raises(anthropic.APITimeoutError):
        await stream(client, timeout=0.3)


def test_stop_is_prompt_with_a_hanging_request() -> None:
    server = FakeAPI().start()
    server.script(Hang(3600))

    def call() -> None:
        data = json.dumps({"model": MODEL, "max_tokens": 5, "messages": HI}).encode()
        try:
            urllib.request.urlopen(urllib.request.Request(server.base_url + "/v1/messages", data=data)).close()
        except Exception:
            pass

    t = threading.Thread(target=call)
    t.start()
    wait_for(lambda: server.requests, what="the request")
    stopper = threading.Thread(target=server.stop)
    stopper.start()
    stopper.join(DEADLINE)  # the hang lasts an hour: only an interrupted one ends in time
    assert not stopper.is_alive(), "stop() waited for the hanging request"
    t.join(DEADLINE)
    assert not t.is_alive()


def test_usable_from_a_subprocess(fake_api: FakeAPI) -> None:
    fake_api.script(Reply([text("from afar")]))
    code = (
        "import anthropic\n"
        "c = anthropic.Anthropic(max_retries=0)\n"
        f"with c.messages.stream(model={MODEL!r}, max_tokens=9, messages=[{{'role': 'user', 'content': 'hi'}}]) as s:\n"
        "    print(s.get_final_message().content[0].text)\n"
        "c.close()\n"
    )
    env = {**os.environ, "ANTHROPIC_BASE_URL": fake_api.base_url, "ANTHROPIC_API_KEY": "sub-key"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "from afar"
    fake_api.assert_clean()


# --- validation ------------------------------------------------------------------------


async def test_validation_catches_non_alternating_roles(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    fake_api.script("ok")
    await stream(client, [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}])
    assert any("messages[1]" in v and "alternate" in v for v in fake_api.violations)
    with pytest.raises(AssertionError, match="request 0: messages\\[1\\]"):
        fake_api.assert_clean()


async def test_validation_catches_unanswered_tool_use(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    fake_api.script("ok", "ok")
    asst = {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {}},
                                             {"type": "tool_use", "id": "toolu_2", "name": "Bash", "input": {}}]}
    answered_one = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "x"}]}
    await stream(client, [HI[0], asst, answered_one])
    assert fake_api.violations == ["request 0: messages[1]: tool_use ids without tool_result immediately after: ['toolu_2']"]
    stray = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_9", "content": "x"}]}
    await stream(client, [HI[0], {"role": "assistant", "content": "plain"}, stray])
    assert any("request 1" in v and "unknown tool_use id 'toolu_9'" in v for v in fake_api.violations)


async def test_validation_accepts_a_correct_tool_round_trip(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    fake_api.script("ok")
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "go", "cache_control": {"type": "ephemeral"}}]},
        {"role": "assistant", "content": [thinking("t", "sig"), text("running"), tool_use("Bash", {"c": 1}, id="toolu_a")]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_a", "content": "done"}, text("and?")]},
    ]
    await stream(client, messages, system=[{"type": "text", "text": "sys", "cache_control": {"type": "ephemeral"}}])
    fake_api.assert_clean()


async def test_validation_catches_too_many_cache_markers(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    fake_api.script("ok")
    cc = {"cache_control": {"type": "ephemeral"}}
    system = [{"type": "text", "text": "a", **cc}, {"type": "text", "text": "b", **cc}]
    tools = [{"name": "T", "description": "d", "input_schema": {"type": "object"}, **cc}]
    messages = [{"role": "user", "content": [{"type": "text", "text": "x", **cc}, {"type": "text", "text": "y", **cc}]}]
    await stream(client, messages, system=system, tools=tools)
    assert fake_api.violations == ["request 0: 5 cache_control markers (maximum is 4)"]


async def test_validation_misc_rules(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    fake_api.script("ok")
    messages = [
        {"role": "assistant", "content": "starts with assistant"},
        {"role": "user", "content": []},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "t", "signature": ""},
                                          tool_use("A", {}, id="toolu_d"), tool_use("A", {}, id="toolu_d")]},
        {"role": "user", "content": [text("first"), {"type": "tool_result", "tool_use_id": "toolu_d", "content": "r"}]},
    ]
    await stream(client, messages)
    joined = "\n".join(fake_api.violations)
    for needle in ("messages[0]: role 'assistant'", "messages[1]: empty content", "thinking block without signature",
                   "duplicate tool_use id 'toolu_d'", "tool_result blocks must come first"):
        assert needle in joined, needle


def test_records_and_helpers(fake_api: FakeAPI) -> None:
    fake_api.script("a", Reply("b"))
    assert fake_api.turns_left == 2
    req = urllib.request.Request(fake_api.base_url + "/v1/messages", headers={"X-Custom": "V"},
                                 data=json.dumps({"model": MODEL, "max_tokens": 5, "messages": HI}).encode())
    with urllib.request.urlopen(req) as resp:
        assert json.load(resp)["content"] == [{"type": "text", "text": "a"}]
    assert fake_api.turns_left == 1
    assert fake_api.last_request.headers["x-custom"] == "V"
    assert fake_api.bodies == [{"model": MODEL, "max_tokens": 5, "messages": HI}]
    fake_api.assert_clean()


# --- routes ----------------------------------------------------------------------------


def ask(text_: str) -> list[Any]:
    return [{"role": "user", "content": text_}]


async def reply_text(client: anthropic.AsyncAnthropic, messages: list[Any], **kw: Any) -> str:
    _, msg = await stream(client, messages, **kw)
    return "".join(b.text for b in msg.content if b.type == "text")


async def test_route_by_system_text(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    main = fake_api.route("You are the main agent", "main 1", "main 2")
    sub = fake_api.route("You are a sub-agent", "sub 1")
    system_blocks = [{"type": "text", "text": "Header."}, {"type": "text", "text": "You are a sub-agent."}]
    assert fake_api.turns_left == 3
    assert await reply_text(client, HI, system=system_blocks) == "sub 1"  # a list of blocks
    assert await reply_text(client, HI, system="You are the main agent.") == "main 1"  # a plain string
    assert await reply_text(client, HI, system="You are the main agent.") == "main 2"
    assert [r.body["system"] for r in sub.requests] == [system_blocks]
    assert len(main.requests) == 2 and main.turns_left == sub.turns_left == fake_api.turns_left == 0
    assert [r.route for r in fake_api.requests] == ["You are a sub-agent", "You are the main agent", "You are the main agent"]
    fake_api.assert_clean()


async def test_route_by_first_user_text_only(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    task = fake_api.route("Task: count the files", Reply([tool_use("Bash", {"command": "ls"}, id="toolu_r1")]), "3 files")
    fake_api.script("default")
    first = {"role": "user", "content": [{"type": "text", "text": "<system-reminder>ctx</system-reminder>"},
                                         {"type": "text", "text": "Task: count the files"}]}
    _, msg = await stream(client, [first])
    assert msg.content[0].type == "tool_use"
    follow_up = [first, {"role": "assistant", "content": [tool_use("Bash", {"command": "ls"}, id="toolu_r1")]},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_r1", "content": "a b c"}]}]
    assert await reply_text(client, follow_up) == "3 files"  # the conversation still starts with the task
    later = [HI[0], {"role": "assistant", "content": "ok"}, {"role": "user", "content": "Task: count the files"}]
    assert await reply_text(client, later) == "default"  # a later user message does not route
    assert [r.route for r in fake_api.requests] == ["Task: count the files"] * 2 + [None]
    assert task.turns_left == 0 and len(task.requests) == 2
    fake_api.assert_clean()


async def test_route_by_callable(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    def small_budget(body: dict[str, Any]) -> bool:
        return body.get("max_tokens") == 7

    route = fake_api.route(small_budget, "seven")
    fake_api.script("default")
    msg = await client.messages.create(model=MODEL, max_tokens=100, messages=HI)
    assert msg.content[0].type == "text" and msg.content[0].text == "default"
    msg = await client.messages.create(model=MODEL, max_tokens=7, messages=HI)
    assert msg.content[0].type == "text" and msg.content[0].text == "seven"
    assert route.name == "small_budget" and [r.body["max_tokens"] for r in route.requests] == [7]
    assert [r.route for r in fake_api.requests] == [None, "small_budget"]
    fake_api.assert_clean()


async def test_a_played_route_falls_back_to_the_default_queue(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    route = fake_api.route("alpha", "routed")
    fake_api.script("fallback")
    assert await reply_text(client, ask("alpha")) == "routed"
    assert await reply_text(client, ask("alpha")) == "fallback"
    assert [r.route for r in fake_api.requests] == ["alpha", None] and len(route.requests) == 1
    fake_api.assert_clean()


async def test_first_matching_route_with_turns_wins(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    broad = fake_api.route("agent", "broad")
    narrow = fake_api.route("sub agent", "narrow 1", "narrow 2")
    assert await reply_text(client, ask("a sub agent")) == "broad"  # created first
    assert await reply_text(client, ask("a sub agent")) == "narrow 1"  # broad is played out
    again = fake_api.route("agent", "broad again")  # an equal match appends to the same queue
    assert again is broad and fake_api.routes == [broad, narrow]
    assert await reply_text(client, ask("a sub agent")) == "broad again"
    assert narrow.turns_left == 1 and fake_api.turns_left == 1
    fake_api.assert_clean()


async def test_routes_served_concurrently(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    """Requests of two agents in flight at once each get their own route's turns."""
    per_route = 3
    # every reply holds after its first block until all requests have arrived: all are in flight at once
    everyone_waiting: dict[int, Callable[[], object]] = {0: lambda: len(fake_api.bodies) == 2 * per_route}
    a = fake_api.route("agent A", *[Reply(f"A{i}", hold_after_block=everyone_waiting) for i in range(per_route)])
    b = fake_api.route("agent B", *[Reply(f"B{i}", hold_after_block=everyone_waiting) for i in range(per_route)])
    prompts = ["You are agent A", "You are agent B"] * per_route
    answers = await asyncio.gather(*[reply_text(client, HI, system=p) for p in prompts])
    assert [answer[0] for answer in answers] == [p[-1] for p in prompts]  # every answer from its own route
    assert sorted(answers) == sorted(f"{x}{i}" for x in "AB" for i in range(per_route))
    assert len(a.requests) == len(b.requests) == per_route and fake_api.turns_left == 0
    assert all(system_text(r.body) == "You are agent A" for r in a.requests)
    fake_api.assert_clean()  # no hold expired: the requests really overlapped


def test_routes_served_to_parallel_threads(fake_api: FakeAPI) -> None:
    both_in: dict[int, Callable[[], object]] = {0: lambda: len(fake_api.bodies) == 2}
    fake_api.route("left", Reply("L", hold_after_block=both_in))
    fake_api.route("right", Reply("R", hold_after_block=both_in))
    answers: dict[str, str] = {}

    def call(word: str) -> None:
        data = json.dumps({"model": MODEL, "max_tokens": 5, "messages": ask(word)}).encode()
        with urllib.request.urlopen(urllib.request.Request(fake_api.base_url + "/v1/messages", data=data)) as resp:
            answers[word] = json.load(resp)["content"][0]["text"]

    threads = [threading.Thread(target=call, args=(w,)) for w in ("right", "left")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(DEADLINE)
    assert answers == {"left": "L", "right": "R"}
    fake_api.assert_clean()


async def test_nothing_left_on_a_route_or_default_is_a_violation(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    fake_api.route("alpha", "once")
    assert await reply_text(client, ask("alpha")) == "once"
    with pytest.raises(anthropic.InternalServerError, match="no scripted turn left"):
        await stream(client, ask("alpha"))
    with pytest.raises(anthropic.InternalServerError, match="no scripted turn left"):
        await stream(client, ask("beta"))
    assert fake_api.violations == ["request 1: no scripted turn left (matching routes all played: ['alpha'])",
                                   "request 2: no scripted turn left"]
    assert [r.route for r in fake_api.requests] == ["alpha", None, None]


async def test_a_raising_match_is_a_violation_not_a_crash(fake_api: FakeAPI, client: anthropic.AsyncAnthropic) -> None:
    fake_api.route(lambda body: body["no such key"], "never")
    fake_api.route(lambda body: True, "second lambda")
    assert await reply_text(client, HI) == "second lambda"
    assert [r.name for r in fake_api.routes] == ["<lambda>", "<lambda>#2"]
    assert fake_api.requests[0].route == "<lambda>#2"
    assert fake_api.violations == ["request 0: route '<lambda>': match raised KeyError('no such key')"]


def test_body_text_helpers() -> None:
    body: dict[str, Any] = {
        "system": [{"type": "text", "text": "one"}, {"type": "text", "text": "two", "cache_control": {"type": "ephemeral"}}],
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "hello"}, {"type": "image", "source": {}},
                                         {"type": "text", "text": "world"}]},
            {"role": "assistant", "content": [tool_use("Task", {}, id="toolu_h1"), tool_use("Read", {}, id="toolu_h2")]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_h1", "content": [{"type": "text", "text": "report"}]},
                {"type": "tool_result", "tool_use_id": "toolu_h2", "content": "file body"},
                {"type": "text", "text": "go on"}]},
        ],
    }
    assert system_text(body) == "one\ntwo"
    assert first_user_text(body) == "hello\nworld"
    assert last_user_text(body) == "report\nfile body\ngo on"
    plain = {"system": "sys", "messages": [{"role": "user", "content": "only"}]}
    assert (system_text(plain), first_user_text(plain), last_user_text(plain)) == ("sys", "only", "only")
    for odd in ({}, {"messages": "x", "system": 3}, {"messages": [None, {"role": "user"}]}):
        assert system_text(odd) == first_user_text(odd) == last_user_text(odd) == ""
