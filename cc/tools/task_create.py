"""TaskCreate: add a task to the shared task list (cc.tasks.store).

The helpers here are shared by the task tools: the store comes from the tool context,
the hooks from the engine the tools run in (none in a bare context)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

from pydantic import ConfigDict, Field, WithJsonSchema

from cc.tools.base import (
    Tool,
    ToolContext,
    ToolInput,
    ToolResult,
    ToolUnavailable,
    optional_without_null,
)

if TYPE_CHECKING:
    from cc.tasks.store import TaskStore
    from cc.tools.services import TaskHooks

#: `metadata` as Claude Code's schema spells it: an object with string keys, any values.
Metadata = Annotated[dict[str, Any], WithJsonSchema(
    {"type": "object", "propertyNames": {"type": "string"}, "additionalProperties": {}})]


class TaskCreateInput(ToolInput):
    model_config = ConfigDict(json_schema_extra=optional_without_null)

    subject: str = Field(description="A short title for the task, in the imperative.")
    description: str = Field(description="What has to be done, and how to tell it is done.")
    activeForm: str | None = Field(  # noqa: N815 - Claude Code's field name
        default=None, description="The task in the present continuous, shown while it is "
        "in progress (e.g. \"Running the tests\").")
    metadata: Metadata | None = Field(default=None,
                                      description="Any data to keep with the task.")


class TaskCreateTool(Tool):
    name = "TaskCreate"
    input_model: ClassVar[type[ToolInput]] = TaskCreateInput

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, TaskCreateInput)
        store = task_store(ctx)
        task = await asyncio.to_thread(store.create, inp.subject, inp.description,
                                       active_form=inp.activeForm, metadata=inp.metadata)
        hooks = task_hooks(ctx)
        if hooks is not None:
            outcome = await hooks.task_created(task.id, task.subject, task.description)
            if outcome.blocked:
                await asyncio.to_thread(store.delete, task.id)
                return ToolResult.error(
                    f"Task not created: a TaskCreated hook refused it: "
                    f"{outcome.reason or 'no reason given'}")
        data = {"task": {"id": task.id, "subject": task.subject,
                         "description": task.description}}
        return ToolResult(f"Task #{task.id} created successfully: {task.subject}", data=data,
                          summary=f"Task #{task.id} created")


def task_store(ctx: ToolContext) -> TaskStore:
    if ctx.task_list is None:
        raise ToolUnavailable("no task list in this context")
    return ctx.task_list


def task_hooks(ctx: ToolContext) -> TaskHooks | None:
    if ctx.engine_ref is None or not ctx.engine_ref.bound:
        return None
    return ctx.engine_ref.get().task_hooks
