"""Sub-agents end to end: `python -m cc -p` against the fake API, each agent scripted on
its own route (matched by the text of its prompt)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import Project
from tests.fakeapi import Reply, first_user_text, system_text, text, tool_use


def agent_call(description: str, prompt: str, **extra: Any) -> dict[str, Any]:
    return tool_use("Agent", {"description": description, "prompt": prompt, **extra})


def sidechains(project: Project) -> list[Path]:
    return sorted(project.config.glob("projects/*/*/subagents/agent-*.jsonl"))


def lines_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_two_agents_in_one_message_both_report(project: Project) -> None:
    (project.root / "a.txt").write_text("alpha\n")
    api = project.api
    api.script(
        Reply([text("Splitting the work."),
               agent_call("Count a", "TASK-A: how many lines has a.txt?"),
               agent_call("Look at b", "TASK-B: is there a b.txt?", subagent_type="Explore")]),
        Reply("Both agents reported: one line, and no b.txt."),
    )
    route_a = api.route("TASK-A", Reply([tool_use("Read", {"file_path": str(project.root / "a.txt")})]),
                        Reply("a.txt has 1 line."))
    route_b = api.route("TASK-B", Reply("There is no b.txt."))
    run = project.run("-p", "check the files", "--output-format", "json")
    assert run.returncode == 0, run.stderr + run.stdout
    assert run.json()["result"] == "Both agents reported: one line, and no b.txt."
    api.assert_clean()

    main_bodies = [r.body for r in api.requests if r.route is None]
    results = main_bodies[1]["messages"][-1]["content"]
    assert [r["type"] for r in results] == ["tool_result", "tool_result"]
    report_a = "".join(b["text"] for b in results[0]["content"])
    report_b = "".join(b["text"] for b in results[1]["content"])
    assert "<tools-used-before-summary>Read</tools-used-before-summary>" in report_a
    assert "  a.txt has 1 line." in report_a and "agentId: a" in report_a
    assert "<usage>subagent_tokens:" in report_a
    assert "  There is no b.txt." in report_b and "agentId" not in report_b  # Explore: one-shot

    # Each sub-agent had its own short system prompt and a filtered tool list.
    body_a, body_b = route_a.requests[0].body, route_b.requests[0].body
    main_tools = {t["name"] for t in main_bodies[0]["tools"]}
    assert "Agent" in main_tools
    tools_a = {t["name"] for t in body_a["tools"]}
    tools_b = {t["name"] for t in body_b["tools"]}
    assert "Agent" not in tools_a and {"Bash", "Read", "Edit", "Write"} <= tools_a
    assert "Agent" not in tools_b and not {"Edit", "Write"} & tools_b and "Read" in tools_b
    assert "general-purpose agent" in system_text(body_a)
    assert "general-purpose agent" not in system_text(main_bodies[0])
    assert first_user_text(body_a).startswith("TASK-A")
    assert len(system_text(body_a)) < len(system_text(main_bodies[0])) / 2

    # Sidechains beside the parent's transcript; the parent's own file holds none of them.
    files = sidechains(project)
    assert len(files) == 2
    for path in files:
        lines = lines_of(path)
        assert lines and all(line["isSidechain"] is True for line in lines)
        agent_id = path.stem.removeprefix("agent-")
        assert all(line["agentId"] == agent_id for line in lines)
        assert lines[0]["parentUuid"] is None
        meta = json.loads(path.with_suffix(".meta.json").read_text())
        assert meta["finished"] is True and meta["requestShape"] == "foreground"
    parent_file = files[0].parent.parent.with_suffix(".jsonl")
    parent_lines = lines_of(parent_file)
    assert not any(line.get("isSidechain") for line in parent_lines)
    session_id = parent_lines[0]["sessionId"]
    assert {lines_of(p)[0]["sessionId"] for p in files} == {session_id}


def test_continue_after_agents_resends_no_sidechain(project: Project) -> None:
    api = project.api
    api.script(Reply([agent_call("Sum", "SUM-TASK: add 2 and 2")]), Reply("It is 4."))
    api.route("SUM-TASK", Reply("4"))
    first = project.run("-p", "what is 2+2, ask an agent")
    assert first.returncode == 0, first.stderr
    api.script(Reply("Yes, 4."))
    again = project.run("-c", "-p", "sure?")
    assert again.returncode == 0, again.stderr
    last = api.requests[-1].body
    assert last["messages"][0]["content"][0]["text"].endswith("what is 2+2, ask an agent")
    sent = json.dumps(last["messages"])
    assert "SUM-TASK: add 2 and 2" in sent  # the parent's own Agent call is kept ...
    roles = [m["role"] for m in last["messages"]]
    assert roles == ["user", "assistant", "user", "assistant", "user"]  # ... and nothing else
    api.assert_clean()


def test_a_denied_call_in_a_subagent_is_reported_not_asked(project: Project) -> None:
    target = project.root / "out.txt"
    api = project.api
    api.script(Reply([agent_call("Write it", "WRITE-TASK: write out.txt")]),
               Reply("The agent could not write."))
    api.route("WRITE-TASK",
              Reply([tool_use("Write", {"file_path": str(target), "content": "x"})]),
              Reply("I was not allowed to write out.txt."))
    run = project.run("-p", "write the file via an agent", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    assert not target.exists()
    sub_result = api.routes[0].requests[1].body["messages"][-1]["content"][0]
    assert sub_result["is_error"] is True
    report = json.dumps(api.requests[-1].body["messages"][-1]["content"])
    assert "Denied without asking" in report and "Write(" in report
    api.assert_clean()


def test_unknown_agent_type_lists_the_known_ones(project: Project) -> None:
    api = project.api
    api.script(Reply([agent_call("x", "y", subagent_type="nope")]), Reply("ok"))
    run = project.run("-p", "go")
    assert run.returncode == 0, run.stderr
    result = api.requests[-1].body["messages"][-1]["content"][0]
    assert result["is_error"] is True
    assert "Agent type 'nope' not found. Available agents: Explore, fork, general-purpose, Plan" \
        in result["content"]
