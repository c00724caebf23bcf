"""NotebookEdit on real notebooks: each edit mode, cell-N names, errors, and a notebook
that nbformat still finds valid after every edit."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from nbformat import v4

from cc.tools.base import FileReadRecord, ToolContext, ToolResult
from cc.tools.notebook_edit import NotebookEditInput, NotebookEditTool
from tests.tools.conftest import NOT_READ, read_first
from tests.tools.notebooks import code, load, markdown, write_notebook

#: NotebookEdit's input schema in Claude Code 2.1.328 (descriptions aside).
CLAUDE_CODE_SCHEMA = {
    "type": "object",
    "properties": {
        "notebook_path": {"type": "string"},
        "cell_id": {"type": "string"},
        "new_source": {"type": "string"},
        "cell_type": {"type": "string", "enum": ["code", "markdown"]},
        "edit_mode": {"type": "string", "enum": ["replace", "insert", "delete"]},
    },
    "required": ["notebook_path", "new_source"],
    "additionalProperties": False,
}


def ids(*values: str) -> Iterator[str]:
    return iter(values)


async def edit(ctx: ToolContext, path: Path, tool: NotebookEditTool | None = None,
               **inp: Any) -> ToolResult:
    inp.setdefault("new_source", "")
    model = NotebookEditInput(notebook_path=str(path), **inp)
    return await (tool or NotebookEditTool()).call(model, ctx)


def sources(path: Path) -> list[tuple[str | None, str, str]]:
    """(id, type, source) of each cell on disk; every source must be one string."""
    out = []
    for cell in load(path)["cells"]:
        assert isinstance(cell["source"], str)
        out.append((cell.get("id"), cell["cell_type"], cell["source"]))
    return out


@pytest.fixture
async def nb(tmp_path: Path, ctx: ToolContext) -> Path:
    """A read notebook: a code cell with output, a markdown cell, a code cell."""
    ran = v4.new_output("stream", name="stdout", text="1\n")
    path = write_notebook(tmp_path / "work.ipynb", [
        code("print(1)", "c1", [ran], count=1),
        markdown("# Title\nsome text", "c2"),
        code("x = 2", "c3"),
    ])
    await read_first(ctx, path)
    return path


# --- the three modes -------------------------------------------------------------------------


async def test_replace(nb: Path, ctx: ToolContext) -> None:
    original = nb.read_text()
    r = await edit(ctx, nb, cell_id="c1", new_source="print(2)")
    assert not r.is_error, r.content
    assert r.content == "Updated cell c1 with print(2)"
    updated = nb.read_text()
    assert r.data == {
        "new_source": "print(2)", "old_source": "print(1)", "cell_type": "code",
        "language": "python", "edit_mode": "replace", "cell_id": "c1", "error": "",
        "notebook_path": str(nb), "original_file": original, "updated_file": updated,
    }
    assert sources(nb) == [("c1", "code", "print(2)"), ("c2", "markdown", "# Title\nsome text"),
                           ("c3", "code", "x = 2")]
    first = load(nb)["cells"][0]
    assert first["outputs"] == [] and first["execution_count"] is None  # they were print(1)'s


async def test_written_with_indent_1_and_sources_as_strings(nb: Path, ctx: ToolContext) -> None:
    assert isinstance(json.loads(nb.read_text())["cells"][1]["source"], list)  # nbformat's way
    await edit(ctx, nb, cell_id="c3", new_source="y = 'é'")
    text = nb.read_text(encoding="utf-8")
    data = json.loads(text)
    assert text == json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    assert '"source": "# Title\\nsome text"' in text and "'é'" in text
    assert list(data) == ["cells", "metadata", "nbformat", "nbformat_minor"]  # order kept


async def test_a_file_without_a_final_newline_keeps_none(nb: Path, ctx: ToolContext) -> None:
    nb.write_text(nb.read_text().rstrip("\n"))
    await read_first(ctx, nb)
    assert not (await edit(ctx, nb, cell_id="c3", new_source="y")).is_error
    assert not nb.read_text().endswith("\n")


async def test_insert_after_a_cell(nb: Path, ctx: ToolContext) -> None:
    tool = NotebookEditTool(new_id=ids("0badcafe").__next__)
    r = await edit(ctx, nb, tool, cell_id="c1", new_source="## Part 2", cell_type="markdown",
                   edit_mode="insert")
    assert r.content == "Inserted cell 0badcafe with ## Part 2"
    assert "old_source" not in r.data
    assert (r.data["cell_id"], r.data["cell_type"], r.data["edit_mode"]) == (
        "0badcafe", "markdown", "insert")
    assert [s[0] for s in sources(nb)] == ["c1", "0badcafe", "c2", "c3"]
    assert load(nb)["cells"][1] == {"cell_type": "markdown", "id": "0badcafe", "metadata": {},
                                    "source": "## Part 2"}


async def test_insert_at_the_start_without_cell_id(nb: Path, ctx: ToolContext) -> None:
    r = await edit(ctx, nb, new_source="import os", cell_type="code", edit_mode="insert")
    new_id = r.data["cell_id"]
    assert re.fullmatch(r"[0-9a-f]{8}", new_id)
    assert r.content == f"Inserted cell {new_id} with import os"
    assert sources(nb)[0] == (new_id, "code", "import os")
    assert load(nb)["cells"][0]["outputs"] == []


async def test_a_new_id_is_never_one_the_notebook_has(nb: Path, ctx: ToolContext) -> None:
    tool = NotebookEditTool(new_id=ids("c2", "c3", "abcd1234").__next__)
    r = await edit(ctx, nb, tool, cell_id="c3", new_source="z", cell_type="code",
                   edit_mode="insert")
    assert r.data["cell_id"] == "abcd1234"


async def test_delete(nb: Path, ctx: ToolContext) -> None:
    r = await edit(ctx, nb, cell_id="c2", edit_mode="delete")
    assert r.content == "Deleted cell c2"
    assert (r.data["old_source"], r.data["cell_type"]) == ("# Title\nsome text", "markdown")
    assert [s[0] for s in sources(nb)] == ["c1", "c3"]


async def test_edits_follow_one_another_without_a_new_read(nb: Path, ctx: ToolContext) -> None:
    r = await edit(ctx, nb, cell_id="c3", new_source="b", cell_type="code", edit_mode="insert")
    new_id = r.data["cell_id"]
    assert not (await edit(ctx, nb, cell_id=new_id, new_source="bb")).is_error
    assert not (await edit(ctx, nb, cell_id="c1", edit_mode="delete")).is_error
    assert sources(nb) == [("c2", "markdown", "# Title\nsome text"), ("c3", "code", "x = 2"),
                           (new_id, "code", "bb")]


async def test_replace_can_change_the_cell_type(nb: Path, ctx: ToolContext) -> None:
    r = await edit(ctx, nb, cell_id="c1", new_source="Now prose", cell_type="markdown")
    assert r.data["cell_type"] == "markdown"
    cell = load(nb)["cells"][0]
    assert cell == {"cell_type": "markdown", "id": "c1", "metadata": {}, "source": "Now prose"}
    await edit(ctx, nb, cell_id="c2", new_source="print(3)", cell_type="code")
    cell = load(nb)["cells"][1]
    assert (cell["cell_type"], cell["outputs"], cell["execution_count"]) == ("code", [], None)


# --- notebooks whose cells have no ids (nbformat < 4.5) ---------------------------------------


async def test_cells_without_ids_are_named_cell_n(tmp_path: Path, ctx: ToolContext) -> None:
    nb = write_notebook(tmp_path / "old.ipynb", [markdown("# Old"), code("x = 1")], minor=4)
    await read_first(ctx, nb)
    r = await edit(ctx, nb, cell_id="cell-1", new_source="x = 2")
    assert r.content == "Updated cell cell-1 with x = 2"
    r = await edit(ctx, nb, cell_id="cell-0", new_source="y = 1", cell_type="code",
                   edit_mode="insert")
    assert r.content == "Inserted cell cell-1 with y = 1"  # no id: its place names it
    assert sources(nb) == [(None, "markdown", "# Old"), (None, "code", "y = 1"),
                           (None, "code", "x = 2")]
    assert load(nb)["nbformat_minor"] == 4
    r = await edit(ctx, nb, cell_id="cell-0", edit_mode="delete")
    assert r.content == "Deleted cell cell-0"
    assert [s[2] for s in sources(nb)] == ["y = 1", "x = 2"]


async def test_replacing_the_cell_after_the_last_adds_one(nb: Path, ctx: ToolContext) -> None:
    tool = NotebookEditTool(new_id=ids("feedf00d").__next__)
    r = await edit(ctx, nb, tool, cell_id="cell-3", new_source="tail()")
    assert r.content == "Inserted cell feedf00d with tail()"
    assert r.data["edit_mode"] == "insert"
    assert sources(nb)[-1] == ("feedf00d", "code", "tail()")


async def test_cell_n_names_cells_that_have_ids_too(nb: Path, ctx: ToolContext) -> None:
    assert (await edit(ctx, nb, cell_id="cell-2", new_source="x = 3")).content == (
        "Updated cell cell-2 with x = 3")
    assert sources(nb)[2] == ("c3", "code", "x = 3")


# --- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize("inp, message", [
    ({"cell_id": "nope", "new_source": "x"}, 'Cell with ID "nope" not found in notebook.'),
    ({"cell_id": "cell-9", "new_source": "x"}, "Cell with index 9 does not exist in notebook"),
    ({"cell_id": "cell-3", "edit_mode": "delete"}, "Cell with index 3 does not exist"),
    ({"cell_id": "nope", "edit_mode": "insert", "cell_type": "code"}, 'Cell with ID "nope"'),
    ({"edit_mode": "insert"}, "Cell type is required when using edit_mode=insert."),
    ({"new_source": "x"}, "Cell ID must be specified when not inserting a new cell."),
    ({"edit_mode": "delete"}, "Cell ID must be specified"),
])
async def test_bad_requests(nb: Path, ctx: ToolContext, inp: dict[str, Any],
                            message: str) -> None:
    before = nb.read_bytes()
    r = await edit(ctx, nb, **inp)
    assert r.is_error and message in r.content, r.content
    assert nb.read_bytes() == before


async def test_not_read_first(tmp_path: Path, ctx: ToolContext) -> None:
    nb = write_notebook(tmp_path / "a.ipynb", [code("x", "c1")])
    before = nb.read_bytes()
    r = await edit(ctx, nb, cell_id="c1", new_source="y")
    assert r.content == NOT_READ
    assert nb.read_bytes() == before


async def test_changed_since_read(nb: Path, ctx: ToolContext) -> None:
    write_notebook(nb, [code("someone else's", "c1")])
    st = nb.stat()
    os.utime(nb, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    before = nb.read_bytes()
    r = await edit(ctx, nb, cell_id="c1", new_source="mine")
    assert r.is_error and "modified after it was last read" in r.content
    assert nb.read_bytes() == before


async def test_not_a_notebook(tmp_path: Path, ctx: ToolContext) -> None:
    py = tmp_path / "a.py"
    py.write_text("x = 1\n")
    await read_first(ctx, py)
    r = await edit(ctx, py, cell_id="c1", new_source="y")
    assert r.is_error and "is not a Jupyter notebook (.ipynb file)" in r.content
    assert py.read_text() == "x = 1\n"


async def test_missing_file(tmp_path: Path, ctx: ToolContext) -> None:
    r = await edit(ctx, tmp_path / "nope.ipynb", cell_id="c1", new_source="y")
    assert r.is_error and "File does not exist" in r.content


@pytest.mark.parametrize("text, message", [
    ('{"cells": [', "Notebook is not valid JSON"),
    ("[1, 2]", "no list of cells"),
    ('{"cells": [], "nbformat": 3, "nbformat_minor": 0, "metadata": {}}',
     "Only nbformat 4 notebooks are supported; this one is format 3"),
    ('{"cells": [{"cell_type": "code", "id": "c1", "source": "x"}], "metadata": {},'
     ' "nbformat": 4, "nbformat_minor": 5}', "not valid by nbformat's schema"),
    ('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": "5"}',
     "nbformat_minor is not an integer"),
    (json.dumps({"cells": [v4.new_markdown_cell("a", id="c1"), v4.new_markdown_cell("b", id="c1")],
                 "metadata": {}, "nbformat": 4, "nbformat_minor": 5}),
     "the cell id 'c1' is used twice"),
])
async def test_invalid_notebooks_are_refused(tmp_path: Path, ctx: ToolContext, text: str,
                                             message: str) -> None:
    nb = tmp_path / "bad.ipynb"
    nb.write_text(text)
    ctx.read_files[str(nb)] = FileReadRecord(nb.stat().st_mtime_ns)  # Read refuses most
    r = await edit(ctx, nb, cell_id="c1", new_source="y")
    assert r.is_error and message in r.content, r.content
    assert nb.read_text() == text


# --- the tool itself -------------------------------------------------------------------------


def test_schema_flags_and_description() -> None:
    tool = NotebookEditTool()
    schema = tool.input_schema()
    props = {name: {k: v for k, v in prop.items() if k != "description"}
             for name, prop in schema["properties"].items()}
    assert props == CLAUDE_CODE_SCHEMA["properties"]
    assert list(props) == list(CLAUDE_CODE_SCHEMA["properties"])
    assert schema["required"] == CLAUDE_CODE_SCHEMA["required"]
    assert schema["additionalProperties"] is False
    inp = NotebookEditInput(notebook_path="/p/a.ipynb", new_source="x")
    assert not tool.is_read_only(inp) and not tool.is_concurrency_safe(inp)
    assert tool.description().startswith("Changes one cell of a Jupyter notebook")
    assert isinstance(tool.validate({"notebook_path": "/a.ipynb", "new_source": "x",
                                     "edit_mode": "append"}), str)


def test_nbformat_is_imported_only_when_a_notebook_is_edited() -> None:
    code = ("import sys, cc.main, cc.tools.read, cc.tools.notebook_edit, cc.tools.notebook_view; "
            "assert 'nbformat' not in sys.modules, 'nbformat imported'")
    subprocess.run([sys.executable, "-c", code], check=True)
