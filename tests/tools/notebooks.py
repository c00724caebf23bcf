"""Real notebooks for the tests, written with nbformat, and a real one-pixel PNG."""

from __future__ import annotations

import base64
import json
import struct
import zlib
from pathlib import Path
from typing import Any

import nbformat
from nbformat import v4


def png_bytes() -> bytes:
    """A valid 1×1 red PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x00\x00")
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels)
            + chunk(b"IEND", b""))


PNG_B64 = base64.b64encode(png_bytes()).decode("ascii")
#: Not a real JPEG picture, but one by its signature (Read passes the base64 on as it is).
JPEG_B64 = base64.b64encode(b"\xff\xd8\xff\xe0" + b"\x00" * 12).decode("ascii")


def code(source: str, cell_id: str | None = None, outputs: list[Any] | None = None,
         count: int | None = None) -> Any:
    cell = v4.new_code_cell(source, outputs=outputs or [], execution_count=count)
    if cell_id is not None:
        cell["id"] = cell_id
    return cell


def markdown(source: str, cell_id: str | None = None) -> Any:
    cell = v4.new_markdown_cell(source)
    if cell_id is not None:
        cell["id"] = cell_id
    return cell


def write_notebook(path: Path, cells: list[Any], *, minor: int = 5,
                   language: str | None = "python") -> Path:
    """A notebook of `cells`; below nbformat 4.5 the cells lose their ids (as such
    notebooks have none)."""
    nb = v4.new_notebook(cells=cells)
    nb.nbformat_minor = minor
    if language:
        nb.metadata["language_info"] = {"name": language}
        nb.metadata["kernelspec"] = {"name": language, "display_name": language,
                                     "language": language}
    if minor < 5:
        for cell in nb.cells:
            cell.pop("id", None)
    nbformat.validate(nb)
    nbformat.write(nb, str(path))
    return path


def load(path: Path) -> dict[str, Any]:
    """The notebook on disk as JSON, after checking it with nbformat."""
    data = json.loads(path.read_text(encoding="utf-8"))
    nbformat.validate(data)
    return data
