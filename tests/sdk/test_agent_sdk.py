"""cc driven by the official Python Agent SDK (`claude-agent-sdk`), unchanged, against the
fake Messages API: `cli_path` is a two-line script that runs `python -m cc`."""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO_ROOT
from tests.fakeapi import FakeAPI, Reply, text, tool_use

sdk = pytest.importorskip("claude_agent_sdk")

from claude_agent_sdk import (  # noqa: E402
    AssistantMessage,
    ClaudeAgentOptions,
    ClaudeSDKClient,
    PermissionResultAllow,
    PermissionResultDeny,
    ResultMessage,
    TextBlock,
    query,
)


def options(tmp_path: Path, api: FakeAPI, **more: Any) -> ClaudeAgentOptions:
    cli = tmp_path / "cc-cli"
    cli.write_text(f"#!/bin/sh\nexec {sys.executable} -m cc \"$@\"\n")
    cli.chmod(0o755)
    project = tmp_path / "project"
    for folder in (project, tmp_path / "config", tmp_path / "home"):
        folder.mkdir(exist_ok=True)
    env = {"ANTHROPIC_BASE_URL": api.base_url, "ANTHROPIC_API_KEY": "test-key",
           "CLAUDE_CONFIG_DIR": str(tmp_path / "config"), "HOME": str(tmp_path / "home"),
           "PYTHONPATH": str(REPO_ROOT), "CC_RETRY_SCALE": "0.001",
           "CC_DISABLE_MEMORY_EXTRACTION": "1"}
    return ClaudeAgentOptions(cli_path=str(cli), cwd=str(project), env=env, **more)


def texts(messages: list[Any]) -> list[str]:
    return [b.text for m in messages if isinstance(m, AssistantMessage)
            for b in m.content if isinstance(b, TextBlock)]


async def test_query_answers_once(tmp_path: Path, fake_api: FakeAPI) -> None:
    fake_api.script(Reply([text("Hello from cc.")]))
    messages = [m async for m in query(prompt="say hello", options=options(tmp_path, fake_api))]
    assert texts(messages) == ["Hello from cc."]
    result = messages[-1]
    assert isinstance(result, ResultMessage) and result.subtype == "success"
    assert result.result == "Hello from cc." and not result.is_error
    assert fake_api.bodies[0]["messages"][0]["content"][0]["text"] == "say hello"
    fake_api.assert_clean()


async def test_a_client_conversation_of_three_turns(tmp_path: Path, fake_api: FakeAPI) -> None:
    fake_api.script(Reply([text("one")]), Reply([text("two")]), Reply([text("three")]))
    async with ClaudeSDKClient(options(tmp_path, fake_api)) as client:
        said = []
        for prompt in ("first", "second", "third"):
            await client.query(prompt)
            said.append([m async for m in client.receive_response()])
    assert [texts(turn) for turn in said] == [["one"], ["two"], ["three"]]
    assert all(isinstance(turn[-1], ResultMessage) for turn in said)
    last = fake_api.bodies[-1]["messages"]
    assert [m["role"] for m in last] == ["user", "assistant", "user", "assistant", "user"]
    assert len({turn[-1].session_id for turn in said}) == 1
    fake_api.assert_clean()


async def test_can_use_tool_allows_one_call_and_denies_another(tmp_path: Path,
                                                               fake_api: FakeAPI) -> None:
    asked: list[str] = []

    async def decide(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        asked.append(tool_input["command"])
        if "allowed" in tool_input["command"]:
            return PermissionResultAllow()
        return PermissionResultDeny(message="not that one")

    fake_api.script(
        Reply([tool_use("Bash", {"command": "touch allowed.txt"}, id="t1"),
               tool_use("Bash", {"command": "touch denied.txt"}, id="t2")]),
        Reply([text("done")]),
    )
    opts = options(tmp_path, fake_api, can_use_tool=decide)
    async with ClaudeSDKClient(opts) as client:
        await client.query("make two files")
        messages = [m async for m in client.receive_response()]
    project = tmp_path / "project"
    assert sorted(asked) == ["touch allowed.txt", "touch denied.txt"]
    assert (project / "allowed.txt").exists() and not (project / "denied.txt").exists()
    results = {b["tool_use_id"]: b for b in fake_api.bodies[1]["messages"][-1]["content"]
               if b.get("type") == "tool_result"}
    assert not results["t1"].get("is_error") and results["t2"]["is_error"] is True
    assert "not that one" in str(results["t2"]["content"])
    assert isinstance(messages[-1], ResultMessage)
    fake_api.assert_clean()


async def test_set_model_and_permission_mode_mid_session(tmp_path: Path,
                                                         fake_api: FakeAPI) -> None:
    target = tmp_path / "project" / "notes.txt"
    fake_api.script(
        Reply([text("first")]),
        Reply([tool_use("Write", {"file_path": str(target), "content": "hi\n"})]),
        Reply([text("written")]),
    )
    async with ClaudeSDKClient(options(tmp_path, fake_api)) as client:
        await client.query("hello")
        [m async for m in client.receive_response()]
        await client.set_model("haiku")
        await client.set_permission_mode("acceptEdits")
        await client.query("write the notes")
        messages = [m async for m in client.receive_response()]
    assert fake_api.bodies[0]["model"] != "claude-haiku-5-5"
    assert fake_api.bodies[1]["model"] == "claude-haiku-5-5"
    assert target.read_text() == "hi\n"  # acceptEdits: written without asking
    assert texts(messages) == ["written"]
    fake_api.assert_clean()


async def test_interrupt_ends_a_slow_turn(tmp_path: Path, fake_api: FakeAPI) -> None:
    interrupted = threading.Event()
    fake_api.script(
        Reply([text("a long answer that "), text("never finishes")],
              hold_after_block={0: interrupted.is_set}),
        Reply([text("after the interrupt")]),
    )
    async with ClaudeSDKClient(options(tmp_path, fake_api, include_partial_messages=True)
                               ) as client:
        await client.query("talk slowly")
        first: list[Any] = []
        async for message in client.receive_response():
            first.append(message)
            if type(message).__name__ == "StreamEvent" and any(
                    getattr(m, "event", {}).get("type") == "content_block_stop"
                    for m in first):
                await client.interrupt()
                interrupted.set()
        await client.query("are you there?")
        second = [m async for m in client.receive_response()]
    assert isinstance(first[-1], ResultMessage) and first[-1].is_error
    assert texts(second) == ["after the interrupt"]
    fake_api.assert_clean()


async def test_a_python_hook_blocks_a_bash_call(tmp_path: Path, fake_api: FakeAPI) -> None:
    from claude_agent_sdk import HookMatcher

    seen: list[dict[str, Any]] = []

    async def guard(input_data: dict[str, Any], tool_use_id: str | None, context: Any
                    ) -> dict[str, Any]:
        seen.append(input_data)
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                       "permissionDecision": "deny",
                                       "permissionDecisionReason": "no shell today"}}

    fake_api.script(
        Reply([tool_use("Bash", {"command": "echo hi > out.txt"}, id="t1")]),
        Reply([text("blocked")]),
    )
    opts = options(tmp_path, fake_api, permission_mode="bypassPermissions",
                   hooks={"PreToolUse": [HookMatcher(matcher="Bash", hooks=[guard])]})
    async with ClaudeSDKClient(opts) as client:
        await client.query("write it")
        messages = [m async for m in client.receive_response()]
    assert [(e["hook_event_name"], e["tool_name"]) for e in seen] == [("PreToolUse", "Bash")]
    assert seen[0]["tool_input"]["command"] == "echo hi > out.txt"
    assert not (tmp_path / "project" / "out.txt").exists()
    [result] = [b for b in fake_api.bodies[1]["messages"][-1]["content"]
                if b.get("type") == "tool_result"]
    assert result["is_error"] is True and "no shell today" in str(result["content"])
    assert texts(messages) == ["blocked"]
    fake_api.assert_clean()


async def test_an_in_process_sdk_mcp_server_tool_is_called(tmp_path: Path,
                                                            fake_api: FakeAPI) -> None:
    from claude_agent_sdk import create_sdk_mcp_server, tool

    calls: list[dict[str, Any]] = []

    @tool("add", "Add two numbers", {"a": int, "b": int})
    async def add(args: dict[str, Any]) -> dict[str, Any]:
        calls.append(args)
        return {"content": [{"type": "text", "text": f"sum={args['a'] + args['b']}"}]}

    server = create_sdk_mcp_server("calc", "1.0.0", tools=[add])
    fake_api.script(
        Reply([tool_use("mcp__calc__add", {"a": 2, "b": 40})]),
        Reply([text("it is 42")]),
    )
    opts = options(tmp_path, fake_api, mcp_servers={"calc": server},
                   allowed_tools=["mcp__calc__add"])
    async with ClaudeSDKClient(opts) as client:
        await client.query("add them")
        messages = [m async for m in client.receive_response()]
    assert calls == [{"a": 2, "b": 40}]
    first = fake_api.bodies[0]
    assert "mcp__calc__add" in [t["name"] for t in first["tools"]]
    [result] = [b for b in fake_api.bodies[1]["messages"][-1]["content"]
                if b.get("type") == "tool_result"]
    assert "sum=42" in str(result["content"]) and not result.get("is_error")
    assert texts(messages) == ["it is 42"]
    fake_api.assert_clean()


async def test_partial_messages_and_resuming_a_session(tmp_path: Path,
                                                       fake_api: FakeAPI) -> None:
    fake_api.script(Reply([text("streamed answer")]), Reply([text("resumed answer")]))
    first = [m async for m in query(prompt="stream it", options=options(
        tmp_path, fake_api, include_partial_messages=True))]
    events = [m.event for m in first if type(m).__name__ == "StreamEvent"]
    assert [e["type"] for e in events][0] == "message_start"
    assert any(e.get("delta", {}).get("text") for e in events
               if e["type"] == "content_block_delta")
    session_id = first[-1].session_id
    second = [m async for m in query(prompt="and again", options=options(
        tmp_path, fake_api, resume=session_id))]
    assert texts(second) == ["resumed answer"] and second[-1].session_id == session_id
    sent = fake_api.bodies[-1]["messages"]
    assert [m["role"] for m in sent] == ["user", "assistant", "user"]
    assert "streamed answer" in str(sent[1]["content"])
    fake_api.assert_clean()


async def test_agents_given_by_the_program_are_offered(tmp_path: Path,
                                                       fake_api: FakeAPI) -> None:
    from claude_agent_sdk import AgentDefinition, SystemMessage

    fake_api.script(Reply([text("ok")]))
    agents = {"reviewer": AgentDefinition(description="Reviews code for bugs",
                                          prompt="You review code.", tools=["Read"])}
    messages = [m async for m in query(prompt="hi", options=options(tmp_path, fake_api,
                                                                    agents=agents))]
    init = next(m for m in messages if isinstance(m, SystemMessage) and m.subtype == "init")
    assert "reviewer" in init.data["agents"]
    agent_tool = next(t for t in fake_api.bodies[0]["tools"] if t["name"] == "Agent")
    assert "Reviews code for bugs" in agent_tool["description"]
    fake_api.assert_clean()


async def test_ask_user_question_is_answered_by_the_program(tmp_path: Path,
                                                            fake_api: FakeAPI) -> None:
    seen: list[str] = []

    async def decide(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        seen.append(name)
        if name == "AskUserQuestion":
            question = tool_input["questions"][0]["question"]
            return PermissionResultAllow(updated_input={**tool_input,
                                                        "answers": {question: "Blue"}})
        return PermissionResultDeny(message="no")

    question = {"question": "Which colour?", "header": "Colour", "multiSelect": False,
                "options": [{"label": "Blue", "description": "calm"},
                            {"label": "Red", "description": "bold"}]}
    fake_api.script(
        Reply([tool_use("AskUserQuestion", {"questions": [question]})]),
        Reply([text("blue it is")]),
    )
    async with ClaudeSDKClient(options(tmp_path, fake_api, can_use_tool=decide)) as client:
        await client.query("pick a colour with me")
        messages = [m async for m in client.receive_response()]
    assert "AskUserQuestion" in [t["name"] for t in fake_api.bodies[0]["tools"]]
    assert seen == ["AskUserQuestion"]
    [result] = [b for b in fake_api.bodies[1]["messages"][-1]["content"]
                if b.get("type") == "tool_result"]
    assert "Blue" in str(result["content"]) and not result.get("is_error")
    assert texts(messages) == ["blue it is"]
    fake_api.assert_clean()


async def test_an_answer_s_permission_updates_apply(tmp_path: Path, fake_api: FakeAPI) -> None:
    from claude_agent_sdk.types import PermissionRuleValue, PermissionUpdate

    asked: list[str] = []

    async def decide(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        asked.append(tool_input["command"])
        rule = PermissionRuleValue(tool_name="Bash", rule_content="touch:*")
        return PermissionResultAllow(updated_permissions=[PermissionUpdate(
            type="addRules", rules=[rule], behavior="allow", destination="session")])

    fake_api.script(
        Reply([tool_use("Bash", {"command": "touch a.txt"})]),
        Reply([tool_use("Bash", {"command": "touch b.txt"})]),
        Reply([text("both")]),
    )
    async with ClaudeSDKClient(options(tmp_path, fake_api, can_use_tool=decide)) as client:
        await client.query("two files")
        [m async for m in client.receive_response()]
    assert asked == ["touch a.txt"]  # the rule the first answer added allowed the second
    assert (tmp_path / "project" / "b.txt").exists()
    fake_api.assert_clean()


async def test_structured_output_through_the_sdk(tmp_path: Path, fake_api: FakeAPI) -> None:
    schema = {"type": "object", "properties": {"answer": {"type": "integer"}},
              "required": ["answer"]}
    fake_api.script(Reply([tool_use("StructuredOutput", {"answer": 42})]), Reply([text("x")]))
    opts = options(tmp_path, fake_api, output_format={"type": "json_schema", "schema": schema})
    messages = [m async for m in query(prompt="the answer?", options=opts)]
    result = messages[-1]
    assert isinstance(result, ResultMessage) and result.structured_output == {"answer": 42}
    fake_api.assert_clean()
