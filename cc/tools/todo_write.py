"""TodoWrite: the conversation's own checklist, replaced whole on every call.

It lives in memory on the tool context (one per conversation, so a sub-agent has its
own) and is never saved: the shared, lasting list is the Task* tools'."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field

from cc.tools.base import Tool, ToolContext, ToolInput, ToolResult, input_schema_of

UPDATED = ("The todo list is updated. Keep exactly one item in_progress while you work, "
           "mark each item completed as soon as it is done, then go on with the next one.")


class Todo(ToolInput):
    content: str = Field(min_length=1, description="What to do, in the imperative.")
    status: Literal["pending", "in_progress", "completed"]
    activeForm: str = Field(  # noqa: N815 - Claude Code's field name
        min_length=1, description="The same in the present continuous, shown while it runs.")


class TodoWriteInput(ToolInput):
    todos: list[Todo] = Field(description="The whole list, as it is now.")


class TodoWriteTool(Tool):
    name = "TodoWrite"
    input_model: ClassVar[type[ToolInput]] = TodoWriteInput
    fixed_definition: ClassVar[bool] = True  # (its schema, inlined, is fixed all the same)

    def is_concurrency_safe(self, inp: ToolInput) -> bool:
        return False  # two lists at once: the last one would win by chance

    def input_schema(self) -> dict[str, Any]:
        return _inlined(input_schema_of(self.input_model))

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, TodoWriteInput)
        old = [dict(t) for t in ctx.todos]
        new = [t.model_dump() for t in inp.todos]
        ctx.todos[:] = new  # in place: each call's context is a shallow copy of the engine's
        done = sum(t["status"] == "completed" for t in new)
        return ToolResult(UPDATED, data={"oldTodos": old, "newTodos": new},
                          summary=f"{done}/{len(new)} done")


def _inlined(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with its `$ref`s replaced by what they name (Claude Code's schemas have
    no `$defs`)."""
    defs = schema.pop("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(v) for v in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return walk(defs[ref.removeprefix("#/$defs/")])
        return {k: walk(v) for k, v in node.items()}

    return walk(schema)
