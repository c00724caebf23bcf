"""TaskUpdate: change a task's fields, status or links, or delete it.

Completing a task asks the TaskCompleted hooks first (a block leaves the task as it
was); `status: "deleted"` removes the task and every link to it."""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar, Literal

from pydantic import ConfigDict, Field

from cc.tasks.store import Task, TaskStore, UnknownTask, canonical_id
from cc.tools.base import Tool, ToolContext, ToolInput, ToolResult, optional_without_null
from cc.tools.task_create import Metadata, task_hooks, task_store

#: The fields `updatedFields` names, in the order it names them.
_FIELDS = ("subject", "description", "activeForm", "owner", "status", "blocks", "blockedBy",
           "metadata")


class TaskUpdateInput(ToolInput):
    model_config = ConfigDict(json_schema_extra=optional_without_null)

    taskId: str = Field(description="The ID of the task to change.")  # noqa: N815
    subject: str | None = Field(default=None, description="A new title.")
    description: str | None = Field(default=None, description="A new description.")
    activeForm: str | None = Field(  # noqa: N815
        default=None, description="A new present-continuous form of the title.")
    status: Literal["pending", "in_progress", "completed"] | Literal["deleted"] | None = Field(
        default=None, description="The new status; \"deleted\" removes the task.")
    addBlocks: list[str] | None = Field(  # noqa: N815
        default=None, description="IDs of tasks that cannot start until this one is done.")
    addBlockedBy: list[str] | None = Field(  # noqa: N815
        default=None, description="IDs of tasks that must be done before this one.")
    owner: str | None = Field(default=None, description="Who works on the task.")
    metadata: Metadata | None = Field(
        default=None, description="Keys to merge into the task's metadata; a null value "
        "removes its key.")


class TaskUpdateTool(Tool):
    name = "TaskUpdate"
    input_model: ClassVar[type[ToolInput]] = TaskUpdateInput

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, TaskUpdateInput)
        store = task_store(ctx)
        current = await asyncio.to_thread(store.get, inp.taskId)
        if current is None:
            return _not_found(inp.taskId)
        if inp.status == "deleted":
            return await _delete(store, current)
        task_id = current.id
        links = [*(inp.addBlocks or ()), *(inp.addBlockedBy or ())]
        if any(canonical_id(given) == task_id for given in links):
            return ToolResult.error(f"Task #{task_id} cannot block itself")
        if inp.status == "completed" and current.status != "completed":
            refused = await _completion_refused(ctx, current, inp)
            if refused is not None:
                return refused
        try:
            changed = await asyncio.to_thread(
                store.update, task_id, lambda task: _apply(task, inp),
                add_blocks=inp.addBlocks or (), add_blocked_by=inp.addBlockedBy or ())
        except UnknownTask as exc:
            return ToolResult.error(f"Task #{exc.task_id.removeprefix('#')} not found")
        if changed is None:  # deleted since we looked
            return _not_found(inp.taskId)
        before, after = changed
        fields = _changed_fields(before, after)
        data: dict[str, Any] = {"success": True, "taskId": task_id, "updatedFields": fields}
        if before.status != after.status:
            data["statusChange"] = {"from": before.status, "to": after.status}
        if fields:
            text = f"Updated task #{task_id} " + ", ".join(fields)
        else:
            text = f"No changes to task #{task_id}"
        return ToolResult(text, data=data, summary=text)


def _apply(task: Task, inp: TaskUpdateInput) -> None:
    if inp.subject is not None:
        task.subject = inp.subject
    if inp.description is not None:
        task.description = inp.description
    if inp.activeForm is not None:
        task.active_form = inp.activeForm
    if inp.owner is not None:
        task.owner = inp.owner or None  # "" clears it
    if inp.status is not None and inp.status != "deleted":
        task.status = inp.status
    if inp.metadata is not None:
        merged = dict(task.metadata or {})
        for key, value in inp.metadata.items():
            if value is None:
                merged.pop(key, None)
            else:
                merged[key] = value
        task.metadata = merged if merged or task.metadata is not None else None


def _changed_fields(before: Task, after: Task) -> list[str]:
    old, new = before.to_json(), after.to_json()
    return [name for name in _FIELDS if old.get(name) != new.get(name)]


async def _completion_refused(ctx: ToolContext, current: Task,
                              inp: TaskUpdateInput) -> ToolResult | None:
    hooks = task_hooks(ctx)
    if hooks is None:
        return None
    subject = current.subject if inp.subject is None else inp.subject
    description = current.description if inp.description is None else inp.description
    outcome = await hooks.task_completed(current.id, subject, description)
    if not outcome.blocked:
        return None
    return ToolResult.error(f"Task #{current.id} was not marked completed: a TaskCompleted "
                            f"hook refused it: {outcome.reason or 'no reason given'}")


async def _delete(store: TaskStore, current: Task) -> ToolResult:
    removed = await asyncio.to_thread(store.delete, current.id)
    if removed is None:
        return _not_found(current.id)
    data = {"success": True, "taskId": removed.id, "updatedFields": ["deleted"],
            "statusChange": {"from": removed.status, "to": "deleted"}}
    text = f"Updated task #{removed.id} deleted"
    return ToolResult(text, data=data, summary=text)


def _not_found(task_id: str) -> ToolResult:
    shown = task_id.strip().removeprefix("#")
    data = {"success": False, "taskId": shown, "updatedFields": [], "error": "Task not found"}
    return ToolResult(f"Task #{shown} not found", data=data, summary="Task not found")
