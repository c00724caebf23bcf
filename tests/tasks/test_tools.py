"""TaskCreate, TaskGet, TaskList and TaskUpdate: Claude Code's texts and records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cc.tasks.store import TaskStore
from cc.tools.base import ToolContext, ToolResult, ToolUnavailable
from cc.tools.registry import ToolRegistry
from cc.tools.task_create import TaskCreateTool
from cc.tools.task_get import TaskGetTool
from cc.tools.task_list import TaskListTool
from cc.tools.task_update import TaskUpdateTool


@pytest.fixture
def ctx(tmp_path: Path) -> ToolContext:
    return ToolContext(cwd=tmp_path, task_list=TaskStore(tmp_path / "tasks", lambda: "s1"))


REGISTRY = ToolRegistry([TaskCreateTool(), TaskGetTool(), TaskListTool(), TaskUpdateTool()])


async def call(ctx: ToolContext, name: str, **raw: Any) -> ToolResult:
    tool = REGISTRY.get(name)
    assert tool is not None
    inp = tool.validate(raw)
    assert not isinstance(inp, str), inp
    return await tool.call(inp, ctx)


def files(ctx: ToolContext) -> dict[str, dict[str, Any]]:
    assert ctx.task_list is not None
    return {p.stem: json.loads(p.read_text()) for p in ctx.task_list.folder.glob("*.json")}


async def test_create(ctx: ToolContext) -> None:
    r = await call(ctx, "TaskCreate", subject="Direct call", description="Call it directly",
                   activeForm="Calling it", metadata={"prio": "high"})
    assert (r.content, r.is_error) == ("Task #1 created successfully: Direct call", False)
    assert r.data == {"task": {"id": "1", "subject": "Direct call",
                               "description": "Call it directly"}}
    r2 = await call(ctx, "TaskCreate", subject="Write tests", description="")
    assert r2.content == "Task #2 created successfully: Write tests"
    assert files(ctx)["1"] == {"id": "1", "subject": "Direct call",
                               "description": "Call it directly", "activeForm": "Calling it",
                               "status": "pending", "blocks": [], "blockedBy": [],
                               "metadata": {"prio": "high"}}


async def test_update_lists_the_changed_fields(ctx: ToolContext) -> None:
    await call(ctx, "TaskCreate", subject="Direct call", description="d1")
    await call(ctx, "TaskCreate", subject="Write tests", description="d2")
    r = await call(ctx, "TaskUpdate", taskId="1", status="in_progress", owner="me",
                   addBlocks=["2"])
    assert (r.content, r.is_error) == ("Updated task #1 owner, status, blocks", False)
    assert r.data == {"success": True, "taskId": "1",
                      "updatedFields": ["owner", "status", "blocks"],
                      "statusChange": {"from": "pending", "to": "in_progress"}}
    on_disk = files(ctx)
    assert on_disk["1"]["blocks"] == ["2"] and on_disk["2"]["blockedBy"] == ["1"]
    assert on_disk["1"]["owner"] == "me" and on_disk["1"]["status"] == "in_progress"

    r = await call(ctx, "TaskUpdate", taskId="2", subject="Write more tests",
                   addBlockedBy=["1"], metadata={"a": 1})
    assert r.content == "Updated task #2 subject, metadata"  # blockedBy was there already
    assert r.data == {"success": True, "taskId": "2", "updatedFields": ["subject", "metadata"]}
    r = await call(ctx, "TaskUpdate", taskId="2", metadata={"a": None, "b": [1]})
    assert files(ctx)["2"]["metadata"] == {"b": [1]}
    r = await call(ctx, "TaskUpdate", taskId="1", status="in_progress")
    assert r.content == "No changes to task #1"
    assert r.data == {"success": True, "taskId": "1", "updatedFields": []}


async def test_update_delete_and_unknown_ids(ctx: ToolContext) -> None:
    for subject in ("A", "B", "C"):
        await call(ctx, "TaskCreate", subject=subject, description="")
    await call(ctx, "TaskUpdate", taskId="1", addBlocks=["2", "3"])
    r = await call(ctx, "TaskUpdate", taskId="2", status="deleted")
    assert (r.content, r.is_error) == ("Updated task #2 deleted", False)
    assert r.data == {"success": True, "taskId": "2", "updatedFields": ["deleted"],
                      "statusChange": {"from": "pending", "to": "deleted"}}
    assert sorted(files(ctx)) == ["1", "3"] and files(ctx)["1"]["blocks"] == ["3"]

    missing = await call(ctx, "TaskUpdate", taskId="2", status="completed")
    assert (missing.content, missing.is_error) == ("Task #2 not found", False)
    assert missing.data == {"success": False, "taskId": "2", "updatedFields": [],
                            "error": "Task not found"}
    bad_link = await call(ctx, "TaskUpdate", taskId="3", addBlockedBy=["9"], status="completed")
    assert bad_link.is_error and "Task #9 not found" in str(bad_link.content)
    itself = await call(ctx, "TaskUpdate", taskId="3", addBlocks=["3"])
    assert itself.is_error and "cannot block itself" in str(itself.content)
    assert files(ctx)["3"]["status"] == "pending"  # neither call changed anything


async def test_get(ctx: ToolContext) -> None:
    await call(ctx, "TaskCreate", subject="Direct call", description="Call it directly")
    await call(ctx, "TaskCreate", subject="Write tests", description="For the call")
    await call(ctx, "TaskUpdate", taskId="1", status="in_progress", owner="me", addBlocks=["2"])
    r = await call(ctx, "TaskGet", taskId="1")
    assert (r.content, r.is_error) == (
        "Task #1: Direct call\nStatus: in_progress\nDescription: Call it directly\nBlocks: #2",
        False)
    assert r.data == {"task": {"id": "1", "subject": "Direct call",
                               "description": "Call it directly", "status": "in_progress",
                               "owner": "me", "blocks": ["2"], "blockedBy": []}}
    r = await call(ctx, "TaskGet", taskId="2")
    assert r.content == "Task #2: Write tests\nStatus: pending\nDescription: For the call\n" \
        "Blocked by: #1"
    nothing = await call(ctx, "TaskGet", taskId="42")
    assert (nothing.content, nothing.is_error, nothing.data) == ("Task not found", False,
                                                                 {"task": None})


async def test_list(ctx: ToolContext) -> None:
    empty = await call(ctx, "TaskList")
    assert (empty.content, empty.data) == ("No tasks found", {"tasks": []})
    await call(ctx, "TaskCreate", subject="Direct call", description="")
    await call(ctx, "TaskCreate", subject="Write tests", description="")
    await call(ctx, "TaskCreate", subject="Ship it", description="")
    await call(ctx, "TaskUpdate", taskId="1", status="in_progress", owner="me", addBlocks=["2"])
    await call(ctx, "TaskUpdate", taskId="3", addBlockedBy=["1", "2"])
    r = await call(ctx, "TaskList")
    assert r.content == ("#1 [in_progress] Direct call (me)\n"
                         "#2 [pending] Write tests [blocked by #1]\n"
                         "#3 [pending] Ship it [blocked by #1, #2]")
    assert r.data == {"tasks": [
        {"id": "1", "subject": "Direct call", "status": "in_progress", "owner": "me",
         "blockedBy": []},
        {"id": "2", "subject": "Write tests", "status": "pending", "blockedBy": ["1"]},
        {"id": "3", "subject": "Ship it", "status": "pending", "blockedBy": ["1", "2"]},
    ]}
    await call(ctx, "TaskUpdate", taskId="1", status="completed")
    r = await call(ctx, "TaskList")  # a completed blocker no longer holds anything up
    assert str(r.content).splitlines()[1:] == ["#2 [pending] Write tests",
                                               "#3 [pending] Ship it [blocked by #2]"]


def test_schemas_match_claude_code() -> None:
    def bare(name: str) -> dict[str, Any]:
        tool = REGISTRY.get(name)
        assert tool is not None and tool.description()
        schema = tool.input_schema()
        for prop in schema["properties"].values():
            assert prop.pop("description")
        return schema

    metadata = {"type": "object", "propertyNames": {"type": "string"}, "additionalProperties": {}}
    assert bare("TaskCreate") == {
        "type": "object",
        "properties": {"subject": {"type": "string"}, "description": {"type": "string"},
                       "activeForm": {"type": "string"}, "metadata": metadata},
        "required": ["subject", "description"], "additionalProperties": False}
    assert bare("TaskGet") == {"type": "object", "properties": {"taskId": {"type": "string"}},
                               "required": ["taskId"], "additionalProperties": False}
    assert bare("TaskList") == {"type": "object", "properties": {},
                                "additionalProperties": False}
    ids = {"type": "array", "items": {"type": "string"}}
    assert bare("TaskUpdate") == {
        "type": "object",
        "properties": {
            "taskId": {"type": "string"}, "subject": {"type": "string"},
            "description": {"type": "string"}, "activeForm": {"type": "string"},
            "status": {"anyOf": [
                {"type": "string", "enum": ["pending", "in_progress", "completed"]},
                {"type": "string", "const": "deleted"}]},
            "addBlocks": ids, "addBlockedBy": ids, "owner": {"type": "string"},
            "metadata": metadata},
        "required": ["taskId"], "additionalProperties": False}


def test_flags_and_bad_input() -> None:
    get, lister = TaskGetTool(), TaskListTool()
    assert get.is_concurrency_safe(get.input_model(taskId="1"))
    assert lister.is_read_only(lister.input_model())
    create = TaskCreateTool()
    assert not create.is_read_only(create.input_model(subject="s", description="d"))
    bad = TaskUpdateTool().validate({"taskId": "1", "status": "done"})
    assert isinstance(bad, str) and "status" in bad
    assert isinstance(TaskCreateTool().validate({"subject": "s"}), str)


async def test_a_context_without_a_list_is_unavailable(tmp_path: Path) -> None:
    with pytest.raises(ToolUnavailable):
        await call(ToolContext(cwd=tmp_path), "TaskList")
