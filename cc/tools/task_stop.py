"""TaskStop (formerly KillShell/KillBash): stop a running background command."""

from __future__ import annotations

import json
from typing import ClassVar

from pydantic import ConfigDict, Field

from cc.tools.agent_tasks import TASK_TYPE as AGENT_TASK_TYPE
from cc.tools.agent_tasks import AgentTask, AgentTasks
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
    name = "TaskStop"
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
        agents = ctx.agent_tasks
        if agents is not None and (agent := agents.find(task_id)) is not None:  # id or name
            return await _stop_agent(agents, agent)
        tasks = ctx.background_tasks()
        task = tasks.get(task_id)
        if task is None:
            return ToolResult.error(f"No task found with ID: {task_id}" + _running(agents))
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


async def _stop_agent(agents: AgentTasks, agent: AgentTask) -> ToolResult:
    if not await agents.stop(agent.id):
        return ToolResult.error(f"Task {agent.id} is not running (status: {agent.status}).")
    message = f"Successfully stopped task: {agent.id} ({agent.description})"
    data = {"message": message, "task_id": agent.id, "task_type": AGENT_TASK_TYPE,
            "command": agent.description}
    return ToolResult(json.dumps(data, ensure_ascii=False), data=data,
                      summary=f"stopped {agent.id}")


def _running(agents: AgentTasks | None) -> str:
    running = agents.running if agents is not None else []
    if not running:
        return ""
    return " Background agents running or waiting: " + ", ".join(
        f"{a.id} ({a.description})" for a in running)
