"""NotebookEdit: replace, insert or delete one cell of a Jupyter notebook.

The notebook must have been Read in this conversation and not changed since (as for
Edit and Write). The edited notebook is checked against nbformat's schema before it is
written; a notebook that is not valid to begin with is refused, so an edit never leaves
an invalid file behind. The file is written as Claude Code writes it: JSON indented by
one space, every cell's source one string (a final newline is kept if it had one).
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import ConfigDict, Field

from cc.memory.auto_memory import SecretRefused
from cc.tools import file_io
from cc.tools.base import Tool, ToolContext, ToolInput, ToolResult, optional_without_null
from cc.tools.notebook_file import (
    Cell,
    NotebookData,
    find_cell,
    has_ids,
    language_of,
    parse_notebook,
    serialise,
    source_of,
    validity_problem,
)

CellType = Literal["code", "markdown"]
EditMode = Literal["replace", "insert", "delete"]
NEEDS_CELL_TYPE = "Cell type is required when using edit_mode=insert."
NEEDS_CELL_ID = "Cell ID must be specified when not inserting a new cell."


class NotebookEditInput(ToolInput):
    model_config = ConfigDict(json_schema_extra=optional_without_null)

    notebook_path: str = Field(
        description="Absolute path of the Jupyter notebook (.ipynb) to edit.")
    cell_id: str | None = Field(default=None, description=(
        "The cell to replace or delete, or the cell after which to insert (leave it out to "
        "insert at the start). Cells without ids are named cell-N, counting from 0."))
    new_source: str = Field(description="The cell's new source (ignored when deleting).")
    cell_type: CellType | None = Field(default=None, description=(
        "The cell's type. Required to insert; when replacing, changes the cell's type."))
    edit_mode: EditMode | None = Field(default=None, description=(
        "replace (the default), insert or delete."))


@dataclass(frozen=True)
class Applied:
    """What an edit did, for the result the model sees and the tool_use_result."""

    message: str
    edit_mode: EditMode
    cell_id: str
    cell_type: str
    old_source: str | None = None


@dataclass(frozen=True)
class Edited:
    """An edit made: what it did, the notebook's language, its text before and after."""

    applied: Applied
    language: str
    original: str
    updated: str


def new_cell(cell_type: CellType, source: str, cell_id: str | None) -> Cell:
    cell: Cell = {"cell_type": cell_type}
    if cell_id is not None:
        cell["id"] = cell_id
    cell["metadata"] = {}
    if cell_type == "code":
        cell["execution_count"] = None
        cell["outputs"] = []
    cell["source"] = source
    return cell


def _set_type(cell: Cell, cell_type: str) -> None:
    """Give `cell` the fields its (new) type requires and none it forbids."""
    cell["cell_type"] = cell_type
    if cell_type == "code":
        cell.pop("attachments", None)
        cell["execution_count"] = None
        cell["outputs"] = []
    else:
        cell.pop("execution_count", None)
        cell.pop("outputs", None)


def _insert(data: NotebookData, at: int, cell_type: CellType, source: str,
            new_id: Callable[[], str]) -> Applied:
    cells: list[Cell] = data["cells"]
    cell_id: str | None = None
    if has_ids(data):
        taken = {c.get("id") for c in cells}
        cell_id = new_id()
        while cell_id in taken:
            cell_id = new_id()
    cells.insert(at, new_cell(cell_type, source, cell_id))
    ref = cell_id or f"cell-{at}"
    return Applied(f"Inserted cell {ref} with {source}", "insert", ref, cell_type)


def apply_edit(data: NotebookData, inp: NotebookEditInput,
               new_id: Callable[[], str]) -> Applied | str:
    """Make the edit in `data`; or, as a string, why it cannot be made."""
    mode: EditMode = inp.edit_mode or "replace"
    cells: list[Cell] = data["cells"]
    if mode == "insert":
        if inp.cell_type is None:
            return NEEDS_CELL_TYPE
        at = 0
        if inp.cell_id:
            found = find_cell(data, inp.cell_id)
            if isinstance(found, str):
                return found
            at = found + 1
        return _insert(data, at, inp.cell_type, inp.new_source, new_id)
    if not inp.cell_id:
        return NEEDS_CELL_ID
    found = find_cell(data, inp.cell_id, allow_end=mode == "replace")
    if isinstance(found, str):
        return found
    if found == len(cells):  # replacing the cell after the last one adds it
        return _insert(data, found, inp.cell_type or "code", inp.new_source, new_id)
    cell = cells[found]
    old = source_of(cell)
    if mode == "delete":
        del cells[found]
        return Applied(f"Deleted cell {inp.cell_id}", mode, inp.cell_id,
                       str(cell.get("cell_type")), old)
    if inp.cell_type is not None and inp.cell_type != cell.get("cell_type"):
        _set_type(cell, inp.cell_type)
    elif cell.get("cell_type") == "code":
        cell["execution_count"] = None
        cell["outputs"] = []
    cell["source"] = inp.new_source
    return Applied(f"Updated cell {inp.cell_id} with {inp.new_source}", mode, inp.cell_id,
                   str(cell.get("cell_type")), old)


def _new_id() -> str:
    return secrets.token_hex(4)


class NotebookEditTool(Tool):
    name = "NotebookEdit"
    input_model: ClassVar[type[ToolInput]] = NotebookEditInput

    def __init__(self, new_id: Callable[[], str] = _new_id) -> None:
        self._new_id = new_id

    def writes(self, inp: ToolInput) -> tuple[str, ...]:
        assert isinstance(inp, NotebookEditInput)
        return (inp.notebook_path,)

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, NotebookEditInput)
        path = ctx.resolve(inp.notebook_path)
        if path.suffix.lower() != ".ipynb":
            return ToolResult.error(
                f"{path} is not a Jupyter notebook (.ipynb file). Use the Edit tool to "
                "change other files.")
        if inp.edit_mode == "insert" and inp.cell_type is None:
            return ToolResult.error(NEEDS_CELL_TYPE)
        try:
            st = await asyncio.to_thread(os.stat, path)
        except (FileNotFoundError, NotADirectoryError):
            return ToolResult.error(f"File does not exist. Current working directory: {ctx.cwd}")
        except PermissionError:
            return ToolResult.error(f"Permission denied: cannot access {path}.")
        key, problem = await file_io.write_problem(ctx, path, st)
        if problem:
            return ToolResult.error(problem)
        try:
            raw = await asyncio.to_thread(path.read_bytes)
        except PermissionError:
            return ToolResult.error(f"Permission denied: cannot read {path}.")
        edited = await asyncio.to_thread(self._edit, raw, inp)
        if isinstance(edited, str):
            return ToolResult.error(edited)
        try:
            mtime_ns = await asyncio.to_thread(
                file_io.write_file, ctx, path, edited.updated.encode("utf-8"))
        except SecretRefused as e:
            return ToolResult.error(str(e))
        except OSError as e:
            return ToolResult.error(f"Cannot write {path}: {e.strerror or e}.")
        file_io.record_write(ctx, path, mtime_ns, key)
        return self._result(path, inp, edited, ctx.cwd)

    def _edit(self, raw: bytes, inp: NotebookEditInput) -> Edited | str:
        """Blocking: the edit made on the text of `raw`; or why it cannot be made."""
        data = parse_notebook(raw)
        if isinstance(data, str):
            return data
        invalid = validity_problem(data)
        if invalid:
            return (f"The notebook is not valid by nbformat's schema: {invalid}. Repair it "
                    "with Edit or Write first.")
        language = language_of(data)
        applied = apply_edit(data, inp, self._new_id)
        if isinstance(applied, str):
            return applied
        invalid = validity_problem(data)
        if invalid:
            return f"This edit would leave the notebook invalid: {invalid}. Nothing was written."
        original = raw.decode("utf-8-sig")
        return Edited(applied, language, original, serialise(data, original.endswith("\n")))

    @staticmethod
    def _result(path: Path, inp: NotebookEditInput, edited: Edited, cwd: Path) -> ToolResult:
        applied = edited.applied
        data: dict[str, Any] = {"new_source": inp.new_source}
        if applied.old_source is not None:
            data["old_source"] = applied.old_source
        data |= {
            "cell_type": applied.cell_type,
            "language": edited.language,
            "edit_mode": applied.edit_mode,
            "cell_id": applied.cell_id,
            "error": "",
            "notebook_path": str(path),
            "original_file": edited.original,
            "updated_file": edited.updated,
        }
        verb = applied.message.split(" ", 1)[0]
        where = file_io.display_path(path, cwd)
        return ToolResult(applied.message, data=data,
                          summary=f"{verb} cell {applied.cell_id} in {where}")
