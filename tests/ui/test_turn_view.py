"""A whole turn rendered from a real engine's events (fake API, real SDK), without a terminal."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from io import StringIO
from pathlib import Path

import pytest

from cc.core.client import ModelClient
from cc.core.credentials import Credentials
from cc.core.events import AgentInfo, RequestStart, SubagentEvent, TextDelta, ToolDone, ToolStart
from cc.core.pipeline.executor import ToolExecutor
from cc.core.query_engine import EngineConfig, QueryEngine
from cc.models.content_blocks import ToolUseBlock
from cc.permissions.gate import ModeGate
from cc.prompts.builder import PromptSection
from cc.tools.base import ToolContext, ToolResult
from cc.tools.read import ReadTool
from cc.tools.registry import ToolRegistry
from cc.ui.repl.live import Live, live_fragments
from cc.ui.repl.printer import Printer
from cc.ui.repl.turn_view import TurnView
from tests.fakeapi import FakeAPI, Fault, Reply, text, tool_use

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@pytest.fixture
async def engine(fake_api: FakeAPI, tmp_path: Path) -> AsyncIterator[QueryEngine]:
    registry = ToolRegistry([ReadTool()])
    executor = ToolExecutor(registry, ToolContext(cwd=tmp_path), permissions=ModeGate("default"))
    client = ModelClient(Credentials(api_key="test-key", base_url=fake_api.base_url))
    system = [PromptSection("intro", "You are a test agent.", cacheable=True)]
    engine = QueryEngine(EngineConfig(model="claude-test-1", system=system), client, registry, executor)
    yield engine
    await engine.aclose()


async def run_turn(engine: QueryEngine, tmp_path: Path, prompt: str) -> tuple[str, Live]:
    out = StringIO()
    live = Live()
    view = TurnView(Printer(out=out, width=lambda: 100), live, tmp_path)
    live.begin()
    async for event in engine.submit(prompt):
        await view.handle(event)
    live.end()
    plain = _ANSI.sub("", out.getvalue())
    return "\n".join(line.rstrip() for line in plain.splitlines()), live


async def test_a_turn_with_retry_paragraphs_and_a_tool(
    engine: QueryEngine, fake_api: FakeAPI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    (tmp_path / "a.txt").write_text("one\ntwo")
    fake_api.script(
        Fault(529),
        Reply([text("First paragraph.\n\nSecond paragraph."), tool_use("Read", {"file_path": str(tmp_path / "a.txt")})]),
        Reply("All done."),
    )
    shown, live = await run_turn(engine, tmp_path, "go")
    assert shown == (
        "  ⎿  API Error (529): overloaded error · retrying in 0.0s (attempt 1/5)\n"
        "\n"
        "● First paragraph.\n"
        "\n"
        "  Second paragraph.\n"
        "\n"
        "● Read(a.txt)\n"
        "  ⎿  Read 2 lines\n"
        "\n"
        "● All done."
    )
    assert live.tokens_done > 0 and live.stream == "" and not live.running
    fake_api.assert_clean()


async def test_an_api_error_ends_the_turn_in_one_red_line(
    engine: QueryEngine, fake_api: FakeAPI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    fake_api.script(Fault(400, message="messages: bad request\nsecond line"))
    shown, _ = await run_turn(engine, tmp_path, "go")
    lines = [line for line in shown.splitlines() if line]
    assert len(lines) == 1 and lines[0].startswith("  ⎿  ") and "bad request" in lines[0]


async def test_an_interrupted_turn_keeps_what_streamed_and_names_the_stopped_tool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    out = StringIO()
    live = Live()
    view = TurnView(Printer(out=out, width=lambda: 100), live, tmp_path)
    live.begin()
    await view.handle(TextDelta("Half a sentence, still"))
    await view.handle(ToolStart(ToolUseBlock("t1", "Bash", {"command": "sleep 30"})))
    live.end()  # the turn's task was cancelled: the live area goes, the text must not
    await view.interrupted()
    plain = _ANSI.sub("", out.getvalue())
    shown = "\n".join(line.rstrip() for line in plain.splitlines())
    assert shown == "\n● Half a sentence, still\n\n● Bash(sleep 30)\n  ⎿  Interrupted by user"
    assert live.stream == ""


async def test_blocks_cc_does_not_model_are_shown_generically(
    engine: QueryEngine, fake_api: FakeAPI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.fakeapi import server_tool_use, web_search_result

    monkeypatch.setenv("NO_COLOR", "1")
    fake_api.script(Reply([text("Looking it up."), server_tool_use("rain in Oslo", id="srvtoolu_7"),
                           web_search_result("srvtoolu_7"), {"type": "future_block"},
                           text("It rains.")]))
    shown, _ = await run_turn(engine, tmp_path, "weather?")
    assert shown.strip().splitlines()[:7] == [
        "● Looking it up.",
        "",
        '● server_tool_use · web_search {"query": "rain in Oslo"}',
        "",
        "● web_search_tool_result",
        "",
        "● future_block",
    ]
    assert "It rains." in shown and "does not know ('future_block')" in shown


async def test_sub_agents_show_their_calls_live_and_only_their_summary_is_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    out = StringIO()
    live = Live()
    view = TurnView(Printer(out=out, width=lambda: 100), live, tmp_path)
    live.begin()
    count = ToolUseBlock("t1", "Agent", {"description": "Count the lines", "prompt": "TASK-A"})
    look = ToolUseBlock("t2", "Agent", {"description": "Look for b", "prompt": "TASK-B"})
    info_a = AgentInfo("a1", "general-purpose", "Count the lines", "t1")
    info_b = AgentInfo("a2", "Explore", "Look for b", "t2")
    read = ToolUseBlock("s1", "Read", {"file_path": str(tmp_path / "a.txt")})
    for event in [
        ToolStart(count), ToolStart(look),
        SubagentEvent(info_a, RequestStart("claude-test-1")),
        SubagentEvent(info_b, RequestStart("claude-test-1")),
        SubagentEvent(info_a, TextDelta("Sub-agent thinking aloud.\n\nStill going.")),
        SubagentEvent(info_a, ToolStart(read)),
        SubagentEvent(info_a, ToolDone(read, ToolResult("1\talpha", summary="Read 1 line"))),
    ]:
        await view.handle(event)

    def screen() -> list[str]:
        return "".join(t for _, t in live_fragments(live, 80, 20, now=live.started)).split("\n")

    assert screen()[:4] == ["● Agent(Count the lines)", "  ⎿  Read(a.txt)",
                            "● Agent(Look for b)", "  ⎿  Initializing…"]
    assert out.getvalue() == "" and live.stream == ""  # nothing of theirs printed or streamed

    done = ToolResult([{"type": "text", "text": "report"}], data={"agentId": "a1", "status": "completed"},
                      summary="Done (1 tool use · 1,234 tokens · 3.1s)")
    await view.handle(ToolDone(count, done))
    await view.handle(SubagentEvent(info_a, ToolStart(read)))  # late: its call is over
    assert screen()[:2] == ["● Agent(Look for b)", "  ⎿  Initializing…"]
    assert list(live.agent_calls) == ["t2"]
    plain = _ANSI.sub("", out.getvalue())
    assert plain == "\n● Agent(Count the lines)\n  ⎿  Done (1 tool use · 1,234 tokens · 3.1s)\n"
