"""MCP tools where the rest of cc meets them: deferred behind ToolSearch, hidden by a
bare deny rule, matched by hooks, allowed by tool globs, offered to sub-agents."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Project
from tests.fakeapi import Reply, last_user_text, text, tool_use
from tests.mcp.test_print_e2e import config, demo, results, tool_names


def deferred(body: dict[str, Any]) -> set[str]:
    return {t["name"] for t in body["tools"] if t.get("defer_loading")}


def test_mcp_tools_wait_behind_tool_search_until_selected(project: Project) -> None:
    project.env["ENABLE_TOOL_SEARCH"] = "true"
    project.api.script(
        Reply([tool_use("ToolSearch", {"query": "select:mcp__demo__shout", "max_results": 5})]),
        Reply([tool_use("mcp__demo__shout", {"text": "found"})]),
        Reply([text("done")]),
    )
    run = project.run("-p", "shout", "--mcp-config", config(project, {"demo": demo()}),
                      "--allowedTools", "mcp__demo")
    assert run.returncode == 0, run.stderr
    first, second, third = project.api.bodies
    assert not any(n.startswith("mcp__") for n in tool_names(first))
    assert "mcp__demo__shout" in json.dumps(first["messages"])  # announced by name
    assert "mcp__demo__shout" in deferred(second)
    shout = next(t for t in second["tools"] if t["name"] == "mcp__demo__shout")
    assert shout["description"] == "Echo the text back, in upper case."
    assert shout["input_schema"]["properties"]["text"]["type"] == "string"
    [result] = results(third)
    assert "FOUND" in json.dumps(result)
    project.api.assert_clean()


def test_a_bare_deny_rule_hides_a_server(project: Project) -> None:
    project.api.script(Reply([text("ok")]))
    run = project.run("-p", "hi", "--mcp-config", config(project, {"demo": demo()}),
                      "--disallowedTools", "mcp__demo")
    assert run.returncode == 0, run.stderr
    assert not any(n.startswith("mcp__demo") for n in tool_names(project.api.bodies[0]))
    project.api.assert_clean()


def test_a_tool_rule_allows_one_tool_only(project: Project) -> None:
    project.api.script(
        Reply([tool_use("mcp__demo__shout", {"text": "a"}, id="t1"),
               tool_use("mcp__demo__pid", {}, id="t2")]),
        Reply([text("ok")]),
    )
    run = project.run("-p", "hi", "--mcp-config", config(project, {"demo": demo()}),
                      "--allowedTools", "mcp__demo__shout", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    by_id = {r["tool_use_id"]: r for r in results(project.api.bodies[1])}
    assert not by_id["t1"].get("is_error") and by_id["t2"]["is_error"] is True
    assert [d["tool_name"] for d in run.json()["permission_denials"]] == ["mcp__demo__pid"]
    project.api.assert_clean()


def test_hooks_see_mcp_tool_names(project: Project) -> None:
    seen = project.root / "seen.jsonl"
    hook = project.root / "hook.sh"
    hook.write_text(f"#!/usr/bin/env bash\ncat >> {seen}\necho >> {seen}\n")
    hook.chmod(0o755)
    settings = project.root / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {
        "PreToolUse": [{"matcher": "mcp__demo__.*",
                        "hooks": [{"type": "command", "command": str(hook)}]}],
        "PostToolUse": [{"matcher": "mcp__demo__shout",
                         "hooks": [{"type": "command", "command": str(hook)}]}],
    }}))
    project.api.script(
        Reply([tool_use("mcp__demo__shout", {"text": "hooked"})]),
        Reply([text("ok")]),
    )
    run = project.run("-p", "hi", "--mcp-config", config(project, {"demo": demo()}),
                      "--allowedTools", "mcp__demo")
    assert run.returncode == 0, run.stderr
    events = [json.loads(line) for line in seen.read_text().splitlines() if line.strip()]
    assert [(e["hook_event_name"], e["tool_name"]) for e in events] == [
        ("PreToolUse", "mcp__demo__shout"), ("PostToolUse", "mcp__demo__shout")]
    assert events[0]["tool_input"] == {"text": "hooked"}
    project.api.assert_clean()


def test_a_sub_agent_calls_an_mcp_tool(project: Project) -> None:
    def sub_agent(body: dict[str, Any]) -> bool:
        return "find the shout" in json.dumps(body["messages"][:1])

    project.api.route(sub_agent,
                      Reply([tool_use("mcp__demo__shout", {"text": "deep"})]),
                      Reply([text("the sub-agent heard DEEP")]))
    project.api.script(
        Reply([tool_use("Agent", {"description": "shout", "prompt": "find the shout",
                                  "subagent_type": "general-purpose",
                                  "run_in_background": False})]),
        Reply([text("done")]),
    )
    run = project.run("-p", "delegate", "--mcp-config", config(project, {"demo": demo()}),
                      "--allowedTools", "mcp__demo")
    assert run.returncode == 0, run.stderr
    sub_requests = [r.body for r in project.api.requests if r.path == "/v1/messages"
                    and sub_agent(r.body)]
    assert "mcp__demo__shout" in tool_names(sub_requests[0])
    assert "DEEP" in json.dumps(sub_requests[1]["messages"][-1])
    assert "DEEP" in last_user_text(project.api.bodies[-1]) or "DEEP" in json.dumps(
        project.api.bodies[-1]["messages"][-1])
    project.api.assert_clean()


def test_the_git_server_over_stdio(project: Project, tmp_path: Path) -> None:
    import subprocess

    repo = project.root
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    servers = {"git": {"command": sys.executable, "args": ["-m", "mcp_server_git",
                                                           "--repository", str(repo)]}}
    project.api.script(
        Reply([tool_use("mcp__git__git_status", {"repo_path": str(repo)})]),
        Reply([text("clean")]),
    )
    run = project.run("-p", "status?", "--mcp-config", config(project, servers),
                      "--allowedTools", "mcp__git__git_status")
    assert run.returncode == 0, run.stderr
    [result] = results(project.api.bodies[1])
    assert not result.get("is_error") and "branch" in json.dumps(result).lower()
    project.api.assert_clean()


@pytest.mark.cache_prefix_exempt("the resumed run is given no --mcp-config: its tools change "
                                  "by the user's hand, and the reference to the gone tool is text")
def test_a_loaded_tool_whose_server_is_gone_does_not_break_a_resumed_session(
        project: Project) -> None:
    project.env["ENABLE_TOOL_SEARCH"] = "true"
    project.api.script(
        Reply([tool_use("ToolSearch", {"query": "select:mcp__demo__shout", "max_results": 5})]),
        Reply([text("loaded")]),
    )
    run = project.run("-p", "load it", "--mcp-config", config(project, {"demo": demo()}))
    assert run.returncode == 0, run.stderr
    project.api.script(Reply([text("resumed")]))
    run = project.run("-c", "-p", "and now, without the server?")
    assert run.returncode == 0, run.stderr
    body = project.api.bodies[-1]
    assert "mcp__demo__shout" not in tool_names(body)
    assert "Tool loaded: mcp__demo__shout" in json.dumps(body["messages"])
    project.api.assert_clean()
