"""Read of a Jupyter notebook: cells in tags, outputs inside them, images as image blocks."""

from __future__ import annotations

from pathlib import Path

from nbformat import v4

from cc.tools.base import ToolContext, ToolResult
from cc.tools.notebook_view import MAX_OUTPUT_CHARS, OUTPUT_CUT_MARKER
from cc.tools.read import ReadInput, ReadTool
from tests.tools.notebooks import JPEG_B64, PNG_B64, code, markdown, write_notebook


async def read(ctx: ToolContext, path: Path) -> ToolResult:
    return await ReadTool().call(ReadInput(file_path=str(path)), ctx)


async def test_cells_as_claude_code_shows_them(tmp_path: Path, ctx: ToolContext) -> None:
    nb = write_notebook(tmp_path / "a.ipynb", [code("print(1)", "c1"), markdown("# Title", "c2")])
    r = await read(ctx, nb)
    assert not r.is_error
    assert r.content == (
        '<cell id="c1">print(1)</cell id="c1">\n'
        '<cell id="c2"><cell_type>markdown</cell_type># Title</cell id="c2">'
    )
    assert r.data == {"type": "notebook", "file": {"filePath": str(nb), "cells": [
        {"cellType": "code", "source": "print(1)", "cell_id": "c1", "language": "python"},
        {"cellType": "markdown", "source": "# Title", "cell_id": "c2"},
    ]}}
    assert r.summary == "Read 2 cells"
    assert str(nb) in ctx.read_files  # so NotebookEdit may change it


async def test_text_outputs_follow_the_source_inside_the_cell(
    tmp_path: Path, ctx: ToolContext
) -> None:
    outputs = [
        v4.new_output("stream", name="stdout", text="hello\n"),
        v4.new_output("stream", name="stderr", text="careful\n"),
        v4.new_output("execute_result", data={"text/plain": "42"}, execution_count=3),
    ]
    failed = v4.new_output("error", ename="ZeroDivisionError", evalue="division by zero",
                           traceback=["\x1b[0;31mZeroDivisionError\x1b[0m: division by zero"])
    nb = write_notebook(tmp_path / "a.ipynb", [
        code("print('hello')\n42", "c1", outputs, count=3),
        code("1/0", "c2", [failed], count=4),
    ])
    r = await read(ctx, nb)
    assert r.content == (
        "<cell id=\"c1\">print('hello')\n42"
        "\n<output>hello\n</output>"
        '\n<output type="stderr">careful\n</output>'
        "\n<output>42</output>"
        '</cell id="c1">\n'
        '<cell id="c2">1/0'
        '\n<output type="error">ZeroDivisionError: division by zero</output>'
        '</cell id="c2">'
    )
    first, second = r.data["file"]["cells"]
    assert first["execution_count"] == 3
    assert first["outputs"] == [
        {"output_type": "stream", "text": "hello\n"},
        {"output_type": "stream", "name": "stderr", "text": "careful\n"},
        {"output_type": "execute_result", "text": "42"},
    ]
    assert second["outputs"] == [
        {"output_type": "error", "text": "ZeroDivisionError: division by zero"}]


async def test_image_outputs_are_image_blocks(tmp_path: Path, ctx: ToolContext) -> None:
    plot = v4.new_output("display_data",
                         data={"image/png": PNG_B64, "text/plain": "<Figure size 1x1>"})
    photo = v4.new_output("display_data", data={"image/jpeg": JPEG_B64})
    nb = write_notebook(tmp_path / "a.ipynb", [
        code("plot()", "c1", [plot, v4.new_output("stream", name="stdout", text="done\n")]),
        code("show()", "c2", [photo]),
        markdown("Notes", "c3"),
    ])
    r = await read(ctx, nb)
    assert r.content == [
        {"type": "text", "text": '<cell id="c1">plot()\n<output type="image/png">'},
        {"type": "image",
         "source": {"type": "base64", "media_type": "image/png", "data": PNG_B64}},
        {"type": "text", "text": '</output>\n<output>done\n</output></cell id="c1">\n'
                                 '<cell id="c2">show()\n<output type="image/jpeg">'},
        {"type": "image",
         "source": {"type": "base64", "media_type": "image/jpeg", "data": JPEG_B64}},
        {"type": "text", "text": '</output></cell id="c2">\n'
                                 '<cell id="c3"><cell_type>markdown</cell_type>Notes</cell id="c3">'},
    ]
    outputs = r.data["file"]["cells"][0]["outputs"]
    assert outputs[0] == {"output_type": "display_data",
                          "image": {"image_data": PNG_B64, "media_type": "image/png"}}


async def test_cells_without_ids_are_named_by_index(tmp_path: Path, ctx: ToolContext) -> None:
    nb = write_notebook(tmp_path / "old.ipynb", [markdown("# Old"), code("x = 1")], minor=4)
    r = await read(ctx, nb)
    assert r.content == (
        '<cell id="cell-0"><cell_type>markdown</cell_type># Old</cell id="cell-0">\n'
        '<cell id="cell-1">x = 1</cell id="cell-1">'
    )
    assert [c["cell_id"] for c in r.data["file"]["cells"]] == ["cell-0", "cell-1"]


async def test_a_long_output_is_cut(tmp_path: Path, ctx: ToolContext) -> None:
    long = "x" * (MAX_OUTPUT_CHARS + 50)
    nb = write_notebook(tmp_path / "a.ipynb", [
        code("print(x)", "c1", [v4.new_output("stream", name="stdout", text=long)])])
    r = await read(ctx, nb)
    assert isinstance(r.content, str)
    assert "x" * MAX_OUTPUT_CHARS + OUTPUT_CUT_MARKER + "</output>" in r.content
    assert "x" * (MAX_OUTPUT_CHARS + 1) not in r.content


async def test_an_empty_notebook_says_so(tmp_path: Path, ctx: ToolContext) -> None:
    r = await read(ctx, write_notebook(tmp_path / "a.ipynb", []))
    assert not r.is_error and "has no cells" in r.content


async def test_what_is_not_a_notebook_is_an_error(tmp_path: Path, ctx: ToolContext) -> None:
    broken = tmp_path / "broken.ipynb"
    broken.write_text('{"cells": [')
    r = await read(ctx, broken)
    assert r.is_error and "Notebook is not valid JSON" in r.content
    listing = tmp_path / "list.ipynb"
    listing.write_text("[1, 2]")
    r = await read(ctx, listing)
    assert r.is_error and "no list of cells" in r.content
    assert str(broken) not in ctx.read_files and str(listing) not in ctx.read_files
