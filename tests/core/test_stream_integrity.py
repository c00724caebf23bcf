"""A model call is used whole or not at all: broken streams, server timing, unknown blocks.

Each fault is played by the fake API over real HTTP and read by the real SDK; the
assertions count the requests, check what ran and what the conversation keeps.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cc.core.events import AssistantEvent, Notice, RetryEvent, TextDelta
from cc.core.query_engine import QueryEngine
from cc.core.retry import MAX_RETRIES, retry_after
from cc.models.content_blocks import OpaqueBlock
from cc.permissions.gate import ModeGate
from cc.tools.bash import BashTool
from tests.core.engines import collect, make_engine, terminal
from tests.fakeapi import (
    CutStream,
    FakeAPI,
    Fault,
    Malformed,
    Reply,
    server_tool_use,
    text,
    tool_use,
    web_search_result,
)


def bash_engine(api: FakeAPI, tmp_path: Path) -> QueryEngine:
    """An engine whose Bash calls run without asking (so a call that runs shows)."""
    engine = make_engine(api, tmp_path, BashTool())
    engine.executor.permissions = ModeGate("bypassPermissions")
    return engine


def touching(marker: Path) -> Reply:
    """Some text, then a Bash call that would leave `marker` behind if it ran."""
    return Reply([text("I will make the file now."),
                  tool_use("Bash", {"command": f"touch {marker}", "description": "make it"})])


# SSE events of `touching()`: message_start, ping, text start, 3 deltas, text stop,
# tool start, its input deltas..., tool stop, message_delta, message_stop.
TOOL_OPEN = 9  # the tool_use block has started and has part of its input
BEFORE_STOP = 13  # every block closed, message_delta sent, message_stop missing


@pytest.mark.parametrize(
    ("after", "how"),
    [
        (5, "fin"), (TOOL_OPEN, "fin"), (TOOL_OPEN, "rst"), (TOOL_OPEN, "clean"),
        (BEFORE_STOP, "clean"), (BEFORE_STOP, "fin"),
    ],
)
async def test_a_broken_stream_is_discarded_and_its_tool_never_runs(
    fake_api: FakeAPI, tmp_path: Path, after: int, how: str
) -> None:
    marker = tmp_path / "made-by-the-broken-stream"
    cut = CutStream(touching(marker), after_events=after, reset=how == "rst",
                    clean_end=how == "clean")
    fake_api.script(cut, Reply("Done, without tools this time."))
    engine = bash_engine(fake_api, tmp_path)
    events = await collect(engine.submit("make the file"))
    assert terminal(events).reason == "completed"
    assert len(fake_api.bodies) == 2
    assert fake_api.bodies[1]["messages"] == fake_api.bodies[0]["messages"]
    assert not marker.exists()
    answers = [e.message for e in events if isinstance(e, AssistantEvent)]
    assert [a.text for a in answers] == ["Done, without tools this time."]
    assert [m.role for m in engine.messages] == ["user", "assistant"]
    kinds = [type(e).__name__ for e in events]
    if "TextDelta" in kinds[: kinds.index("RetryEvent")]:
        assert "StreamDiscarded" in kinds  # what was shown of it is void
    fake_api.assert_clean()


async def test_a_data_line_that_is_not_json_breaks_the_stream(
    fake_api: FakeAPI, tmp_path: Path
) -> None:
    marker = tmp_path / "made"
    fake_api.script(Malformed(touching(marker), after_events=TOOL_OPEN), Reply("clean answer"))
    engine = bash_engine(fake_api, tmp_path)
    events = await collect(engine.submit("go"))
    retries = [e for e in events if isinstance(e, RetryEvent)]
    assert len(retries) == 1 and "broke off" in retries[0].error.message
    assert terminal(events).reason == "completed" and engine.messages[-1].text == "clean answer"
    assert not marker.exists()


async def test_repeated_cuts_fall_back_to_one_request_without_streaming(
    fake_api: FakeAPI, tmp_path: Path
) -> None:
    marker = tmp_path / "made"
    reply = Reply([text("Made it."), tool_use("Bash", {"command": f"touch {marker}"})])
    fake_api.script(CutStream(reply, after_events=7), CutStream(reply, after_events=TOOL_OPEN),
                    reply, Reply("all done"))
    engine = bash_engine(fake_api, tmp_path)
    events = await collect(engine.submit("go"))
    assert [b.get("stream") for b in fake_api.bodies] == [True, True, None, True]
    assert marker.exists()  # the whole (non-streamed) message ran its call, once
    shown = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert shown.endswith("Made it.all done")
    assert terminal(events).reason == "completed"
    fake_api.assert_clean()


async def test_cuts_every_time_give_up_with_one_fallback_and_a_clear_error(
    fake_api: FakeAPI, tmp_path: Path
) -> None:
    marker = tmp_path / "made"
    fake_api.script(*[CutStream(touching(marker), after_events=TOOL_OPEN)] * (MAX_RETRIES + 1))
    engine = bash_engine(fake_api, tmp_path)
    events = await collect(engine.submit("go"))
    end = terminal(events)
    assert end.reason == "api_error"
    assert end.error and fake_api.base_url in end.error and "6 attempts" in end.error
    assert [b.get("stream") for b in fake_api.bodies].count(None) == 1
    assert len(fake_api.bodies) == MAX_RETRIES + 1
    assert not marker.exists()
    assert [m.role for m in engine.messages] == ["user"]  # nothing partial was kept


# --- the server's timing -------------------------------------------------------------


@pytest.mark.parametrize("header", [{"retry-after-ms": "400"}, {"retry-after": "1"}])
async def test_retry_after_sets_the_delay(
    fake_api: FakeAPI, tmp_path: Path, header: dict[str, str]
) -> None:
    # CC_RETRY_SCALE makes our own backoff a few ms: only the header can keep the
    # retry back long enough for the fake (which enforces the header) to accept it.
    fake_api.script(Fault(429, headers=header), Reply("after the wait"))
    engine = make_engine(fake_api, tmp_path)
    events = await collect(engine.submit("hi"))
    retry = next(e for e in events if isinstance(e, RetryEvent))
    assert retry.delay_s == pytest.approx(0.4 if "retry-after-ms" in header else 1.0)
    assert engine.messages[-1].text == "after the wait"
    fake_api.assert_clean()


def test_retry_after_forms() -> None:
    now = 1_800_000_000.0
    assert retry_after({"retry-after": "7"}, now=lambda: now) == 7.0
    assert retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    date = "Fri, 15 Jan 2027 08:00:30 GMT"  # 1_800_000_030
    assert retry_after({"retry-after": date}, now=lambda: 1_800_000_000.0) == pytest.approx(30.0)
    assert retry_after({"retry-after": "soon"}) is None
    assert retry_after({}) is None
    assert retry_after({"retry-after": "-3"}) == 0.0


async def test_a_long_retry_after_is_capped(fake_api: FakeAPI, tmp_path: Path) -> None:
    from cc.core.retry import MAX_SERVER_DELAY_S, classify, stream_with_retries

    delays: list[float] = []

    async def sleep(delay: float) -> None:
        delays.append(delay)

    fake_api.script(Fault(529, headers={"retry-after": "3600"}), Reply("ok"))
    engine = make_engine(fake_api, tmp_path)
    client = engine.client
    from cc.core.client import ModelRequest

    request = ModelRequest(model="claude-test-1", max_tokens=100, system=[],
                           messages=[{"role": "user", "content": "hi"}])
    items = [i async for i in stream_with_retries(lambda: client.stream(request), sleep=sleep)]
    assert delays == [MAX_SERVER_DELAY_S]
    assert any(isinstance(i, AssistantEvent) or getattr(i, "text", "") for i in items)
    assert classify(RuntimeError("x")).retry_after is None


async def test_x_should_retry_false_stops_at_once(fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.script(Fault(529, headers={"x-should-retry": "false"}), Reply("never"))
    engine = make_engine(fake_api, tmp_path)
    events = await collect(engine.submit("hi"))
    assert not any(isinstance(e, RetryEvent) for e in events)
    assert terminal(events).reason == "api_error" and len(fake_api.bodies) == 1


async def test_x_should_retry_true_retries_even_a_409_style_refusal(
    fake_api: FakeAPI, tmp_path: Path
) -> None:
    fake_api.script(Fault(400, message="try again", headers={"x-should-retry": "true"}),
                    Reply("second time lucky"))
    engine = make_engine(fake_api, tmp_path)
    events = await collect(engine.submit("hi"))
    assert terminal(events).ok and engine.messages[-1].text == "second time lucky"


# --- blocks the code does not model --------------------------------------------------


async def test_server_and_unknown_blocks_are_kept_and_sent_back_verbatim(
    fake_api: FakeAPI, tmp_path: Path
) -> None:
    search = server_tool_use("pydantic 3 release date", id="srvtoolu_1")
    found = web_search_result("srvtoolu_1")
    cited = {"type": "text", "text": "It came out in May.", "citations": [
        {"type": "web_search_result_location", "url": "https://example.com/a", "title": "Example",
         "encrypted_index": "Eo==", "cited_text": "May"}]}
    future = {"type": "future_block", "payload": {"n": 1, "none": None}}
    fake_api.script(Reply([text("Searching."), search, found, cited, future]), Reply("second"),
                    Reply([future, text("third")]))
    engine = make_engine(fake_api, tmp_path)
    first = await collect(engine.submit("when did pydantic 3 come out?"))
    assert terminal(first).ok
    await collect(engine.submit("thanks"))
    third = await collect(engine.submit("again"))
    sent = fake_api.bodies[1]["messages"][1]["content"]
    assert sent[1:] == [search, found, cited, future]
    assert [type(b) for b in engine.messages[1].content][1:3] == [OpaqueBlock, OpaqueBlock]
    warnings = [e for e in first + third if isinstance(e, Notice) and e.level == "warning"]
    assert len(warnings) == 1 and "future_block" in warnings[0].text  # once, and only for it
    fake_api.assert_clean()


async def test_unknown_blocks_survive_the_transcript(fake_api: FakeAPI, tmp_path: Path) -> None:
    from cc.session.loader import load_session
    from cc.session.transcript import TranscriptWriter

    future = {"type": "future_block", "payload": [1, None, {"deep": True}]}
    fake_api.script(Reply([text("a"), server_tool_use("q", id="srvtoolu_9"), future]))
    engine = make_engine(fake_api, tmp_path)
    path = tmp_path / "t.jsonl"
    engine.use_transcript(
        TranscriptWriter(path, session_id=engine.session_id, cwd=tmp_path, version="test"))
    await collect(engine.submit("hi"))
    engine.transcript.close()
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    written = [b for line in lines if line.get("type") == "assistant"
               for b in line["message"]["content"]]
    assert future in written
    loaded = load_session(path)
    assert loaded.warnings == []
    assert [b.to_api() for b in loaded.messages[-1].content][-1] == future
