"""Continuing an agent with SendMessage: one that has finished starts again with its
conversation intact (and is announced again); one still at work reads the message with
its next request."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.conftest import Project
from tests.fakeapi import Dynamic, Reply, tool_use


def agent_id_in(body: dict[str, Any]) -> str:
    found = re.search(r"agentId: (a[0-9a-f]{16})", json.dumps(body["messages"]))
    assert found, "the agent's id is in the conversation"
    return found.group(1)


def notifications(body: dict[str, Any]) -> list[str]:
    return re.findall(r"<task-notification>.*?</task-notification>",
                      json.dumps(body["messages"][-1]))


def test_a_finished_agent_continues_with_its_context(project: Project) -> None:
    api = project.api
    send_id = "toolu_send_follow_up"

    def follow_up(body: dict[str, Any]) -> Reply:
        assert len(notifications(body)) == 1
        return Reply([tool_use("SendMessage", {"to": agent_id_in(body), "summary": "more",
                                               "message": "FOLLOW-UP: and y?"}, id=send_id)])

    def last(body: dict[str, Any]) -> Reply:
        (note,) = notifications(body)
        assert f"<tool-use-id>{send_id}</tool-use-id>" in note  # announced for the message
        assert "y is 2." in note and "<status>completed</status>" in note
        return Reply("x is 1 and y is 2.")

    api.script(
        Reply([tool_use("Agent", {"description": "find x", "prompt": "WORKER-TASK: find x",
                                  "run_in_background": True})]),
        Reply("Started it."),
        Dynamic(follow_up),
        Reply("Asked it for more."),
        Dynamic(last),
    )
    worker = api.route("WORKER-TASK", Reply("x is 1."), Reply("y is 2."))
    run = project.run("-p", "find x then y", "--output-format", "stream-json", "--verbose")
    assert run.returncode == 0, run.stderr + run.stdout
    api.assert_clean()
    assert [r for r in run.records() if r["type"] == "result"][-1]["result"] == \
        "x is 1 and y is 2."

    # Its second request is its first conversation, then the message as its prompt.
    second = worker.requests[1].body["messages"]
    assert second[0]["content"][0]["text"] == "WORKER-TASK: find x"
    assert second[1]["content"][0]["text"] == "x is 1."
    assert "FOLLOW-UP: and y?" in json.dumps(second[2])
    sent = next(b for body in api.bodies for b in body["messages"][-1]["content"]
                if isinstance(b, dict) and b.get("tool_use_id") == send_id)
    result = json.loads(sent["content"])
    assert result["message"].startswith("Resuming agent")
    assert result["resumedAgentId"] == worker.requests[0].headers["x-claude-code-agent-id"]
    # The stream reports both runs of the background agent, the second for the message.
    records = run.records()
    started = [r for r in records if r.get("subtype") == "task_started"]
    ended = [r for r in records if r.get("subtype") == "task_notification"]
    assert [r["prompt"] for r in started] == ["WORKER-TASK: find x", "FOLLOW-UP: and y?"]
    assert started[1]["tool_use_id"] == send_id and started[0]["is_backgrounded"] is True
    assert [(r["status"], r["tool_use_id"]) for r in ended] == [
        ("completed", started[0]["tool_use_id"]), ("completed", send_id)]
    assert {r["task_id"] for r in started + ended} == {result["resumedAgentId"]}
    # One sidechain holds both runs.
    (sidechain,) = project.config.glob("projects/*/*/subagents/agent-*.jsonl")
    text = sidechain.read_text()
    assert "x is 1." in text and "y is 2." in text and "FOLLOW-UP" in text


def test_a_message_to_a_working_agent_joins_its_next_request(project: Project) -> None:
    api = project.api
    (project.root / "a.txt").write_text("a\n")

    def queued_seen() -> bool:
        return any("Message queued for" in json.dumps(b["messages"][-1]) for b in api.bodies)

    def send(body: dict[str, Any]) -> Reply:
        return Reply([tool_use("SendMessage", {"to": agent_id_in(body),
                                               "message": "ALSO: mention z"})])

    api.script(
        Reply([tool_use("Agent", {"description": "read a", "prompt": "WORKER-TASK: read a",
                                  "run_in_background": True})]),
        Dynamic(send),
        Reply("Told it."),
        Reply("It read a and mentioned z."),
    )
    worker = api.route(
        "WORKER-TASK",
        Reply([tool_use("Read", {"file_path": str(project.root / "a.txt")})],
              hold_after_block={0: queued_seen}),
        Reply("a holds 'a'; and z."))
    run = project.run("-p", "read a", "--output-format", "json")
    assert run.returncode == 0, run.stderr + run.stdout
    assert run.json()["result"] == "It read a and mentioned z."
    assert len(worker.requests) == 2
    last = json.dumps(worker.requests[1].body["messages"][-1])
    assert "ALSO: mention z" in last and "while you were working" in last


def test_a_named_agent_without_a_team_is_reached_by_its_name(project: Project) -> None:
    project.env["CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS"] = "1"  # `name` is in the schema
    api = project.api

    def last(body: dict[str, Any]) -> Reply:
        assert "Resuming agent worker1" in json.dumps(body["messages"])
        (note,) = notifications(body)
        assert "second part done" in note
        return Reply("Both parts are done.")

    api.script(
        Reply([tool_use("Agent", {"description": "part one", "prompt": "NAMED-TASK: part one",
                                  "name": "worker1"})]),
        Reply("Started worker1."),
        Reply([tool_use("SendMessage", {"to": "worker1", "message": "now part two"})]),
        Reply("Asked worker1 for part two."),
        Dynamic(last),
    )
    worker = api.route("NAMED-TASK", Reply("first part done"), Reply("second part done"))
    run = project.run("-p", "two parts", "--output-format", "json")
    assert run.returncode == 0, run.stderr + run.stdout
    assert run.json()["result"] == "Both parts are done."
    assert len(worker.requests) == 2
    assert not (project.config / "teams").exists()  # no team was made
