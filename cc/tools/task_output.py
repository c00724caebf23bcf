"""TaskOutput (formerly BashOutput): a background command's status and its new output."""

from __future__ import annotations

import re
from typing import Any, ClassVar

from pydantic import ConfigDict, Field
from pydantic.json_schema import SkipJsonSchema

from cc.tools.base import (
    ReadOnlyTool,
    ToolContext,
    ToolInput,
    ToolResult,
    optional_without_null,
)
from cc.tools.bash import max_output
from cc.tools.shell.runner import clip
from cc.tools.shell.tasks import TASK_TYPE

MAX_WAIT_MS = 600_000


def _require_task_id(schema: dict[str, Any], *args: Any) -> None:
    optional_without_null(schema, *args)
    schema["required"] = ["task_id"]


class TaskOutputInput(ToolInput):
    model_config = ConfigDict(json_schema_extra=_require_task_id)

    task_id: str | None = Field(default=None, description="The ID of the background task.")
    block: bool = Field(default=True, description="Wait for the task to finish first.")
    timeout: int = Field(
        default=30000, ge=0, le=MAX_WAIT_MS, description="How long to wait at most, in ms."
    )
    #: BashOutput's names, still accepted but not advertised.
    bash_id: SkipJsonSchema[str | None] = None
    filter: SkipJsonSchema[str | None] = None


class TaskOutputTool(ReadOnlyTool):
    name = "TaskOutput"
    input_model: ClassVar[type[ToolInput]] = TaskOutputInput
    aliases: ClassVar[tuple[str, ...]] = ("BashOutput",)

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, TaskOutputInput)
        task_id = inp.task_id or inp.bash_id
        if not task_id:
            return ToolResult.error("The required parameter `task_id` is missing")
        pattern = None
        if inp.filter:
            try:
                pattern = re.compile(inp.filter)
            except re.error as exc:
                return ToolResult.error(f"Invalid filter regex {inp.filter!r}: {exc}")
        tasks = ctx.background_tasks()
        task = tasks.get(task_id)
        if task is None:
            return ToolResult.error(f"No task found with ID: {task_id}")
        finished = task.done.is_set()
        if not finished and inp.block:
            finished = await tasks.wait(task_id, inp.timeout / 1000)
        if finished:
            tasks.mark_seen(task_id)
            retrieval = "success"
        else:
            retrieval = "timeout" if inp.block else "not_ready"
        output = tasks.read_new_output(task_id).rstrip("\n")
        if pattern is not None:
            output = "\n".join(line for line in output.split("\n") if pattern.search(line))
        output = clip(output, max_output())

        lines = [
            f"<retrieval_status>{retrieval}</retrieval_status>",
            f"<task_id>{task.id}</task_id>",
            f"<task_type>{TASK_TYPE}</task_type>",
            f"<status>{task.status}</status>",
        ]
        if task.exit_code is not None:
            lines.append(f"<exit_code>{task.exit_code}</exit_code>")
        shown = f"\n{output}\n" if output else "(No new output)"
        lines.append(f"<output>{shown}</output>")
        data = {
            "retrieval_status": retrieval,
            "task": {
                "task_id": task.id,
                "task_type": TASK_TYPE,
                "status": task.status,
                "description": task.label,
                "output": output,
                "exitCode": task.exit_code,
            },
        }
        summary = task.status
        if task.exit_code is not None:
            summary += f" · exit {task.exit_code}"
        return ToolResult("\n".join(lines), data=data, summary=summary)
