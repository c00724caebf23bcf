"""The before-write stage of the tool pipeline: what Edit, Write and NotebookEdit are
about to change is backed up first; a failed backup does not stop the call."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cc.core.events import Notice
from cc.core.pipeline.executor import ToolExecutor
from cc.models.content_blocks import ToolUseBlock
from cc.permissions.gate import ModeGate
from cc.session.file_history.store import FileHistory
from cc.tools.base import ToolContext
from cc.tools.edit import EditTool
from cc.tools.notebook_edit import NotebookEditTool
from cc.tools.read import ReadTool
from cc.tools.registry import ToolRegistry
from cc.tools.write import WriteTool
from tests.tools.notebooks import code, write_notebook


def executor(cwd: Path, folder: Path) -> ToolExecutor:
    tools = ToolRegistry([ReadTool(), EditTool(), WriteTool(), NotebookEditTool()])
    run = ToolExecutor(tools, ToolContext(cwd=cwd), permissions=ModeGate("bypassPermissions"))
    run.checkpoints = FileHistory(folder, cwd)
    return run


def call(name: str, **inp: Any) -> ToolUseBlock:
    return ToolUseBlock(f"toolu_{name}", name, inp)


async def test_each_file_tool_is_backed_up_before_it_writes(tmp_path: Path) -> None:
    cwd, folder = tmp_path / "proj", tmp_path / "history"
    cwd.mkdir()
    text, book, new = cwd / "a.txt", write_notebook(cwd / "n.ipynb", [code("1")]), cwd / "n.txt"
    text.write_text("one\n")
    original_book = book.read_bytes()
    run = executor(cwd, folder)
    history = run.checkpoints
    assert isinstance(history, FileHistory)
    await history.before_prompt("p1")
    for step in (call("Read", file_path=str(text)), call("Read", file_path=str(book)),
                 call("Edit", file_path=str(text), old_string="one", new_string="two"),
                 call("NotebookEdit", notebook_path=str(book), cell_id="cell-0",
                      new_source="2"),
                 call("Write", file_path="n.txt", content="new\n")):  # relative: from cwd
        result = await run.run(step)
        assert not result.is_error, result.content
    assert sorted(history.snapshots[0].backups) == ["a.txt", "n.ipynb", "n.txt"]
    assert not isinstance(await history.rewind("p1"), str)
    assert text.read_text() == "one\n" and book.read_bytes() == original_book
    assert not new.exists()


async def test_a_backup_that_fails_leaves_the_call_to_run_and_says_so(tmp_path: Path) -> None:
    cwd, blocked = tmp_path / "proj", tmp_path / "history"
    cwd.mkdir()
    blocked.write_text("a file where the backups' folder should be\n")
    (cwd / "a.txt").write_text("one\n")
    run = executor(cwd, blocked)
    assert isinstance(run.checkpoints, FileHistory)
    await run.checkpoints.before_prompt("p1")
    events: list[Any] = []
    await run.run(call("Read", file_path=str(cwd / "a.txt")))
    result = await run.run(call("Edit", file_path=str(cwd / "a.txt"), old_string="one",
                                new_string="two"), emit=events.append)
    assert not result.is_error and (cwd / "a.txt").read_text() == "two\n"
    [notice] = events
    assert isinstance(notice, Notice) and notice.level == "warning"
    assert "cannot be rewound" in notice.text
