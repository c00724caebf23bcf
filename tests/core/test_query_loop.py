"""The query loop and QueryEngine, in process, against the fake API through the real SDK."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import ClassVar

import pytest

from cc.core.events import (
    AssistantEvent,
    RetryEvent,
    StreamDiscarded,
    TextDelta,
    ThinkingStarted,
    ToolDone,
    ToolStart,
)
from cc.core.query_engine import INTERRUPTED_TEXT
from cc.core.query_loop import CONTINUE_AFTER_MAX_TOKENS
from cc.models.content_blocks import TextBlock, ToolResultBlock
from cc.models.messages import AssistantMessage, UserMessage, normalize_messages_for_api
from cc.permissions.gate import ModeGate
from cc.prompts import load_text
from cc.tools.base import Tool, ToolContext, ToolInput, ToolResult
from cc.tools.shell import BackgroundTasks, ShellSession
from tests.core.engines import collect, make_engine, terminal
from tests.fakeapi import CutStream, FakeAPI, Fault, Reply, StreamError, text, thinking, tool_use
from tests.waiting import DEADLINE, wait_for_async


class WaitInput(ToolInput):
    seconds: float
    label: str = ""


class WaitTool(Tool):
    """A real tool that sleeps, recording in order when each call started and ended.

    With a `barrier`, each call first waits (up to the shared deadline) until that many
    calls have started: calls run one after another would never get past it.
    """

    name: ClassVar[str] = "Wait"
    input_model: ClassVar[type[ToolInput]] = WaitInput
    def __init__(self) -> None:
        self.log: list[tuple[str, str]] = []
        self.safe = True
        self.barrier: asyncio.Barrier | None = None

    def description(self) -> str:
        return "Wait for a number of seconds."

    def is_read_only(self, inp: ToolInput) -> bool:
        return True

    def is_concurrency_safe(self, inp: ToolInput) -> bool:
        return self.safe

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, WaitInput)
        self.log.append(("start", inp.label))
        if self.barrier is not None:
            await asyncio.wait_for(self.barrier.wait(), DEADLINE)
        await asyncio.sleep(inp.seconds)
        self.log.append(("end", inp.label))
        return ToolResult(f"waited {inp.seconds}", summary="waited")


class WriteNoteInput(ToolInput):
    note: str


class WriteNoteTool(Tool):
    """Not read-only: asks permission, which print mode denies."""

    name: ClassVar[str] = "WriteNote"
    input_model: ClassVar[type[ToolInput]] = WriteNoteInput

    def description(self) -> str:
        return "Write a note."

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        raise AssertionError("must not run without permission")


class FailingTool(Tool):
    name: ClassVar[str] = "Explode"
    input_model: ClassVar[type[ToolInput]] = WriteNoteInput

    def description(self) -> str:
        return "Always raises."

    def is_read_only(self, inp: ToolInput) -> bool:
        return True

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        raise RuntimeError("kaboom")


async def test_text_streams_and_turn_completes(fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.script(Reply([text("Hello there, friend.")]))
    engine = make_engine(fake_api, tmp_path)
    events = await collect(engine.submit("hi"))
    deltas = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert deltas == "Hello there, friend."
    assert terminal(events).reason == "completed"
    assert terminal(events).summary.num_turns == 1
    assert [m.role for m in engine.messages] == ["user", "assistant"]
    assert engine.usage.total.output_tokens > 0
    fake_api.assert_clean()


async def test_tool_round_trip_and_results_in_order(fake_api: FakeAPI, tmp_path: Path) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("alpha\n")
    b.write_text("beta\n")
    fake_api.script(
        Reply([text("Reading both."), tool_use("Read", {"file_path": str(a)}),
               tool_use("Read", {"file_path": str(b)})]),
        Reply([text("Both read.")]),
    )
    engine = make_engine(fake_api, tmp_path)
    events = await collect(engine.submit("read a and b"))
    assert terminal(events).reason == "completed"
    summary = terminal(events).summary
    assert summary is not None and summary.num_turns == 2 and summary.tool_uses == 2
    bodies_tokens = sum(m.usage["input_tokens"] + m.usage["output_tokens"]
                        for m in engine.messages if isinstance(m, AssistantMessage))
    assert summary.total_tokens == bodies_tokens > 0
    assert summary.session_id == engine.session_id and len(engine.denials) == 0
    results = engine.messages[2]
    assert isinstance(results, UserMessage)
    contents = [blk.content for blk in results.content if isinstance(blk, ToolResultBlock)]
    assert contents == ["1\talpha\n2\t", "1\tbeta\n2\t"]
    fake_api.assert_clean()


async def test_invalid_input_and_unknown_tool_reach_the_model(
    fake_api: FakeAPI, tmp_path: Path
) -> None:
    fake_api.script(
        Reply([tool_use("Read", {"path": "x"}), tool_use("Nope", {})]),
        Reply([text("ok")]),
    )
    engine = make_engine(fake_api, tmp_path)
    await collect(engine.submit("go"))
    sent = fake_api.bodies[1]["messages"][2]["content"]
    assert sent[0]["is_error"] is True
    assert sent[0]["content"].startswith("<tool_use_error>InputValidationError: Read failed")
    assert "`file_path` is missing" in sent[0]["content"]
    assert "`path`" in sent[0]["content"]
    assert sent[1]["content"] == "<tool_use_error>Error: No such tool available: Nope</tool_use_error>"
    fake_api.assert_clean()


async def test_tool_exception_becomes_error_result(fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.script(Reply([tool_use("Explode", {"note": "x"})]), Reply([text("saw it")]))
    engine = make_engine(fake_api, tmp_path, FailingTool())
    events = await collect(engine.submit("go"))
    assert terminal(events).reason == "completed"
    result = fake_api.bodies[1]["messages"][2]["content"][0]
    assert result["is_error"] is True
    assert "RuntimeError: kaboom" in result["content"]


async def test_permission_denied_without_anyone_to_ask(fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.script(Reply([tool_use("WriteNote", {"note": "hi"})]), Reply([text("denied")]))
    engine = make_engine(fake_api, tmp_path, WriteNoteTool())
    await collect(engine.submit("write"))
    result = fake_api.bodies[1]["messages"][2]["content"][0]
    assert result["is_error"] is True
    assert "not granted" in result["content"]
    assert [d.tool_name for d in engine.permission_denials] == ["WriteNote"]
    assert engine.permission_denials[0].tool_input == {"note": "hi"}


async def test_max_tokens_raises_cap_then_asks_to_continue(
    fake_api: FakeAPI, tmp_path: Path
) -> None:
    fake_api.script(
        Reply([text("part one")], stop_reason="max_tokens"),
        Reply([text("part one, longer")], stop_reason="max_tokens"),
        Reply([text(" and the end.")]),
    )
    # (a configured cap, CLAUDE_CODE_MAX_OUTPUT_TOKENS, is raised; unconfigured, a request
    # asks for the model's whole cap at once)
    engine = make_engine(fake_api, tmp_path, max_output_tokens=16_384)
    events = await collect(engine.submit("write a lot"))
    first, second, third = fake_api.bodies
    assert first["max_tokens"] == 16_384
    assert second["max_tokens"] == 32_000  # the unknown model's ceiling caps 65,536
    assert second["messages"] == first["messages"]  # the cut response was discarded
    assert third["messages"][-1]["content"][0]["text"] == load_text(CONTINUE_AFTER_MAX_TOKENS).strip()
    assert any(isinstance(e, StreamDiscarded) for e in events)
    end = terminal(events)
    assert end.reason == "completed"
    assert end.summary.num_turns == 1  # recoveries are not turns
    fake_api.assert_clean()


async def test_max_tokens_recovery_stops_after_three(fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.script(*[Reply([text(f"chunk {i}")], stop_reason="max_tokens") for i in range(5)])
    engine = make_engine(fake_api, tmp_path, max_output_tokens=16_384)
    events = await collect(engine.submit("write forever"))
    assert len(fake_api.bodies) == 5  # 1 escalation + 1 original + 3 continuations
    end = terminal(events)
    assert end.stop_reason == "max_tokens" and end.reason == "model_error" and not end.ok
    assert end.error and "output token limit" in end.error
    assert fake_api.turns_left == 0


async def test_retry_is_not_a_turn_and_notifies(fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.script(
        Fault(429),
        StreamError(Reply([text("x")]), after_events=3),
        Reply([text("finally")]),
    )
    engine = make_engine(fake_api, tmp_path)
    events = await collect(engine.submit("hi"))
    retries = [e for e in events if isinstance(e, RetryEvent)]
    assert [r.attempt for r in retries] == [1, 2]
    assert retries[0].error.kind == "rate_limit"
    assert retries[1].error.kind == "overloaded"
    assert terminal(events).summary.num_turns == 1
    assert [m.role for m in engine.messages] == ["user", "assistant"]


async def test_cut_stream_discards_partial_message(fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.script(CutStream(Reply([text("lost words here")]), after_events=5), Reply("kept"))
    engine = make_engine(fake_api, tmp_path)
    events = await collect(engine.submit("hi"))
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("StreamDiscarded") < kinds.index("RetryEvent")
    final = [e for e in events if isinstance(e, AssistantEvent)]
    assert len(final) == 1 and final[0].message.text == "kept"


async def test_fatal_errors_end_the_turn(fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.script(Fault(403, message="no access"))
    engine = make_engine(fake_api, tmp_path)
    end = terminal(await collect(engine.submit("hi")))
    assert end.reason == "api_error"
    assert end.error_kind == "authentication_failed"
    assert "no access" in (end.error or "")
    fake_api.script(Fault(413))
    end = terminal(await collect(engine.submit("again")))
    assert end.reason == "prompt_too_long"
    # The conversation is still valid for the next request.
    fake_api.script(Reply("fine"))
    assert terminal(await collect(engine.submit("third"))).reason == "completed"
    fake_api.assert_clean()


async def test_max_turns(fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.script(
        Reply([tool_use("Wait", {"seconds": 0})]),
        Reply([tool_use("Wait", {"seconds": 0})]),
    )
    engine = make_engine(fake_api, tmp_path, WaitTool(), max_turns=2)
    end = terminal(await collect(engine.submit("loop")))
    assert end.reason == "max_turns"
    assert end.summary.num_turns == 3
    assert len(fake_api.bodies) == 2


async def test_thinking_is_announced_not_shown(fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.script(Reply([thinking("secret reasoning", signature="s1"), text("answer")]))
    engine = make_engine(fake_api, tmp_path, thinking_budget=4000)
    events = await collect(engine.submit("think"))
    assert any(isinstance(e, ThinkingStarted) for e in events)
    shown = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert "secret" not in shown
    assert fake_api.bodies[0]["thinking"]["budget_tokens"] == 4000


async def test_tools_start_while_the_model_still_streams(
    fake_api: FakeAPI, tmp_path: Path
) -> None:
    wait = WaitTool()
    # The call is whole once the next block begins; it runs while that block streams.
    fake_api.script(
        # the message goes on only once the tool has run to its end
        Reply([tool_use("Wait", {"seconds": 0, "label": "first"}), text("still talking"),
               text("and talking")],
              hold_after_block={1: lambda: ("end", "first") in wait.log}),
        Reply("done"),
    )
    engine = make_engine(fake_api, tmp_path, wait)
    seen_done_before_message: list[bool] = []
    async for event in engine.submit("go"):
        if isinstance(event, AssistantEvent):
            seen_done_before_message.append(bool(wait.log) and wait.log[-1][0] == "end")
    assert seen_done_before_message == [True, True]  # it finished before the message did
    fake_api.assert_clean()  # the hold ended because the tool had run, not by expiry


async def test_safe_tools_run_in_parallel_unsafe_in_order(
    fake_api: FakeAPI, tmp_path: Path
) -> None:
    wait = WaitTool()
    wait.barrier = asyncio.Barrier(3)  # passed only when all three run at once
    calls = [tool_use("Wait", {"seconds": 0, "label": f"s{i}"}) for i in range(3)]
    fake_api.script(Reply(calls), Reply("done"))
    engine = make_engine(fake_api, tmp_path, wait)
    await collect(engine.submit("parallel"))
    assert [kind for kind, _ in wait.log] == ["start"] * 3 + ["end"] * 3
    results = fake_api.bodies[1]["messages"][-1]["content"]
    assert [r.get("is_error", False) for r in results] == [False] * 3

    wait.barrier = None
    wait.safe = False
    wait.log.clear()
    calls = [tool_use("Wait", {"seconds": 0.1, "label": f"u{i}"}) for i in range(3)]
    fake_api.script(Reply(calls), Reply("done"))
    await collect(engine.submit("serial"))
    order = wait.log
    assert order == [("start", "u0"), ("end", "u0"), ("start", "u1"), ("end", "u1"),
                     ("start", "u2"), ("end", "u2")]
    fake_api.assert_clean()


async def test_interrupt_during_tools_leaves_a_valid_conversation(
    fake_api: FakeAPI, tmp_path: Path
) -> None:
    fake_api.script(Reply([tool_use("Wait", {"seconds": 30})]))
    wait = WaitTool()
    engine = make_engine(fake_api, tmp_path, wait)
    task = asyncio.create_task(collect(engine.submit("slow")))
    # The read-only call starts as its block completes, maybe before the message ends:
    # wait for both (an interrupt before the end keeps only the text shown; see below).
    await wait_for_async(lambda: wait.log and len(engine.messages) == 2,
                         what="the tool starting, its message whole")
    task.cancel()  # what Esc does to the running turn
    with pytest.raises(asyncio.CancelledError):
        await task
    roles = [m.role for m in engine.messages]
    assert roles == ["user", "assistant", "user", "user"]
    results = engine.messages[2]
    assert isinstance(results, UserMessage)
    block = results.content[0]
    assert isinstance(block, ToolResultBlock) and block.is_error
    last = engine.messages[3]
    assert isinstance(last, UserMessage) and isinstance(last.content[0], TextBlock)
    assert last.content[0].text == INTERRUPTED_TEXT
    fake_api.script(Reply("ready"))
    end = terminal(await collect(engine.submit("next")))
    assert end.reason == "completed"
    fake_api.assert_clean()


async def test_interrupt_during_streaming(fake_api: FakeAPI, tmp_path: Path) -> None:
    # the first text block arrives, then the stream stalls until the test ends
    fake_api.script(Reply([text("a slow answer"), text("that keeps going")],
                          hold_after_block={0: lambda: False}))
    engine = make_engine(fake_api, tmp_path)
    streamed = asyncio.Event()
    shown: list[str] = []

    async def drive() -> None:
        async for event in engine.submit("hi"):
            if isinstance(event, TextDelta):
                shown.append(event.text)
                if "".join(shown) == "a slow answer":
                    streamed.set()

    task = asyncio.create_task(drive())
    await asyncio.wait_for(streamed.wait(), DEADLINE)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # What was shown stays in the conversation, marked as cut short, then the marker.
    kept = engine.messages[1]
    assert isinstance(kept, AssistantMessage) and kept.aborted and kept.text == "a slow answer"
    api = normalize_messages_for_api(engine.messages)
    assert [m["role"] for m in api] == ["user", "assistant", "user"]
    assert api[2]["content"][-1]["text"] == INTERRUPTED_TEXT
    fake_api.script(Reply("ok"))
    assert terminal(await collect(engine.submit("again"))).reason == "completed"
    fake_api.assert_clean()


async def test_results_follow_tool_use_order_not_finish_order(
    fake_api: FakeAPI, tmp_path: Path
) -> None:
    fake_api.script(
        Reply([tool_use("Wait", {"seconds": 0.3, "label": "slow"}),
               tool_use("Wait", {"seconds": 0.0, "label": "fast"})]),
        Reply("done"),
    )
    engine = make_engine(fake_api, tmp_path, WaitTool())
    events = await collect(engine.submit("go"))
    done = [e.tool_use.input["label"] for e in events if isinstance(e, ToolDone)]
    assert done == ["slow", "fast"]


async def test_bash_output_streams_as_progress(fake_api: FakeAPI, tmp_path: Path) -> None:
    from cc.core.events import ToolProgress
    from cc.tools.bash import BashTool

    # line2 comes only once the test has seen line1 as progress: progress given only at
    # the end would hang the command until its timeout
    go = tmp_path / "go"
    command = f"echo line1; until [ -f {go} ]; do sleep 0.01; done; echo line2; echo line3"
    bash = {"command": command, "timeout": int(DEADLINE * 1000)}
    fake_api.script(Reply([tool_use("Bash", bash)]), Reply("done"))
    engine = make_engine(fake_api, tmp_path, BashTool())
    shell = ShellSession(tmp_path)
    engine.executor.ctx.shell = shell
    engine.executor.ctx.tasks = BackgroundTasks(shell.tasks_dir)
    engine.executor.permissions = ModeGate("bypassPermissions")
    seen: list[str] = []
    async for event in engine.submit("count"):
        if isinstance(event, ToolProgress):
            seen.append(event.text)
            go.touch()
    assert seen[:3] == ["line1", "line2", "line3"]
    sent = fake_api.bodies[1]["messages"][-1]["content"][0]["content"]
    assert sent == "line1\nline2\nline3"


async def test_a_tool_call_cut_by_the_output_cap_never_runs(
    fake_api: FakeAPI, tmp_path: Path
) -> None:
    wait = WaitTool()
    wait.safe = False  # a call that changes things: held until the message ends
    cut_reply = Reply([tool_use("Wait", {"seconds": 0, "label": "whole"}),
                       tool_use("Wait", {"seconds": 0, "label": "cut short", "x": 1})],
                      stop_reason="max_tokens", cut_input_at=37)
    fake_api.script(cut_reply, cut_reply, Reply("done"))
    engine = make_engine(fake_api, tmp_path, wait, max_output_tokens=16_384)
    events = await collect(engine.submit("go"))
    assert terminal(events).reason == "completed"
    first, second, third = fake_api.bodies
    assert second["max_tokens"] > first["max_tokens"]  # the cap is raised first...
    assert second["messages"] == first["messages"]  # ...with the cut answer discarded
    # Then the whole call runs, once; the cut one stays in the conversation, answered
    # with an error, and never runs.
    assert [label for kind, label in wait.log if kind == "start"] == ["whole"]
    calls = third["messages"][1]["content"]
    assert [b["input"].get("label") for b in calls] == ["whole", "cut short"]
    assert "x" not in calls[1]["input"]  # what arrived, not more
    results = third["messages"][2]["content"]
    assert [r["tool_use_id"] for r in results] == [calls[0]["id"], calls[1]["id"]]
    assert results[0].get("is_error") is not True
    assert results[1]["is_error"] is True
    assert "cut off by the output token limit" in results[1]["content"]
    assert '"label": "cut short"' in results[1]["content"]
    fake_api.assert_clean()


async def test_a_cut_tool_call_every_time_ends_as_an_error(
    fake_api: FakeAPI, tmp_path: Path
) -> None:
    wait = WaitTool()
    cut = Reply([tool_use("Wait", {"seconds": 0, "label": "too long"})], stop_reason="max_tokens",
                cut_input_at=20)
    fake_api.script(*[cut] * 5)
    engine = make_engine(fake_api, tmp_path, wait, max_output_tokens=16_384)
    events = await collect(engine.submit("go"))
    end = terminal(events)
    assert len(fake_api.bodies) == 5  # 1 escalation + 1 original + 3 recoveries
    assert end.reason == "malformed_tool_use_exhausted" and not end.ok
    assert end.error and "output token limit" in end.error
    assert wait.log == []
    last = normalize_messages_for_api(engine.messages)
    assert last[-1]["content"][0]["is_error"] is True  # the conversation stays valid


async def test_closing_the_turn_early_stops_its_tools(fake_api: FakeAPI, tmp_path: Path) -> None:
    wait = WaitTool()
    fake_api.script(Reply([tool_use("Wait", {"seconds": 30, "label": "slow"})]))
    engine = make_engine(fake_api, tmp_path, wait)
    turn = engine.submit("slow")
    async for event in turn:
        if isinstance(event, ToolStart):
            break
    await turn.aclose()  # a UI that stops listening
    assert [kind for kind, _ in wait.log] == ["start"]  # cancelled, never finished
    api = normalize_messages_for_api(engine.messages)
    assert api[-1]["role"] == "user"
    assert api[-1]["content"][0]["type"] == "tool_result"
