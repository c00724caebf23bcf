"""A named agent of no team (teams on, no TeamCreate): it gets SendMessage, its letter to
"main" reaches the lead's next request while it is still at work, its calls carry its
identity into the hooks, and the lead's SendMessage to its name continues it once it has
finished, its conversation kept. An unnamed agent still gets no SendMessage."""

from __future__ import annotations

import json
from typing import Any

from tests.conftest import Project
from tests.fakeapi import Dynamic, Reply, tool_use
from tests.team.test_identity import log_tool_hooks, records

QUEUED = {"success": True, "message": "Message queued for the main conversation's next turn."}


def tool_names(body: dict[str, Any]) -> list[str]:
    return [t["name"] for t in body["tools"]]


def named_agent(name: str, prompt: str) -> dict[str, Any]:
    return tool_use("Agent", {"description": f"{name} part", "prompt": prompt, "name": name,
                              "run_in_background": True})


def test_a_named_agent_writes_to_main_while_at_work_and_is_continued(project: Project) -> None:
    project.env["CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS"] = "1"
    api = project.api
    letter = tool_use("SendMessage", {"to": "main", "summary": "halfway",
                                      "message": "HALFWAY: a is 1"})

    def lead_has_the_letter() -> bool:
        return any("HALFWAY: a is 1" in json.dumps(r.body["messages"])
                   for r in api.requests if r.route is None)

    def read_letter(body: dict[str, Any]) -> Reply:
        last = json.dumps(body["messages"][-1])
        assert '<agent-message from=\\"worker1\\" summary=\\"halfway\\">' in last
        assert "HALFWAY: a is 1" in last and "grants no permission" in last
        assert "<task-notification>" not in json.dumps(body["messages"])  # still at work
        return Reply("Noted: a is 1.")

    def continue_it(body: dict[str, Any]) -> Reply:
        assert "<task-notification>" in json.dumps(body["messages"][-1])
        return Reply([tool_use("SendMessage", {"to": "worker1", "message": "NEXT: find b"})])

    api.script(
        Reply([named_agent("worker1", "NAMED-TASK: find a, then b")]),
        Reply("Started worker1."),
        Dynamic(read_letter),
        Dynamic(continue_it),
        Reply("Asked worker1 for b."),
        Reply("a is 1 and b is 2."),
    )
    worker = api.route(
        "NAMED-TASK",
        Reply([letter]),
        # Its run cannot end before the lead's request with the letter is in.
        Reply("a is 1.", hold_after_block={0: lead_has_the_letter}),
        Reply("b is 2."),
    )
    run = project.run("-p", "find a and b", "--output-format", "json")
    assert run.returncode == 0, run.stderr + run.stdout
    api.assert_clean()
    assert run.json()["result"] == "a is 1 and b is 2."
    assert len(worker.requests) == 3
    assert "SendMessage" in tool_names(worker.requests[0].body)
    # The letter's result, as Claude Code words it.
    sent = worker.requests[1].body["messages"][-1]["content"][0]
    assert sent["tool_use_id"] == letter["id"] and json.loads(sent["content"]) == QUEUED
    # Continued: its earlier conversation, then the lead's message.
    history = worker.requests[2].body["messages"]
    said = [json.dumps(m) for m in history]
    assert "NAMED-TASK: find a, then b" in said[0]
    assert letter["id"] in said[1] and letter["id"] in said[2] and "a is 1." in said[3]
    assert "NEXT: find b" in said[4] and len(history) == 5
    lead = [r.body for r in api.requests if r.route is None]
    assert "Resuming agent worker1" in json.dumps(lead[4]["messages"][-1])


def test_a_named_agents_calls_carry_its_identity_and_an_unnamed_one_has_none(
        project: Project) -> None:
    project.env["CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS"] = "1"
    api = project.api
    log = log_tool_hooks(project)  # PreToolUse and PostToolUse log their input; echo allowed
    named_echo = tool_use("Bash", {"command": "echo named", "description": "Say named"})
    plain_echo = tool_use("Bash", {"command": "echo plain", "description": "Say plain"})
    letter = tool_use("SendMessage", {"to": "team-lead", "message": "echoed"})
    plain = tool_use("Agent", {"description": "plain part", "prompt": "PLAIN-TASK: echo",
                               "run_in_background": True})
    api.script(Reply([named_agent("worker1", "NAMED-TASK: echo"), plain]),
               Reply("Started both."), *[Reply("Noted.") for _ in range(3)])
    named_route = api.route("NAMED-TASK", Reply([named_echo]), Reply([letter]), Reply("Done."))
    plain_route = api.route("PLAIN-TASK", Reply([plain_echo]), Reply("Done."))
    run = project.run("-p", "echo twice", "--output-format", "json")
    assert run.returncode == 0, run.stderr + run.stdout
    assert "SendMessage" in tool_names(named_route.requests[0].body)
    assert "SendMessage" not in tool_names(plain_route.requests[0].body)
    agent_of = {r.body["messages"][0]["content"][0]["text"].split(":")[0]:
                r.headers["x-claude-code-agent-id"] for r in (named_route.requests[0],
                                                              plain_route.requests[0])}
    logged = records(log)
    named = [r for r in logged if r["tool_use_id"] in (named_echo["id"], letter["id"])]
    assert sorted((r["hook_event_name"], r["tool_name"]) for r in named) == [
        ("PostToolUse", "Bash"), ("PostToolUse", "SendMessage"),
        ("PreToolUse", "Bash"), ("PreToolUse", "SendMessage")]
    for record in named:
        assert record["agent_id"] == agent_of["NAMED-TASK"], record
        assert record["agent_type"] == "general-purpose"
        assert record["teammate_name"] == "worker1" and "team_name" not in record
    unnamed = [r for r in logged if r["tool_use_id"] == plain_echo["id"]]
    assert len(unnamed) == 2
    for record in unnamed:
        assert record["agent_id"] == agent_of["PLAIN-TASK"], record
        assert "teammate_name" not in record and "team_name" not in record
    # Its sidechain lines name it too (no team); the meta file has its name.
    sidechain = next(project.config.glob(
        f"projects/*/*/subagents/agent-{agent_of['NAMED-TASK']}.jsonl"))
    lines = [json.loads(line) for line in sidechain.read_text().splitlines()]
    assert lines and all(x["agentName"] == "worker1" and "teamName" not in x for x in lines)
    meta = json.loads(sidechain.with_suffix(".meta.json").read_text())
    assert meta["name"] == "worker1"
