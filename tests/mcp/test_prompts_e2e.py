"""MCP prompts as slash commands end to end in print mode, against the FastMCP server of
`tests/servers/mcp_server.py`: the prompt's messages are what is sent; a missing
argument sends nothing; UserPromptExpansion hooks hear of it and may block it."""

from __future__ import annotations

import json
from typing import Any

from tests.conftest import Project
from tests.e2e.test_hooks import configure, script
from tests.fakeapi import Reply, text
from tests.mcp.test_print_e2e import config, demo


def sent(body: dict[str, Any]) -> list[dict[str, Any]]:
    return body["messages"][0]["content"]


def texts(body: dict[str, Any]) -> list[str]:
    return [b["text"] for b in sent(body) if b.get("type") == "text"]


def test_a_prompt_typed_as_a_command_sends_its_text(project: Project) -> None:
    project.api.script(Reply([text("reviewed")]))
    run = project.run("-p", "/mcp__demo__review the parser", "--mcp-config",
                      config(project, {"demo": demo()}), "--output-format", "stream-json",
                      "--verbose")
    assert run.returncode == 0, run.stderr
    records = run.records()
    assert records[0]["slash_commands"] == ["mcp__demo__review", "mcp__demo__compare",
                                            "mcp__demo__briefing"]
    [body] = project.api.bodies
    tags, prompt = texts(body)[-2:]
    assert prompt == "Please review the parser carefully."
    assert tags == ("<command-message>mcp__demo__review</command-message>\n"
                    "<command-name>/mcp__demo__review</command-name>\n"
                    "<command-args>the parser</command-args>\n")
    assert records[-1]["result"] == "reviewed"
    project.api.assert_clean()


def test_arguments_fill_in_order_and_the_last_takes_the_rest(project: Project) -> None:
    project.api.script(Reply([text("compared")]), Reply([text("briefed")]))
    mcp = config(project, {"demo": demo()})
    run = project.run("-p", "/mcp__demo__compare apples oranges  and pears", "--mcp-config", mcp)
    assert run.returncode == 0, run.stderr
    assert texts(project.api.bodies[0])[-1] == "Compare apples with oranges, focusing on and pears."
    # a prompt of several messages: text, an image, an embedded resource, the assistant's
    run = project.run("-p", "/mcp__demo__briefing", "--mcp-config", mcp)
    assert run.returncode == 0, run.stderr
    blocks = sent(project.api.bodies[1])
    kinds = [b["type"] for b in blocks]
    assert kinds[-6:] == ["text", "text", "image", "text", "text", "text"]
    words = [b.get("text", "") for b in blocks[-6:]]
    assert "<command-args>" not in words[0]
    assert words[1] == "Here is the briefing."
    assert "note://readme" in words[3] and "the note's text" in words[3]
    assert words[4:] == ["Understood; what next?", "Summarise it."]
    project.api.assert_clean()


def test_a_missing_argument_sends_nothing_and_says_the_usage(project: Project) -> None:
    run = project.run("-p", "/mcp__demo__compare apples", "--mcp-config",
                      config(project, {"demo": demo()}), "--output-format", "json")
    assert run.returncode == 0, run.stderr
    assert project.api.bodies == []
    result = run.json()
    assert result["is_error"] is False and result["num_turns"] == 0
    assert "second" in result["result"]
    assert "Usage: /mcp__demo__compare <first> <second> [focus]" in result["result"]


def test_user_prompt_expansion_hooks_hear_of_it_and_may_block_it(project: Project) -> None:
    seen = project.root / "expansion.json"
    note = script(project.root / "note.sh", f"cat > {seen}\necho 'house style: terse'\n")
    block = script(project.root / "block.sh", "echo 'no comparisons today' >&2\nexit 2\n")
    configure(project, {"UserPromptExpansion": [
        {"matcher": "mcp__demo__review", "hooks": [{"type": "command", "command": note}]},
        {"matcher": "mcp__demo__compare", "hooks": [{"type": "command", "command": block}]}]})
    mcp = config(project, {"demo": demo()})
    project.api.script(Reply([text("ok")]))
    run = project.run("-p", "/mcp__demo__review the parser", "--mcp-config", mcp)
    assert run.returncode == 0, run.stderr
    payload = json.loads(seen.read_text())
    assert {k: payload[k] for k in ("hook_event_name", "expansion_type", "command_name",
                                    "command_args", "command_source", "prompt")} == {
        "hook_event_name": "UserPromptExpansion", "expansion_type": "mcp_prompt",
        "command_name": "mcp__demo__review", "command_args": "the parser",
        "command_source": "mcp", "prompt": "/mcp__demo__review the parser"}
    assert any("house style: terse" in t for t in texts(project.api.bodies[0]))
    run = project.run("-p", "/mcp__demo__compare a b", "--mcp-config", mcp,
                      "--output-format", "json")
    assert run.returncode == 0, run.stderr
    assert len(project.api.bodies) == 1  # nothing more was sent
    assert "no comparisons today" in run.json()["result"]
    project.api.assert_clean()
