"""TaskGet: one task of the task list, whole."""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from pydantic import Field

from cc.tasks.store import Task
from cc.tools.base import ReadOnlyTool, ToolContext, ToolInput, ToolResult
from cc.tools.task_create import task_store


class TaskGetInput(ToolInput):
    taskId: str = Field(  # noqa: N815 - Claude Code's field name
        description="The ID of the task, as TaskCreate or TaskList gave it.")


class TaskGetTool(ReadOnlyTool):
    name = "TaskGet"
    input_model: ClassVar[type[ToolInput]] = TaskGetInput

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, TaskGetInput)
        task = await asyncio.to_thread(task_store(ctx).get, inp.taskId)
        if task is None:
            return ToolResult("Task not found", data={"task": None}, summary="Task not found")
        lines = [f"Task #{task.id}: {task.subject}", f"Status: {task.status}",
                 f"Description: {task.description}"]
        if task.blocked_by:
            lines.append("Blocked by: " + _refs(task.blocked_by))
        if task.blocks:
            lines.append("Blocks: " + _refs(task.blocks))
        return ToolResult("\n".join(lines), data={"task": _shown(task)},
                          summary=f"Task #{task.id} ({task.status})")


def _refs(ids: list[str]) -> str:
    return ", ".join(f"#{i}" for i in ids)


def _shown(task: Task) -> dict[str, Any]:
    out: dict[str, Any] = {"id": task.id, "subject": task.subject,
                           "description": task.description, "status": task.status}
    if task.owner is not None:
        out["owner"] = task.owner
    return out | {"blocks": task.blocks, "blockedBy": task.blocked_by}
