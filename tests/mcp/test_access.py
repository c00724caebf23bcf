"""The session's MCP hub as the resource tools, mentions and slash commands use it,
in-process against real servers (`tests/servers/mcp_server.py`): error paths as
values, prompt arguments, and the REPL's commands."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console

from cc.app.session import Session
from cc.commands.context import CommandContext
from cc.commands.registry import CommandRegistry, dispatch, resolve_input
from cc.core.credentials import Credentials
from cc.input.prepare import prompt_message
from cc.mcp.prompts import PromptArgument, PromptCommand, bind_arguments
from cc.models.content_blocks import ImageBlock, TextBlock
from cc.tools.mcp_access import ResourceProblem
from tests.mcp.test_print_e2e import demo
from tests.sessions import make_session


@pytest.fixture
async def session(tmp_path: Path) -> AsyncIterator[Session]:
    cwd, config = tmp_path / "project", tmp_path / "config"
    cwd.mkdir()
    config.mkdir()
    servers = {"demo": demo(), "tools": demo("--no-resources", name="tools"),
               "broken": demo("--crash", name="broken")}
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": servers}))
    session = make_session(cwd, config, credentials=Credentials(api_key="k"),
                           argv=("-p", "--mcp-config", str(path)))
    await session.open()
    await session.mcp_ready()
    try:
        yield session
    finally:
        await session.close()


def review() -> PromptCommand:
    return PromptCommand("mcp__demo__review", "demo", "review", "",
                         (PromptArgument("topic", required=True),))


def compare() -> PromptCommand:
    return PromptCommand("mcp__demo__compare", "demo", "compare", "", (
        PromptArgument("first", required=True), PromptArgument("second", required=True),
        PromptArgument("focus")))


def test_arguments_split_at_whitespace_and_the_last_takes_the_rest() -> None:
    assert bind_arguments(review(), "  the parser  ") == {"topic": "the parser"}
    assert bind_arguments(compare(), "a b") == {"first": "a", "second": "b"}
    assert bind_arguments(compare(), "a\tb  c   d") == {"first": "a", "second": "b",
                                                         "focus": "c   d"}
    assert bind_arguments(compare(), '"red apples" pears') == {
        "first": '"red', "second": 'apples"', "focus": "pears"}  # quotes are plain text
    none = PromptCommand("mcp__demo__briefing", "demo", "briefing")
    assert bind_arguments(none, "ignored words") == {}
    missing = bind_arguments(compare(), "a")
    assert isinstance(missing, str) and "second" in missing and "first" not in missing.split(
        "Usage")[0]
    assert missing.endswith("Usage: /mcp__demo__compare <first> <second> [focus]")
    both = bind_arguments(compare(), "")
    assert isinstance(both, str) and "the arguments first, second" in both


async def test_what_cannot_be_listed_or_read_is_a_value(session: Session) -> None:
    hub = session.mcp
    assert hub is not None
    assert hub.resource_servers() == ["demo", "tools", "broken"]
    listed = await hub.list_resources()  # every connected server's; a failure hides none
    assert not isinstance(listed, ResourceProblem)
    assert [(r.server, r.uri) for r in listed] == [
        ("demo", "note://readme"), ("demo", "note://picture"), ("demo", "note://archive")]
    cases = {
        "no_server": await hub.list_resources("nobody"),
        "no_resources": await hub.list_resources("tools"),
        "down": await hub.read_resource("broken", "note://readme"),
        "not_found": await hub.read_resource("demo", "note://nope"),
    }
    for kind, got in cases.items():
        assert isinstance(got, ResourceProblem) and got.kind == kind, (kind, got)
    assert "Servers: demo, tools, broken." in cases["no_server"].text
    assert "Unknown resource: note://nope" in cases["not_found"].text
    assert "broken" in cases["down"].text


async def test_mentions_attach_text_and_images_and_say_what_failed(session: Session) -> None:
    message, notices = await prompt_message(
        "see @demo:note://readme, @demo:note://picture and @demo:note://readme; "
        "not @tools:note://x nor user@example.com nor @time:12",
        session.cwd, session.mcp)
    reminders = [b.text for b in message.content if isinstance(b, TextBlock)][1:]
    assert len(reminders) == 2  # the repeated mention is attached once
    assert "the note's text" in reminders[0]
    assert "image/png" in reminders[1]
    assert [b.source["media_type"] for b in message.content if isinstance(b, ImageBlock)] == [
        "image/png"]
    assert notices == ('@tools:note://x was not attached: MCP server "tools" offers no '
                       "resources.",)


async def test_the_repl_offers_the_prompts_as_commands(session: Session) -> None:
    console = Console(file=StringIO(), width=100, color_system=None)
    registry = CommandRegistry.default(session.cwd, session.config_dir, prompts=session.mcp)
    ctx = CommandContext(session.engine, session, console, registry)
    entries = {e.name: e for e in registry.entries()}
    assert entries["mcp__demo__compare"].argument_hint == "<first> <second> [focus]"
    assert "(demo:compare (MCP))" in entries["mcp__demo__compare"].description
    result = await dispatch("/mcp__demo__review the parser", ctx)
    assert result is not None and result.submit is not None
    assert [b.text for b in result.submit.content if isinstance(b, TextBlock)][-1] == (
        "Please review the parser carefully.")
    result = await dispatch("/mcp__demo__compare apples", ctx)
    assert result is not None and result.submit is None
    assert "Usage: /mcp__demo__compare" in console.file.getvalue()  # type: ignore[attr-defined]
    typed = await resolve_input("read @demo:note://readme", ctx)
    assert typed.submit is not None and "the note's text" in typed.submit.content[1].text  # type: ignore[union-attr]


async def test_sub_agents_get_the_resource_tools_as_their_tools_say(session: Session) -> None:
    from cc.core.spec import AgentSpec

    resource_tools = {"ListMcpResourcesTool", "ReadMcpResourceTool", "ReadMcpResourceDirTool"}
    assert resource_tools <= set(session.engine.registry.names)
    every = await session.fork(session.engine, AgentSpec(model="claude-test-1", system=[]))
    only_read = await session.fork(session.engine, AgentSpec(
        model="claude-test-1", system=[], tools=("Read", "ReadMcpResourceTool")))
    try:
        assert resource_tools <= set(every.registry.names)
        assert "mcp__demo__shout" in every.registry.names
        assert set(only_read.registry.names) == {"Read", "ReadMcpResourceTool"}
    finally:
        await every.aclose()
        await only_read.aclose()
