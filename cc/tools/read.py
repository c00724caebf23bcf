"""Read: a text file as numbered lines, an image as an image block, a Jupyter notebook
as its cells with their outputs (`cc.tools.notebook_view`)."""

from __future__ import annotations

import asyncio
import base64
import os
import stat
from pathlib import Path
from typing import Any, ClassVar

from pydantic import ConfigDict, Field

from cc.tools.base import (
    FileReadRecord,
    ReadOnlyTool,
    ToolContext,
    ToolInput,
    ToolResult,
    optional_without_null,
)
from cc.tools.read_text import DEFAULT_LIMIT, number_lines, read_window

MAX_TEXT_BYTES = 256 * 1024
MAX_IMAGE_BYTES = 5 * 1024 * 1024

IMAGE_EXTENSIONS = {".png", ".jpg", ".jpeg", ".gif", ".webp"}
BINARY_EXTENSIONS = set(
    ".7z .a .avi .bin .bmp .bz2 .class .db .dll .dmg .doc .docx .dylib .eot .exe .flac"
    " .gz .ico .iso .jar .lib .mkv .mov .mp3 .mp4 .o .ogg .otf .ppt .pptx .psd .pyc .pyd"
    " .pyo .rar .so .sqlite .tar .tgz .tif .tiff .ttf .wasm .wav .webm .woff .woff2 .xls .xlsx"
    " .xz .zip .zst".split()
)


class ReadInput(ToolInput):
    model_config = ConfigDict(json_schema_extra=optional_without_null)

    file_path: str = Field(description="Absolute path of the file to read.")
    offset: int | None = Field(
        default=None, ge=0, description="First line to read (1-based)."
    )
    limit: int | None = Field(
        default=None, gt=0, description="How many lines to read."
    )
    pages: str | None = Field(
        default=None, description='Pages of a PDF, e.g. "1-5".'
    )


def _image_media_type(head: bytes) -> str | None:
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    return None


def _lines(n: int) -> str:
    return f"{n} line" if n == 1 else f"{n} lines"


def _reminder(text: str) -> str:
    return f"<system-reminder>{text}</system-reminder>"


def _suggest(path: Path) -> Path | None:
    """A file in the same folder whose name differs only in case or extension."""
    try:
        siblings = sorted(path.parent.iterdir())
    except OSError:
        return None
    stem, name = path.stem.lower(), path.name.lower()
    for sibling in siblings:
        if sibling.name != path.name and (
            sibling.name.lower() == name or sibling.stem.lower() == stem
        ):
            return sibling
    return None


class ReadTool(ReadOnlyTool):
    name = "Read"
    input_model: ClassVar[type[ToolInput]] = ReadInput

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, ReadInput)
        path = ctx.resolve(inp.file_path)
        try:
            st = await asyncio.to_thread(os.stat, path)
        except (FileNotFoundError, NotADirectoryError):
            return await self._missing(path, ctx)
        except PermissionError:
            return ToolResult.error(f"Permission denied: cannot access {path}.")
        if stat.S_ISDIR(st.st_mode):
            return ToolResult.error(
                f"{path} is a directory, not a file. To see what it holds, run ls with the "
                "Bash tool or use the Glob tool."
            )
        if not stat.S_ISREG(st.st_mode):
            return ToolResult.error(f"{path} is not a regular file (device, pipe or socket).")
        ext = path.suffix.lower()
        if ext == ".pdf":
            return ToolResult.error("Reading PDF files is not supported yet.")
        try:
            if ext in IMAGE_EXTENSIONS:
                result = await self._image(path, st.st_size)
            elif ext == ".ipynb":
                result = await self._notebook(path)
            elif ext in BINARY_EXTENSIONS:
                result = self._binary(path)
            else:
                result = await self._text(path, st.st_size, inp)
        except PermissionError:
            return ToolResult.error(f"Permission denied: cannot read {path}.")
        if not result.is_error:
            ctx.read_files[str(path)] = FileReadRecord(st.st_mtime_ns, inp.offset, inp.limit)
        return result

    async def _missing(self, path: Path, ctx: ToolContext) -> ToolResult:
        message = f"File does not exist. Current working directory: {ctx.cwd}"
        similar = await asyncio.to_thread(_suggest, path)
        if similar is not None:
            message += f" Did you mean {similar}?"
        return ToolResult.error(message)

    @staticmethod
    def _binary(path: Path) -> ToolResult:
        return ToolResult.error(
            f"{path} is a binary file and cannot be read as text. Only text files and "
            "images (PNG, JPEG, GIF, WebP) can be read."
        )

    async def _text(self, path: Path, size: int, inp: ReadInput) -> ToolResult:
        if size > MAX_TEXT_BYTES and inp.offset is None and inp.limit is None:
            return ToolResult.error(
                f"File is too large to read at once ({round(size / 1024)} KB; the limit is "
                f"{MAX_TEXT_BYTES // 1024} KB). Use offset and limit to read it in parts, "
                "or search it with the Grep tool."
            )
        start = max(inp.offset or 1, 1)
        window = await asyncio.to_thread(read_window, path, start, inp.limit or DEFAULT_LIMIT)
        if window is None:
            return self._binary(path)
        if size == 0:
            return self._text_result(
                path, _reminder("Warning: the file exists but is empty."), [], start, 0
            )
        if not window.lines:
            note = _reminder(
                f"Warning: the file is shorter than the offset you gave ({start}); "
                f"it has {_lines(window.total)}."
            )
            return self._text_result(path, note, [], start, window.total)
        content = number_lines(window.lines, start)
        if window.more_after:
            last = start + len(window.lines) - 1
            content += "\n\n" + _reminder(
                f"Showing lines {start}-{last}. The file has {window.total} lines in all; "
                "use offset and limit to read more."
            )
        return self._text_result(path, content, window.lines, start, window.total)

    @staticmethod
    def _text_result(
        path: Path, content: str, lines: list[str], start: int, total: int
    ) -> ToolResult:
        file: dict[str, Any] = {
            "filePath": str(path),
            "content": "\n".join(lines),
            "numLines": len(lines),
            "startLine": start,
            "totalLines": total,
        }
        summary = f"Read {_lines(len(lines))}"
        return ToolResult(content, data={"type": "text", "file": file}, summary=summary)

    @staticmethod
    async def _notebook(path: Path) -> ToolResult:
        from cc.tools.notebook_view import read_notebook

        return await asyncio.to_thread(read_notebook, path)

    async def _image(self, path: Path, size: int) -> ToolResult:
        if size > MAX_IMAGE_BYTES:
            return ToolResult.error(
                f"Image is too large ({size / 1024 / 1024:.1f} MB; the limit is "
                f"{MAX_IMAGE_BYTES // 1024 // 1024} MB) and images are not resized."
            )
        raw = await asyncio.to_thread(path.read_bytes)
        media_type = _image_media_type(raw[:16])
        if media_type is None:
            return ToolResult.error(
                f"{path} does not look like a valid PNG, JPEG, GIF or WebP image."
            )
        b64 = base64.b64encode(raw).decode("ascii")
        source = {"type": "base64", "media_type": media_type, "data": b64}
        file = {"base64": b64, "type": media_type, "originalSize": len(raw)}
        summary = f"Read image ({max(len(raw) // 1024, 1)} KB)"
        block = {"type": "image", "source": source}
        return ToolResult([block], data={"type": "image", "file": file}, summary=summary)
