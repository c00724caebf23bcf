"""Grep: search file contents with a regular expression (ripgrep, one run per call)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

from pydantic import ConfigDict, Field, WithJsonSchema

from cc.tools import search_fallback
from cc.tools.base import ToolContext, ToolInput, ToolResult, optional_without_null
from cc.tools.glob import newest_first
from cc.tools.ripgrep import (
    VCS_DIRS,
    FileHits,
    GrepOutput,
    GrepQuery,
    RipgrepTool,
    SearchError,
    rg_grep,
)

#: Entries (paths, lines or counts) shown when head_limit is not given; 0 means all.
DEFAULT_HEAD_LIMIT = 250
MAX_OUTPUT_CHARS = 30_000

#: A whole number the schema calls "number", as Claude Code's does.
Count = Annotated[int, Field(ge=0), WithJsonSchema({"type": "number"})]


class GrepInput(ToolInput):
    model_config = ConfigDict(json_schema_extra=optional_without_null)

    pattern: str = Field(description="Regular expression.")
    path: str | None = Field(
        default=None, description="File or folder (default: the working directory)."
    )
    glob: str | None = Field(default=None, description='Only files matching it, e.g. "*.{ts,tsx}".')
    output_mode: Literal["content", "files_with_matches", "count"] | None = Field(
        default=None,
        description='"files_with_matches" (default; newest first), "content" (lines as '
        'path:line:text) or "count" (per file).',
    )
    before: Count | None = Field(default=None, alias="-B")
    after: Count | None = Field(default=None, alias="-A")
    around: Count | None = Field(default=None, alias="-C")
    context: Count | None = Field(default=None, description="Same as -C.")
    line_numbers: bool | None = Field(default=None, alias="-n")
    ignore_case: bool | None = Field(default=None, alias="-i")
    only_matching: bool | None = Field(default=None, alias="-o")
    file_type: str | None = Field(
        default=None,
        alias="type",
        description='A ripgrep file type, e.g. "py" (faster than glob).',
    )
    head_limit: Count | None = Field(
        default=None,
        description=f"Most entries shown (default {DEFAULT_HEAD_LIMIT}; 0: all).",
    )
    offset: Count | None = Field(default=None, description="Entries to skip.")
    multiline: bool | None = Field(
        default=None, description="Let matches span lines ('.' matches newlines)."
    )


def split_globs(text: str | None) -> list[str]:
    """The `glob` input as separate globs: split on spaces, and on commas outside braces."""
    globs: list[str] = []
    for token in (text or "").split():
        if "{" in token and "}" in token:
            globs.append(token)
        else:
            globs += [part for part in token.split(",") if part]
    return globs


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


def _cap(text: str) -> str:
    """`text` cut at MAX_OUTPUT_CHARS on a line boundary, with a note saying so."""
    if len(text) <= MAX_OUTPUT_CHARS:
        return text
    kept = text[: text.rfind("\n", 0, MAX_OUTPUT_CHARS) + 1 or MAX_OUTPUT_CHARS].rstrip("\n")
    dropped = text[len(kept) :].count("\n")
    return (
        f"{kept}\n\n[Output cut at {MAX_OUTPUT_CHARS} characters; {_plural(dropped, 'more line')} "
        "not shown. Use head_limit and offset, or a narrower search.]"
    )


def _kept_newest_first(files: list[FileHits], root: Path,
                       denied: Callable[[str], bool] | None) -> list[FileHits]:
    """The files no deny rule covers (one it covers is not searched), newest first, in
    one trip to a thread (blocking: it stats each)."""
    if denied is not None:
        files = [f for f in files if not denied(str(root / f.path))]
    order = newest_first([f.path for f in files])
    rank = {path: i for i, path in enumerate(order)}
    return sorted(files, key=lambda f: rank[f.path])


class GrepTool(RipgrepTool):
    name = "Grep"
    input_model: ClassVar[type[ToolInput]] = GrepInput

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, GrepInput)
        root = Path(os.path.normpath(ctx.resolve(inp.path))) if inp.path else ctx.cwd
        if not await asyncio.to_thread(root.exists):
            return ToolResult.error(f"Path does not exist: {root}")
        query = self._query(inp, root)
        try:
            if self._rg is None:
                hits = await asyncio.to_thread(search_fallback.grep, query, VCS_DIRS)
                found = GrepOutput(hits)
            else:
                found = await rg_grep(self._rg, query, timeout=self._timeout)
        except SearchError as e:
            return ToolResult.error(f"Search failed: {e}")
        found.files = await asyncio.to_thread(_kept_newest_first, found.files, root,
                                              ctx.read_denied)
        return self._result(inp, query, found)

    @staticmethod
    def _query(inp: GrepInput, root: Path) -> GrepQuery:
        around = inp.context if inp.context is not None else inp.around
        return GrepQuery(
            pattern=inp.pattern,
            root=root,
            mode=inp.output_mode or "files_with_matches",
            globs=split_globs(inp.glob),
            file_type=inp.file_type or None,
            ignore_case=bool(inp.ignore_case),
            line_numbers=inp.line_numbers is not False,
            only_matching=bool(inp.only_matching),
            multiline=bool(inp.multiline),
            before=inp.before if inp.before is not None else around or 0,
            after=inp.after if inp.after is not None else around or 0,
        )

    @staticmethod
    def _result(inp: GrepInput, q: GrepQuery, found: GrepOutput) -> ToolResult:
        files = found.files
        if q.mode == "files_with_matches":
            entries = [f.path for f in files]
        elif q.mode == "count":
            entries = [f"{f.path}:{f.count}" for f in files]
        else:
            entries = []
            for f in files:
                if entries and (q.before or q.after):
                    entries.append("--")
                entries += f.lines
        limit = DEFAULT_HEAD_LIMIT if inp.head_limit is None else inp.head_limit
        offset = inp.offset or 0
        page = entries[offset : offset + limit if limit else None]
        if q.mode == "content":  # a page never starts or ends on a group separator
            while page and page[0] == "--":
                page.pop(0)
            while page and page[-1] == "--":
                page.pop()
        data: dict[str, Any] = {"mode": q.mode}
        notes: list[str] = []
        if limit and len(entries) > offset + limit:
            data["appliedLimit"] = limit
        if offset:
            data["appliedOffset"] = offset
        if "appliedLimit" in data or offset:
            first, last = offset + 1, offset + len(page)
            shown = f"entries {first}-{last}" if page else "no entries"
            notes.append(
                f"[Paginated (limit {limit or 'none'}, offset {offset}): showing {shown} "
                f"of {len(entries)}.]"
            )
        if found.truncated:
            notes.append("[ripgrep's output was too large and was cut off; narrow the search.]")
        body = _cap("\n".join(page))
        if q.mode == "files_with_matches":
            data |= {"numFiles": len(page), "filenames": page}
            text = f"Found {_plural(len(page), 'file')}\n{body}" if page else "No files found"
            summary = f"Found {_plural(len(page), 'file')}"
        elif q.mode == "count":
            total = sum(f.count for f in files)
            data |= {"numFiles": len(files), "filenames": [], "content": body, "numMatches": total}
            text = body or "No matches found"
            if files:
                text += (
                    f"\n\nFound {_plural(total, 'total occurrence')} across "
                    f"{_plural(len(files), 'file')}."
                )
            summary = f"Found {_plural(total, 'match', 'matches')} in {_plural(len(files), 'file')}"
        else:
            data |= {"numFiles": 0, "filenames": [], "content": body, "numLines": len(page)}
            text = body or "No matches found"
            summary = f"Found {_plural(len(page), 'line')}"
        if notes:
            text += "\n\n" + "\n".join(notes)
        return ToolResult(text, data=data, summary=summary)
