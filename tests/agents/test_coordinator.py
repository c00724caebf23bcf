"""Coordinator mode (CLAUDE_CODE_COORDINATOR_MODE=1): the main agent only delegates; its
workers run in the background with every tool; a failed worker is replaced by a new one,
and a finished one is continued with SendMessage."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.conftest import Project
from tests.fakeapi import Dynamic, Fault, Reply, system_text, tool_use

DELEGATION = {"Agent", "SendMessage", "TaskStop", "TaskCreate", "TaskGet", "TaskList",
              "TaskUpdate"}


def last_notes(body: dict[str, Any]) -> list[str]:
    return re.findall(r"<task-notification>.*?</task-notification>",
                      json.dumps(body["messages"][-1]))


def test_a_coordinator_replaces_a_failed_worker_and_continues_the_next(
        project: Project) -> None:
    project.env["CLAUDE_CODE_COORDINATOR_MODE"] = "1"
    (project.root / "bug.py").write_text("x = 1 / 0\n")
    api = project.api
    follow_up = "toolu_follow_up"

    def replace(body: dict[str, Any]) -> Reply:
        (note,) = last_notes(body)
        assert "<status>failed</status>" in note and "worker one broke" in note
        return Reply([tool_use("Agent", {"description": "fix the bug, again",
                                         "prompt": "WORKER-TWO: fix bug.py; the first worker "
                                                   "failed before it started"})])

    def continue_it(body: dict[str, Any]) -> Reply:
        (note,) = last_notes(body)
        assert "<status>completed</status>" in note and "bug.py fixed" in note
        worker = re.search(r"<task-id>(a[0-9a-f]{16})</task-id>", note)
        assert worker
        return Reply([tool_use("SendMessage", {"to": worker.group(1), "summary": "a test",
                                               "message": "FOLLOW-UP: add a test"},
                               id=follow_up)])

    def report(body: dict[str, Any]) -> Reply:
        (note,) = last_notes(body)
        assert f"<tool-use-id>{follow_up}</tool-use-id>" in note and "test added" in note
        return Reply("bug.py is fixed and has a test.")

    api.script(
        Reply([tool_use("Agent", {"description": "fix the bug",
                                  "prompt": "WORKER-ONE: fix bug.py"})]),
        Reply("A worker is on it."),
        Dynamic(replace),
        Reply("A new worker is on it."),
        Dynamic(continue_it),
        Reply("Asked it for a test."),
        Dynamic(report),
    )
    api.route("WORKER-ONE", Fault(400, message="worker one broke"))
    two = api.route("WORKER-TWO",
                    Reply([tool_use("Read", {"file_path": str(project.root / "bug.py")})]),
                    Reply("bug.py fixed."),
                    Reply("test added."))
    run = project.run("-p", "fix the bug in bug.py", "--output-format", "stream-json",
                      "--verbose")
    assert run.returncode == 0, run.stderr + run.stdout
    api.assert_clean()
    assert [r for r in run.records() if r["type"] == "result"][-1]["result"] == \
        "bug.py is fixed and has a test."

    main = [r.body for r in api.requests if r.route is None]
    assert all({t["name"] for t in body["tools"]} == DELEGATION for body in main)
    assert "Coordinator mode" in system_text(main[0])
    # The Agent calls asked for no background run; they ran in the background all the same.
    launched = json.dumps(main[1]["messages"][-1])
    assert "Async agent launched successfully." in launched
    worker_tools = {t["name"] for t in two.requests[0].body["tools"]}
    assert {"Read", "Bash", "Edit", "Write", "Grep", "Glob"} <= worker_tools
    assert "Agent" not in worker_tools and "Coordinator mode" not in system_text(
        two.requests[0].body)
    assert "FOLLOW-UP: add a test" in json.dumps(two.requests[2].body["messages"][-1])
    # The stream follows the workers: three runs started, one call, three ends.
    records = run.records()
    kinds = [r["subtype"] for r in records if str(r.get("subtype", "")).startswith("task_")]
    assert kinds.count("task_started") == 3 and kinds.count("task_notification") == 3
    (progress,) = [r for r in records if r.get("subtype") == "task_progress"]
    assert progress["last_tool_name"] == "Read" and progress["usage"]["tool_uses"] == 1
    statuses = [r["status"] for r in records if r.get("subtype") == "task_notification"]
    assert statuses == ["failed", "completed", "completed"]


def test_without_the_switch_the_main_agent_keeps_its_tools(project: Project) -> None:
    api = project.api
    api.script(Reply("hello"))
    run = project.run("-p", "hi", "--output-format", "json")
    assert run.returncode == 0, run.stderr + run.stdout
    tools = {t["name"] for t in api.bodies[0]["tools"]}
    assert "Bash" in tools and "Coordinator mode" not in system_text(api.bodies[0])
