"""TodoWrite: the in-memory checklist, its record, and how the REPL shows it."""

from __future__ import annotations

import dataclasses
from io import StringIO
from pathlib import Path

from rich.console import Console

from cc.tools.base import ToolContext
from cc.tools.todo_write import UPDATED, TodoWriteInput, TodoWriteTool
from cc.ui import render


def todo(content: str, status: str) -> dict[str, str]:
    return {"content": content, "status": status, "activeForm": content + "ing"}


FIRST = [todo("Read the test", "in_progress"), todo("Fix it", "pending")]
SECOND = [todo("Read the test", "completed"), todo("Fix it", "in_progress"),
          todo("Run the suite", "pending")]


async def test_each_call_replaces_the_list_and_records_old_and_new(tmp_path: Path) -> None:
    tool, ctx = TodoWriteTool(), ToolContext(cwd=tmp_path)
    first = await tool.call(TodoWriteInput.model_validate({"todos": FIRST}), ctx)
    assert (first.content, first.is_error) == (UPDATED, False)
    assert "exactly one item in_progress" in UPDATED
    assert first.data == {"oldTodos": [], "newTodos": FIRST}
    # The executor hands each call a copy of the context: the list must outlive it.
    copy = dataclasses.replace(ctx)
    second = await tool.call(TodoWriteInput.model_validate({"todos": SECOND}), copy)
    assert second.data == {"oldTodos": FIRST, "newTodos": SECOND}
    assert ctx.todos == SECOND
    assert list(tmp_path.iterdir()) == []  # nothing saved


def test_schema_and_validation() -> None:
    tool = TodoWriteTool()
    schema = tool.input_schema()
    assert "$defs" not in schema and tool.description()
    items = schema["properties"]["todos"]["items"]
    assert items["required"] == ["content", "status", "activeForm"]
    assert items["properties"]["status"] == {"type": "string",
                                             "enum": ["pending", "in_progress", "completed"]}
    assert items["additionalProperties"] is False and schema["required"] == ["todos"]
    for bad in ({"todos": [{"content": "x", "status": "done", "activeForm": "x"}]},
                {"todos": [{"content": "", "status": "pending", "activeForm": "x"}]},
                {"todos": [{"content": "x", "status": "pending"}]}, {}):
        assert isinstance(tool.validate(bad), str), bad


async def test_the_repl_shows_the_new_list(tmp_path: Path) -> None:
    result = await TodoWriteTool().call(TodoWriteInput.model_validate({"todos": SECOND}),
                                        ToolContext(cwd=tmp_path))
    console = Console(file=StringIO(), width=100, color_system=None)
    render.render_tool(console, "TodoWrite", {"todos": SECOND}, result, tmp_path)
    render.render_tool(console, "TodoWrite", {"todos": []}, await TodoWriteTool().call(
        TodoWriteInput(todos=[]), ToolContext(cwd=tmp_path)), tmp_path)
    printed = console.file.getvalue()  # type: ignore[attr-defined]
    shown = "\n".join(line.rstrip() for line in printed.splitlines())
    assert shown == ("● Update Todos\n"
                     "  ⎿  ☒ Read the test\n"
                     "     ◼ Fix it\n"
                     "     ☐ Run the suite\n"
                     "● Update Todos\n"
                     "  ⎿  (no todos)")


def test_the_repl_labels_task_calls_by_subject_and_id(tmp_path: Path) -> None:
    assert render.tool_label("TaskCreate", {"subject": "Fix bug", "description": "long"},
                             tmp_path) == "TaskCreate(Fix bug)"
    assert render.tool_label("TaskUpdate", {"taskId": "3", "status": "completed"},
                             tmp_path) == "TaskUpdate(#3)"
    assert render.tool_label("TaskList", {}, tmp_path) == "TaskList"
