"""TaskList: every task of the list, one line each."""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from cc.tasks.store import Task
from cc.tools.base import ReadOnlyTool, ToolContext, ToolInput, ToolResult
from cc.tools.task_create import task_store

NO_TASKS = "No tasks found"


class TaskListInput(ToolInput):
    pass


class TaskListTool(ReadOnlyTool):
    name = "TaskList"
    input_model: ClassVar[type[ToolInput]] = TaskListInput

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        tasks = await asyncio.to_thread(task_store(ctx).list)
        done = {t.id for t in tasks if t.status == "completed"}
        rows = [_row(t, [i for i in t.blocked_by if i not in done]) for t in tasks]
        text = "\n".join(_line(row) for row in rows) or NO_TASKS
        count = f"{len(tasks)} task" + ("" if len(tasks) == 1 else "s")
        return ToolResult(text, data={"tasks": rows}, summary=count)


def _row(task: Task, open_blockers: list[str]) -> dict[str, Any]:
    """A task as the list shows it: only the blockers not yet completed count."""
    row: dict[str, Any] = {"id": task.id, "subject": task.subject, "status": task.status}
    if task.owner is not None:
        row["owner"] = task.owner
    return row | {"blockedBy": open_blockers}


def _line(row: dict[str, Any]) -> str:
    """`#2 [pending] Write tests (alice) [blocked by #1]`."""
    line = f"#{row['id']} [{row['status']}] {row['subject']}"
    if "owner" in row:
        line += f" ({row['owner']})"
    if row["blockedBy"]:
        line += " [blocked by " + ", ".join(f"#{i}" for i in row["blockedBy"]) + "]"
    return line
