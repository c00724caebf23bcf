"""A notebook as Read shows it: each cell with its source and then its outputs.

    <cell id="c1">print(1)
    <output>1
    </output></cell id="c1">
    <cell id="c2"><cell_type>markdown</cell_type># Title</cell id="c2">

A code cell has no `<cell_type>` tag; a cell without an id is named `cell-N`. Each
output follows the source on a line of its own, inside the cell: `<output>` holds text
(a stream on stdout, a result's or a display's text/plain), `<output type="stderr">`
a stream on stderr, `<output type="error">` a traceback (colour codes removed), and
`<output type="image/png">` (or image/jpeg) an image, given as an image block between
the text before it and the text after. Adjacent text is one block; a notebook without
images is one string.
"""

from __future__ import annotations

import base64
import binascii
import re
from pathlib import Path
from typing import Any

from cc.tools.base import ToolResult
from cc.tools.notebook_file import (
    NotebookData,
    cell_ref,
    language_of,
    parse_notebook,
    source_of,
    text_of,
)

#: An output's text beyond this many characters is cut.
MAX_OUTPUT_CHARS = 10_000
OUTPUT_CUT_MARKER = "\n… [output truncated]"
#: A notebook whose text (sources and text outputs) is longer than this is not read whole.
MAX_TEXT_CHARS = 256 * 1024
MAX_IMAGE_BYTES = 5 * 1024 * 1024
IMAGE_TYPES = ("image/png", "image/jpeg")
TEXT_TYPES = ("text/plain", "text/markdown", "text/html")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

Block = dict[str, Any]


class _Content:
    """Content blocks under construction: text runs joined, images between them."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self._text: list[str] = []
        self.text_chars = 0

    def text(self, s: str) -> None:
        self._text.append(s)
        self.text_chars += len(s)

    def image(self, media_type: str, data: str) -> None:
        self._flush()
        self.blocks.append({"type": "image", "source": {
            "type": "base64", "media_type": media_type, "data": data}})

    def _flush(self) -> None:
        if self._text:
            self.blocks.append({"type": "text", "text": "".join(self._text)})
            self._text = []

    def result(self) -> str | list[Block]:
        self._flush()
        if all(b["type"] == "text" for b in self.blocks):
            return "".join(b["text"] for b in self.blocks)
        return self.blocks


def _cut(text: str) -> str:
    return text if len(text) <= MAX_OUTPUT_CHARS else text[:MAX_OUTPUT_CHARS] + OUTPUT_CUT_MARKER


def _image_data(value: Any) -> str | None:
    """The base64 of an image output, whitespace removed; None if it does not decode or
    is too large."""
    data = "".join(text_of(value).split())
    try:
        size = len(base64.b64decode(data, validate=True))
    except (binascii.Error, ValueError):
        return None
    return data if 0 < size <= MAX_IMAGE_BYTES else None


def output_record(output: dict[str, Any]) -> dict[str, Any] | None:
    """One output as data: `{output_type, text}` (`name: "stderr"` for that stream) or
    `{output_type, image: {image_data, media_type}}`; None for an output with nothing
    to show."""
    kind = str(output.get("output_type", ""))
    record: dict[str, Any] = {"output_type": kind}
    if kind == "stream":
        if output.get("name") == "stderr":
            record["name"] = "stderr"
        record["text"] = _cut(text_of(output.get("text")))
        return record
    if kind == "error":
        lines = output.get("traceback")
        shown = "\n".join(str(x) for x in lines) if isinstance(lines, list) and lines else (
            f"{output.get('ename', 'Error')}: {output.get('evalue', '')}")
        record["text"] = _cut(_ANSI.sub("", shown))
        return record
    bundle = output.get("data")
    if not isinstance(bundle, dict):
        return None
    for media_type in IMAGE_TYPES:
        data = _image_data(bundle.get(media_type)) if media_type in bundle else None
        if data is not None:
            record["image"] = {"image_data": data, "media_type": media_type}
            return record
    for media_type in TEXT_TYPES:
        if media_type in bundle:
            record["text"] = _cut(text_of(bundle[media_type]))
            return record
    return None


def _show_output(out: _Content, record: dict[str, Any]) -> None:
    image = record.get("image")
    if image is not None:
        out.text(f'\n<output type="{image["media_type"]}">')
        out.image(image["media_type"], image["image_data"])
        out.text("</output>")
        return
    kind = "error" if record["output_type"] == "error" else record.get("name")
    out.text(f'\n<output type="{kind}">' if kind else "\n<output>")
    out.text(f"{record['text']}</output>")


def _cell_record(cell: dict[str, Any], index: int, language: str,
                 outputs: list[dict[str, Any]]) -> dict[str, Any]:
    cell_type = str(cell.get("cell_type", "code"))
    record: dict[str, Any] = {"cellType": cell_type, "source": source_of(cell),
                              "cell_id": cell_ref(cell, index)}
    if cell_type == "code":
        record["language"] = language
        if isinstance(cell.get("execution_count"), int):
            record["execution_count"] = cell["execution_count"]
    if outputs:
        record["outputs"] = outputs
    return record


def render_notebook(data: NotebookData, file_path: str) -> ToolResult:
    """Read's result for a parsed notebook: the cells for the model, the records for
    `tool_use_result`."""
    language = language_of(data)
    out = _Content()
    records: list[dict[str, Any]] = []
    for index, cell in enumerate(data["cells"]):
        ref = cell_ref(cell, index)
        cell_type = str(cell.get("cell_type", "code"))
        type_tag = "" if cell_type == "code" else f"<cell_type>{cell_type}</cell_type>"
        out.text(("\n" if index else "") + f'<cell id="{ref}">{type_tag}{source_of(cell)}')
        raw_outputs = cell.get("outputs") if cell_type == "code" else None
        outputs = [r for o in raw_outputs or () if isinstance(o, dict)
                   and (r := output_record(o)) is not None]
        for record in outputs:
            _show_output(out, record)
        out.text(f'</cell id="{ref}">')
        records.append(_cell_record(cell, index, language, outputs))
    if not records:
        out.text("<system-reminder>Warning: the notebook exists but has no cells."
                 "</system-reminder>")
    if out.text_chars > MAX_TEXT_CHARS:
        return ToolResult.error(
            f"The notebook's text is too large to read at once ({out.text_chars // 1024} KB; "
            f"the limit is {MAX_TEXT_CHARS // 1024} KB). Read parts of it with jq through "
            f"the Bash tool, e.g. jq '.cells[:5]' {file_path}")
    n = len(records)
    return ToolResult(out.result(),
                      data={"type": "notebook", "file": {"filePath": file_path, "cells": records}},
                      summary=f"Read {n} cell{'' if n == 1 else 's'}")


def read_notebook(path: Path) -> ToolResult:
    """Blocking: Read's result for the notebook at `path`."""
    data = parse_notebook(path.read_bytes())
    if isinstance(data, str):
        return ToolResult.error(data)
    return render_notebook(data, str(path))
