"""Glob: the files whose path matches a glob pattern, most recently modified first."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import ClassVar

from pydantic import ConfigDict, Field

from cc.tools import search_fallback
from cc.tools.base import ToolContext, ToolInput, ToolResult, optional_without_null
from cc.tools.ripgrep import VCS_DIRS, RipgrepTool, SearchError, rg_files

MAX_FILES = 100
#: Folders never listed (hidden ones are skipped too, unless the pattern names one).
EXCLUDED_DIRS = ("node_modules", *VCS_DIRS)


class GlobInput(ToolInput):
    model_config = ConfigDict(json_schema_extra=optional_without_null)

    pattern: str = Field(description='e.g. "**/*.py"')
    path: str | None = Field(
        default=None,
        description="Folder to search (default: the working directory).",
    )


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _has_magic(part: str) -> bool:
    return any(c in part for c in "*?[{")


def split_pattern(base: Path, pattern: str) -> tuple[Path, str]:
    """The folder to search and a glob anchored to it, for `pattern` read from `base`.

    The pattern's leading literal folders move into the folder (so `../lib/*.py`
    and absolute patterns work); a pattern with no wildcard names one file.
    """
    if pattern.startswith("~"):
        pattern = os.path.expanduser(pattern)
    absolute = pattern.startswith("/")
    parts = [p for p in pattern.split("/") if p not in ("", ".")]
    literal: list[str] = []
    for part in parts:
        if _has_magic(part):
            break
        literal.append(part)
    rest = parts[len(literal) :]
    if not rest:
        literal, rest = literal[:-1], literal[-1:]
    root = Path("/" if absolute else base, *literal)
    return Path(os.path.normpath(root)), "/" + "/".join(rest)


def newest_first(paths: list[str]) -> list[str]:
    """`paths` by modification time, newest first, ties by path (blocking: stats each)."""

    def key(path: str) -> tuple[float, str]:
        try:
            return -os.stat(path).st_mtime, path
        except OSError:
            return 0.0, path

    return sorted(paths, key=key)


class GlobTool(RipgrepTool):
    name = "Glob"
    input_model: ClassVar[type[ToolInput]] = GlobInput

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, GlobInput)
        started = time.perf_counter()
        base = ctx.cwd
        if inp.path:
            base = Path(os.path.normpath(ctx.resolve(inp.path)))
            if not await asyncio.to_thread(base.exists):
                return ToolResult.error(f"Path does not exist: {base}")
            if not await asyncio.to_thread(base.is_dir):
                return ToolResult.error(f"Path is not a directory: {base}")
        if not inp.pattern.strip():
            return ToolResult.error("The pattern is empty.")
        root, glob = split_pattern(base, inp.pattern.strip())
        try:
            files = await self._find(root, glob)
        except SearchError as e:
            return ToolResult.error(str(e))
        if ctx.read_denied is not None:  # a file a deny rule covers is not listed
            denied = ctx.read_denied
            files = await asyncio.to_thread(
                lambda: [f for f in files if not denied(str(root / f))]
            )
        files = await asyncio.to_thread(newest_first, files)
        shown = files[:MAX_FILES]
        truncated = len(files) > len(shown)
        content = "\n".join(shown) if shown else "No files found"
        if truncated:
            content += (
                f"\n(Showing the {MAX_FILES} most recently modified of {len(files)} matching "
                "files. Narrow the path or pattern to see the rest.)"
            )
        data = {
            "filenames": shown,
            "durationMs": round((time.perf_counter() - started) * 1000),
            "numFiles": len(shown),
            "truncated": truncated,
        }
        return ToolResult(content, data=data, summary=f"Found {_plural(len(shown), 'file')}")

    async def _find(self, root: Path, glob: str) -> list[str]:
        if not await asyncio.to_thread(root.is_dir):
            return []
        # Hidden files are skipped unless the pattern itself names a hidden part.
        hidden = any(part.startswith(".") for part in glob.split("/"))
        exclude: list[str] = list(EXCLUDED_DIRS)
        if self._rg is None:
            files = await asyncio.to_thread(
                search_fallback.list_files, root, hidden=hidden, exclude=exclude
            )
        else:
            out = await rg_files(
                self._rg, root, hidden=hidden, exclude=exclude, timeout=self._timeout
            )
            files = out.lines
        return await asyncio.to_thread(_matching, files, root, glob)


def _matching(files: list[str], root: Path, glob: str) -> list[str]:
    """The files (under `root`) whose path relative to `root` matches `glob`."""
    rule = search_fallback.Rule.parse(glob)
    if rule is None:
        return []
    prefix = str(root).rstrip("/") + "/"

    def relative(f: str) -> str:
        return f.removeprefix(prefix) if f.startswith(prefix) else os.path.relpath(f, root)

    return [f for f in files if rule.matches(relative(f), False)]
