"""Edit: replace an exact string in a text file the conversation has read.

Matching is exact, on text with "\\n" line endings. The one leniency is quote style:
when old_string matches only after curly quotes (‘ ’ “ ”) are made straight, the edit
is applied to the file's text and new_string takes the file's quote style. Any other
near miss (whitespace at line ends, tabs against spaces, line-number prefixes copied
from Read) is never applied; the error says what differs, so the model can fix it.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from pydantic import ConfigDict, Field

from cc.memory.auto_memory import SecretRefused
from cc.tools import file_io
from cc.tools.base import (
    Tool,
    ToolContext,
    ToolInput,
    ToolResult,
    optional_without_null,
)
from cc.tools.diff import describe_changes, structured_patch

MAX_EDIT_BYTES = 1024 * 1024 * 1024
SHOWN_CHARS = 80

_STRAIGHT = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"'})
_LINE_NUMBER = re.compile(r"^ *\d+(?:\t|→)")


class EditInput(ToolInput):
    model_config = ConfigDict(json_schema_extra=optional_without_null)

    file_path: str = Field(description="Absolute path.")
    old_string: str = Field(description="The text to replace.")
    new_string: str = Field(description="Its replacement (must differ).")
    replace_all: bool = Field(
        default=False, description="Replace every occurrence."
    )


def _find_all(text: str, needle: str) -> list[int]:
    starts: list[int] = []
    i = text.find(needle)
    while i != -1:
        starts.append(i)
        i = text.find(needle, i + len(needle))
    return starts


def _splice(text: str, starts: list[int], length: int, new: str) -> str:
    parts: list[str] = []
    last = 0
    for start in starts:
        parts += [text[last:start], new]
        last = start + length
    parts.append(text[last:])
    return "".join(parts)


def _curl(new: str, matched: str) -> str:
    """`new` with straight quotes made curly, for the kinds `matched` writes curly."""
    singles, doubles = bool(set(matched) & set("‘’")), bool(set(matched) & set("“”"))
    out: list[str] = []
    for i, c in enumerate(new):
        prev = new[i - 1] if i else " "
        opening = prev.isspace() or prev in "([{—–"
        if c == '"' and doubles:
            c = "“" if opening else "”"
        elif c == "'" and singles:
            c = "‘" if opening else "’"
        out.append(c)
    return "".join(out)


# --- near misses -----------------------------------------------------------


def _strip_ends(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.split("\n"))


Canon = Callable[[str], str]
Hint = Callable[[list[str], list[str]], str]


def _indent_as(width: int, strip_ends: bool = False) -> Canon:
    def canon(text: str) -> str:
        if strip_ends:
            text = _strip_ends(text)
        lines: list[str] = []
        for line in text.split("\n"):
            body = line.lstrip(" \t")
            lines.append(line[: len(line) - len(body)].expandtabs(width) + body)
        return "\n".join(lines)

    return canon


def _lead(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _indent_hint(file_lines: list[str], old_lines: list[str]) -> str:
    file_tabs = any("\t" in _lead(line) for line in file_lines)
    old_tabs = any("\t" in _lead(line) for line in old_lines)
    if file_tabs and not old_tabs:
        return "the file indents these lines with tabs; old_string uses spaces"
    if old_tabs and not file_tabs:
        return "the file indents these lines with spaces; old_string uses tabs"
    return "the indentation (tabs and spaces) differs"


def _ends_hint(file_lines: list[str], old_lines: list[str]) -> str:
    file_ws = any(line != line.rstrip() for line in file_lines)
    old_ws = any(line != line.rstrip() for line in old_lines)
    if file_ws and not old_ws:
        return "the file has spaces or tabs at the end of some of these lines that old_string lacks"
    if old_ws and not file_ws:
        return "old_string has spaces or tabs at the end of lines where the file has none"
    return "the whitespace at the ends of lines differs"


def near_miss(text: str, old: str) -> str | None:
    """Why `old` is not in `text` when it almost is; None if it is not close."""
    old_lines = old.split("\n")
    if all(_LINE_NUMBER.match(line) for line in old_lines if line):
        unnumbered = "\n".join(_LINE_NUMBER.sub("", line) for line in old_lines)
        if unnumbered.strip() and unnumbered in text:
            return (
                "old_string starts its lines with line numbers copied from the Read "
                "output. Leave out the number and the tab after it."
            )
    checks: list[tuple[Canon, tuple[Hint, ...]]] = [(_strip_ends, (_ends_hint,))]
    for width in (4, 2, 8):
        checks.append((_indent_as(width), (_indent_hint,)))
        checks.append((_indent_as(width, strip_ends=True), (_indent_hint, _ends_hint)))
    for canon, hints in checks:
        canon_old = canon(old)
        if not canon_old.strip():
            continue
        canon_text = canon(text)
        at = canon_text.find(canon_old)
        if at == -1:
            continue
        first = canon_text.count("\n", 0, at)
        file_lines = text.split("\n")[first : first + len(old_lines)]
        why = " and ".join(hint(file_lines, old_lines) for hint in hints)
        return (
            f"A near match starts at line {first + 1}, but {why}. "
            "Copy the text exactly as the file has it."
        )
    return None


# --- the tool --------------------------------------------------------------


def _cut(s: str) -> str:
    return s if len(s) <= SHOWN_CHARS else s[: SHOWN_CHARS - 1] + "…"


def replace(text: str, old: str, new: str, replace_all: bool, shown: str) -> str | ToolResult:
    """`text` with `old` replaced by `new`, or an error result (`shown` is the raw old)."""
    starts = _find_all(text, old)
    if not starts:
        starts = _find_all(text.translate(_STRAIGHT), old.translate(_STRAIGHT))
        if starts:
            new = _curl(new, text[starts[0] : starts[0] + len(old)])
    if not starts:
        hint = near_miss(text, old)
        extra = f"\n{hint}" if hint else ""
        return ToolResult.error(f"String to replace not found in file.{extra}\nString: {shown}")
    if len(starts) > 1 and not replace_all:
        return ToolResult.error(
            f"Found {len(starts)} matches of the string to replace, but replace_all is false. "
            "To replace all occurrences, set replace_all to true. To replace only one "
            "occurrence, please provide more context to uniquely identify the instance.\n"
            f"String: {shown}"
        )
    return _splice(text, starts, len(old), new)


class EditTool(Tool):
    name = "Edit"
    input_model: ClassVar[type[ToolInput]] = EditInput

    def writes(self, inp: ToolInput) -> tuple[str, ...]:
        assert isinstance(inp, EditInput)
        return (inp.file_path,)

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, EditInput)
        path = ctx.resolve(inp.file_path)
        old = file_io.normalize_newlines(inp.old_string)
        new = file_io.normalize_newlines(inp.new_string)
        if old == new:
            return ToolResult.error(
                "old_string and new_string are the same, so there is nothing to change."
            )
        try:
            st = await asyncio.to_thread(os.stat, path)
        except (FileNotFoundError, NotADirectoryError):
            if old:
                return ToolResult.error(
                    f"File does not exist. Current working directory: {ctx.cwd}"
                )
            return await self._create(path, inp, ctx)
        except PermissionError:
            return ToolResult.error(f"Permission denied: cannot access {path}.")
        problem = file_io.kind_problem(path, st)
        if problem is None and st.st_size > MAX_EDIT_BYTES:
            problem = f"{path} is too large to edit ({st.st_size // 2**20} MB)."
        if problem:
            return ToolResult.error(problem)
        try:
            file = await asyncio.to_thread(file_io.read_text_file, path)
        except PermissionError:
            return ToolResult.error(f"Permission denied: cannot read {path}.")
        if file is None:
            return ToolResult.error(f"{path} is a binary file; Edit only changes text files.")
        if not old and file.text.strip():
            return ToolResult.error(
                f"{path} already exists and is not empty. To replace all of it use Write; "
                "to change part of it give the text to replace as old_string."
            )
        key = await file_io.find_read_key(ctx, path)
        problem = file_io.read_problem(ctx, key, st.st_mtime_ns)
        if problem:
            return ToolResult.error(problem)
        updated = replace(file.text, old, new, inp.replace_all, inp.old_string) if old else new
        if isinstance(updated, ToolResult):
            return updated
        if updated == file.text:
            return ToolResult.error("This edit would leave the file unchanged.")
        try:
            data = file_io.encode_text(updated, file.encoding, file.line_ending)
        except UnicodeEncodeError:
            return ToolResult.error(
                f"new_string has characters that this file's encoding "
                f"({file.encoding.label}) cannot store."
            )
        return await self._write(path, inp, ctx, key, (file.text, updated), data)

    async def _create(self, path: Path, inp: EditInput, ctx: ToolContext) -> ToolResult:
        """A new file holding new_string: UTF-8, with new_string's own line endings."""
        try:
            data = file_io.encode_text(inp.new_string, file_io.UTF8)
        except UnicodeEncodeError:
            return ToolResult.error("new_string has characters that UTF-8 cannot store.")
        return await self._write(path, inp, ctx, None, ("", inp.new_string), data)

    async def _write(
        self,
        path: Path,
        inp: EditInput,
        ctx: ToolContext,
        key: str | None,
        texts: tuple[str, str],
        data: bytes,
    ) -> ToolResult:
        original, updated = texts
        try:
            mtime_ns = await asyncio.to_thread(file_io.write_file, ctx, path, data)
        except SecretRefused as e:
            return ToolResult.error(str(e))
        except OSError as e:
            return ToolResult.error(f"Cannot write {path}: {e.strerror or e}.")
        file_io.record_write(ctx, path, mtime_ns, key)
        patch = structured_patch(original, file_io.normalize_newlines(updated))
        if inp.replace_all:
            content = (
                f"The file {path} has been updated. All occurrences of "
                f"'{_cut(inp.old_string)}' were successfully replaced with "
                f"'{_cut(inp.new_string)}'."
            )
        else:
            content = f"The file {path} has been updated successfully."
        result = {
            "filePath": str(path),
            "oldString": inp.old_string,
            "newString": inp.new_string,
            "originalFile": original,
            "structuredPatch": patch,
            "userModified": False,
            "replaceAll": inp.replace_all,
        }
        where = file_io.display_path(path, ctx.cwd)
        summary = f"Updated {where} with {describe_changes(patch)}"
        return ToolResult(content, data=result, summary=summary)
