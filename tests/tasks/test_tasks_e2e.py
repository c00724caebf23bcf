"""The task tools end to end: `python -m cc -p` against the fake API, with real hooks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import Project
from tests.fakeapi import Reply, text, tool_use


def configure_hooks(project: Project, **events: str) -> None:
    """Settings running `events[name]` (a command) on each named hook event."""
    settings = project.root / ".claude" / "settings.json"
    settings.parent.mkdir(exist_ok=True)
    hooks = {event: [{"hooks": [{"type": "command", "command": cmd}]}]
             for event, cmd in events.items()}
    settings.write_text(json.dumps({"hooks": hooks}))


def script(path: Path, body: str) -> str:
    path.write_text("#!/usr/bin/env bash\n" + body)
    path.chmod(0o755)
    return str(path)


def logger(project: Project, name: str) -> str:
    """A hook appending its stdin, one JSON line a run, to `<root>/<name>.jsonl`."""
    out = project.root / f"{name}.jsonl"
    return script(project.root / f"{name}.sh", f'cat >> "{out}"\necho >> "{out}"\n')


def logged(project: Project, name: str) -> list[dict[str, Any]]:
    path = project.root / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def results_of(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The tool results of the request's last (user) message, content as one string."""
    out = []
    for block in body["messages"][-1]["content"]:
        if block.get("type") == "tool_result":
            content = block["content"]
            if isinstance(content, list):
                content = "".join(b.get("text", "") for b in content)
            out.append({"content": content, "is_error": block.get("is_error", False)})
    return out


def test_create_update_complete_and_list(project: Project) -> None:
    configure_hooks(project, TaskCreated=logger(project, "created"),
                    TaskCompleted=logger(project, "completed"))
    project.api.script(
        Reply([text("Planning."),
               tool_use("TaskCreate", {"subject": "Write parser", "description": "Parse a.txt",
                                       "activeForm": "Writing the parser"}),
               tool_use("TaskCreate", {"subject": "Test parser", "description": "Cover it",
                                       "metadata": {"prio": "high"}})]),
        Reply([tool_use("TaskUpdate", {"taskId": "1", "status": "in_progress",
                                       "addBlocks": ["2"]})]),
        Reply([tool_use("TaskUpdate", {"taskId": "1", "status": "completed"})]),
        Reply([tool_use("TaskList", {}), tool_use("TaskGet", {"taskId": "2"})]),
        Reply("Parser written; its tests are next."),
    )
    run = project.run("-p", "write the parser, then test it", "--output-format", "json")
    assert run.returncode == 0, run.stderr + run.stdout
    assert run.json()["result"] == "Parser written; its tests are next."
    project.api.assert_clean()
    session_id = run.json()["session_id"]

    bodies = project.api.bodies
    assert {"TaskCreate", "TaskGet", "TaskList", "TaskUpdate", "TodoWrite"} <= {
        t["name"] for t in bodies[0]["tools"]}
    assert results_of(bodies[1]) == [
        {"content": "Task #1 created successfully: Write parser", "is_error": False},
        {"content": "Task #2 created successfully: Test parser", "is_error": False}]
    assert results_of(bodies[2]) == [
        {"content": "Updated task #1 status, blocks", "is_error": False}]
    assert results_of(bodies[3]) == [{"content": "Updated task #1 status", "is_error": False}]
    assert results_of(bodies[4]) == [
        {"content": "#1 [completed] Write parser\n#2 [pending] Test parser", "is_error": False},
        {"content": "Task #2: Test parser\nStatus: pending\nDescription: Cover it\n"
                    "Blocked by: #1", "is_error": False}]

    folder = project.config / "tasks" / session_id
    assert sorted(p.name for p in folder.iterdir()) == [".lock", "1.json", "2.json"]
    assert json.loads((folder / "1.json").read_text()) == {
        "id": "1", "subject": "Write parser", "description": "Parse a.txt",
        "activeForm": "Writing the parser", "status": "completed", "blocks": ["2"],
        "blockedBy": []}
    assert json.loads((folder / "2.json").read_text()) == {
        "id": "2", "subject": "Test parser", "description": "Cover it", "status": "pending",
        "blocks": [], "blockedBy": ["1"], "metadata": {"prio": "high"}}

    created, completed = logged(project, "created"), logged(project, "completed")
    assert [(e["task_id"], e["task_subject"], e["task_description"]) for e in created] == [
        ("1", "Write parser", "Parse a.txt"), ("2", "Test parser", "Cover it")]
    assert [(e["task_id"], e["task_subject"], e["task_description"]) for e in completed] == [
        ("1", "Write parser", "Parse a.txt")]
    for event, name in ((created[0], "TaskCreated"), (completed[0], "TaskCompleted")):
        assert event["hook_event_name"] == name and event["session_id"] == session_id
        assert event["cwd"] == str(project.root) and event["transcript_path"].endswith(".jsonl")
        assert event["permission_mode"] == "default"

    # The stream records carry the tools' records (tool_use_result).
    project.api.script(Reply([tool_use("TaskUpdate", {"taskId": "2", "status": "deleted"})]),
                       Reply("Dropped it."))
    again = project.run("-c", "-p", "drop the tests", "--output-format", "stream-json",
                        "--verbose")
    assert again.returncode == 0, again.stderr
    records = [r for r in again.records() if r.get("type") == "user" and "tool_use_result" in r]
    assert [r["tool_use_result"] for r in records] == [
        {"success": True, "taskId": "2", "updatedFields": ["deleted"],
         "statusChange": {"from": "pending", "to": "deleted"}}]
    assert sorted(p.name for p in folder.iterdir()) == [".highwatermark", ".lock", "1.json"]
    assert json.loads((folder / "1.json").read_text())["blocks"] == []


def test_exit_2_from_the_task_hooks_undoes_the_change(project: Project) -> None:
    created = script(project.root / "created.sh",
                     'grep -q TICKET- || { echo "subjects need a ticket id" >&2; exit 2; }\n')
    completed = script(project.root / "completed.sh", 'echo "tests still fail" >&2\nexit 2\n')
    configure_hooks(project, TaskCreated=created, TaskCompleted=completed)
    project.env["CLAUDE_CODE_TASK_LIST_ID"] = "team-list"
    project.api.script(
        Reply([tool_use("TaskCreate", {"subject": "Vague", "description": "x"})]),
        Reply([tool_use("TaskCreate", {"subject": "TICKET-7 fix", "description": "y"})]),
        Reply([tool_use("TaskUpdate", {"taskId": "2", "status": "completed"})]),
        Reply("The hooks said no."),
    )
    run = project.run("-p", "plan it")
    assert run.returncode == 0, run.stderr + run.stdout
    project.api.assert_clean()
    bodies = project.api.bodies
    refused = results_of(bodies[1])[0]
    assert refused["is_error"] and "subjects need a ticket id" in refused["content"]
    assert results_of(bodies[2]) == [
        {"content": "Task #2 created successfully: TICKET-7 fix", "is_error": False}]
    not_done = results_of(bodies[3])[0]
    assert not_done["is_error"] and "tests still fail" in not_done["content"]
    assert "not marked completed" in not_done["content"]

    folder = project.config / "tasks" / "team-list"  # the shared list, not the session's
    assert sorted(p.name for p in (project.config / "tasks").iterdir()) == ["team-list"]
    assert sorted(p.name for p in folder.iterdir()) == [".highwatermark", ".lock", "2.json"]
    assert (folder / ".highwatermark").read_text() == "1"  # the undone task's id stays used
    assert json.loads((folder / "2.json").read_text())["status"] == "pending"


def test_a_session_that_never_uses_them_leaves_no_tasks_folder(project: Project) -> None:
    project.api.script(
        Reply([tool_use("TaskList", {})]),
        Reply([tool_use("TodoWrite", {"todos": [
            {"content": "Look", "status": "in_progress", "activeForm": "Looking"}]})]),
        Reply("Nothing to do."))
    run = project.run("-p", "anything to do?")
    assert run.returncode == 0, run.stderr
    assert results_of(project.api.bodies[1]) == [{"content": "No tasks found",
                                                  "is_error": False}]
    assert "exactly one item in_progress" in results_of(project.api.bodies[2])[0]["content"]
    assert not (project.config / "tasks").exists()
    assert not (project.config / "todos").exists()
