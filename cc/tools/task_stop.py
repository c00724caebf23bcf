"""TaskStop (formerly KillShell/KillBash): stop a running background command."""

from __future__ import annotations

from typing import ClassVar

from pydantic import ConfigDict, Field

from cc.tools.base import (
    Tool,
    ToolContext,
    ToolInput,
    ToolResult,
    optional_without_null,
)
from cc.tools.shell.tasks import TASK_TYPE


class TaskStopInput(ToolInput):
    model_config = ConfigDict(json_schema_extra=optional_without_null)

    task_id: str | None = Field(default=None, description="The ID of the task to stop.")
    shell_id: str | None = Field(default=None, description="Deprecated: use task_id.")


class TaskStopTool(Tool):
    name: ClassVar[str] = "TaskStop"
    input_model: ClassVar[type[ToolInput]] = TaskStopInput
    aliases: ClassVar[tuple[str, ...]] = ("KillShell", "KillBash")

    def is_concurrency_safe(self, inp: ToolInput) -> bool:
        return True

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, TaskStopInput)
        if inp.task_id and inp.shell_id and inp.task_id != inp.shell_id:
            return ToolResult.error("Give either task_id or shell_id, not both.")
        task_id = inp.task_id or inp.shell_id
        if not task_id:
            return ToolResult.error("The required parameter `task_id` is missing")
        tasks = ctx.background_tasks()
        task = tasks.get(task_id)
        if task is None:
            return ToolResult.error(f"No task found with ID: {task_id}")
        if not await tasks.stop(task_id):
            return ToolResult.error(f"Task {task_id} is not running (status: {task.status}).")
        tasks.mark_seen(task_id)
        message = f"Successfully stopped task: {task_id} ({task.command})"
        data = {
            "message": message,
            "task_id": task_id,
            "task_type": TASK_TYPE,
            "command": task.command,
        }
        return ToolResult(message, data=data, summary=f"stopped {task_id}")
