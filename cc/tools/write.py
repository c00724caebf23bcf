"""Write: create a file, or replace one the conversation has read, with new content.

A new file is written as UTF-8 with the content's own line endings. An existing file
keeps its line-ending style and encoding (BOM included); if the content holds
characters that encoding cannot store, the file becomes UTF-8.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any, ClassVar

from pydantic import Field

from cc.memory.auto_memory import SecretRefused
from cc.tools import file_io
from cc.tools.base import Tool, ToolContext, ToolInput, ToolResult
from cc.tools.diff import describe_changes, structured_patch


class WriteInput(ToolInput):
    file_path: str = Field(description="Absolute path.")
    content: str = Field(description="The whole file.")


def _count_lines(text: str) -> int:
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


class WriteTool(Tool):
    name = "Write"
    input_model: ClassVar[type[ToolInput]] = WriteInput

    def writes(self, inp: ToolInput) -> tuple[str, ...]:
        assert isinstance(inp, WriteInput)
        return (inp.file_path,)

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, WriteInput)
        path = ctx.resolve(inp.file_path)
        try:
            st = await asyncio.to_thread(os.stat, path)
        except (FileNotFoundError, NotADirectoryError):
            return await self._create(path, inp, ctx)
        except PermissionError:
            return ToolResult.error(f"Permission denied: cannot access {path}.")
        key, problem = await file_io.write_problem(ctx, path, st)
        if problem:
            return ToolResult.error(problem)
        try:
            old = await asyncio.to_thread(file_io.read_text_file, path)
        except PermissionError:
            return ToolResult.error(f"Permission denied: cannot read {path}.")
        try:
            data = self._encode(inp.content, old)
        except UnicodeEncodeError:
            return ToolResult.error("content has characters that UTF-8 cannot store.")
        written = await self._write(path, data, ctx, key)
        if isinstance(written, ToolResult):
            return written
        original = old.text if old is not None else None
        patch = structured_patch(original or "", file_io.normalize_newlines(inp.content))
        where = file_io.display_path(path, ctx.cwd)
        return ToolResult(
            f"The file {path} has been updated successfully.",
            data=self._data("update", path, inp.content, patch, original),
            summary=f"Updated {where} with {describe_changes(patch)}",
        )

    @staticmethod
    def _encode(content: str, old: file_io.TextFile | None) -> bytes:
        """`content` in the old file's style (a binary old file has none to keep)."""
        if old is None:
            return file_io.encode_text(content, file_io.UTF8)
        text = file_io.normalize_newlines(content)
        try:
            return file_io.encode_text(text, old.encoding, old.line_ending)
        except UnicodeEncodeError:
            if old.encoding == file_io.UTF8:
                raise
            return file_io.encode_text(text, file_io.UTF8, old.line_ending)

    async def _create(self, path: Path, inp: WriteInput, ctx: ToolContext) -> ToolResult:
        try:
            data = file_io.encode_text(inp.content, file_io.UTF8)
        except UnicodeEncodeError:
            return ToolResult.error("content has characters that UTF-8 cannot store.")
        written = await self._write(path, data, ctx, None)
        if isinstance(written, ToolResult):
            return written
        where = file_io.display_path(path, ctx.cwd)
        n = _count_lines(inp.content)
        return ToolResult(
            f"File created successfully at: {path}",
            data=self._data("create", path, inp.content, [], None),
            summary=f"Wrote {n} line{'' if n == 1 else 's'} to {where}",
        )

    @staticmethod
    async def _write(
        path: Path, data: bytes, ctx: ToolContext, key: str | None
    ) -> ToolResult | None:
        try:
            mtime_ns = await asyncio.to_thread(file_io.write_file, ctx, path, data)
        except SecretRefused as e:
            return ToolResult.error(str(e))
        except OSError as e:
            return ToolResult.error(f"Cannot write {path}: {e.strerror or e}.")
        file_io.record_write(ctx, path, mtime_ns, key)
        return None

    @staticmethod
    def _data(
        kind: str, path: Path, content: str, patch: list[Any], original: str | None
    ) -> dict[str, Any]:
        return {
            "type": kind,
            "filePath": str(path),
            "content": content,
            "structuredPatch": patch,
            "originalFile": original,
        }
