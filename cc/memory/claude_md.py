"""CLAUDE.md files: find them, strip comments, expand `@path` imports.

Load order runs broad to specific and everything found is concatenated:
`<config>/CLAUDE.md` (user), then for each folder from the filesystem root down to the cwd
its `CLAUDE.md` and `.claude/CLAUDE.md` (project) and `CLAUDE.local.md` (local).

`AGENTS.md`, which other coding agents read, stands in for them: when the walk finds no
project or local file, each folder's `AGENTS.md` is read as its project instructions
(Claude Code 2.1.332 does the same: one CLAUDE.md anywhere on the walk, or a
CLAUDE.local.md, and no AGENTS.md is read; the user's own file does not count).
`claudeMdExcludes` patterns (`cc.memory.excludes`) drop files before that decision, so
excluding a CLAUDE.md lets the AGENTS.md beside it in.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from cc.memory.excludes import Excludes

Scope = Literal["user", "project", "local"]

MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_IMPORT_DEPTH = 5

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_BLOCK_COMMENT = re.compile(r"^[ \t]*<!--.*?-->[ \t]*\n?", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")
_IMPORT = re.compile(r"(?:^|(?<=\s))@([^\s\x00]+)")

_SCOPE_NOTES: dict[Scope, str] = {
    "user": "the user's instructions for all projects",
    "project": "project instructions, shared with the team",
    "local": "the user's private instructions for this project",
}


@dataclass(frozen=True)
class MemoryFile:
    path: Path
    scope: Scope
    content: str  # comments stripped, imports expanded


def load_claude_md(cwd: Path, config_dir: Path, excludes: object = None) -> list[MemoryFile]:
    """Every readable CLAUDE.md (or AGENTS.md, failing those) that applies to `cwd`,
    broad to specific, less those `excludes` (settings `claudeMdExcludes`) names."""
    cwd = cwd.absolute()
    folders = list(reversed((cwd, *cwd.parents)))
    candidates: list[tuple[Path, Scope]] = [(config_dir.absolute() / "CLAUDE.md", "user")]
    for folder in folders:
        candidates.append((folder / "CLAUDE.md", "project"))
        candidates.append((folder / ".claude" / "CLAUDE.md", "project"))
        candidates.append((folder / "CLAUDE.local.md", "local"))
    skip = Excludes(excludes)
    files: list[MemoryFile] = []
    seen: set[Path] = set()
    _collect(candidates, files, seen, skip)
    if all(f.scope == "user" for f in files):
        agents: list[tuple[Path, Scope]] = [(folder / "AGENTS.md", "project")
                                            for folder in folders]
        _collect(agents, files, seen, skip)
    return files


def _collect(candidates: Sequence[tuple[Path, Scope]], files: list[MemoryFile],
             seen: set[Path], skip: Excludes) -> None:
    for path, scope in candidates:
        key = _resolve(path)
        if key is None or key in seen or (skip and skip.excludes(path, key)):
            continue
        text = _read(key)
        if text is None:
            continue
        seen.add(key)
        files.append(MemoryFile(path, scope, _expand(_strip_comments(text), (key,))))


def render_claude_md(files: Sequence[MemoryFile]) -> str | None:
    """The files for the system prompt, each introduced by its path; None when empty."""
    parts = [
        f"Contents of {file.path} ({_SCOPE_NOTES[file.scope]}):\n\n{body}"
        for file in files
        if (body := file.content.strip("\n").rstrip())
    ]
    return "\n\n".join(parts) if parts else None


def _read(path: Path) -> str | None:
    """The file's text, or None if it is missing, unreadable, not UTF-8 or over 4 MiB."""
    try:
        if not path.is_file() or path.stat().st_size > MAX_FILE_BYTES:
            return None
        return path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def _resolve(path: Path) -> Path | None:
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):
        return None


def _code_mask(lines: Sequence[str]) -> list[bool]:
    """For each line, whether it belongs to a fenced code block (fence lines included)."""
    mask: list[bool] = []
    fence: str | None = None
    for line in lines:
        match = _FENCE.match(line)
        if fence is None:
            if match:
                fence = match.group(1)
            mask.append(fence is not None)
            continue
        mask.append(True)
        if match and _closes(fence, match.group(1), line[match.end() :]):
            fence = None
    return mask


def _closes(fence: str, marker: str, rest: str) -> bool:
    return marker[0] == fence[0] and len(marker) >= len(fence) and not rest.strip()


def _strip_comments(text: str) -> str:
    """Drop HTML block comments (`<!--` opening a line) outside fenced code blocks."""
    lines = text.split("\n")
    chunks = []
    for in_code, group in itertools.groupby(zip(_code_mask(lines), lines), key=lambda p: p[0]):
        chunk = "\n".join(line for _, line in group)
        chunks.append(chunk if in_code else _BLOCK_COMMENT.sub("", chunk))
    return "\n".join(chunks)


def _expand(text: str, stack: tuple[Path, ...]) -> str:
    """Insert each imported file after the line that imports it.

    `stack` holds the resolved files being expanded, the current one last: its length is
    the import depth, and a file already on it is not imported again (a cycle).
    """
    lines = text.split("\n")
    out: list[str] = []
    for line, in_code in zip(lines, _code_mask(lines)):
        out.append(line)
        if in_code or len(stack) > MAX_IMPORT_DEPTH:
            continue
        for token in _IMPORT.findall(_CODE_SPAN.sub("\x00", line)):
            target = _import_target(token, stack[-1].parent)
            if target is None or target in stack:
                continue
            imported = _read(target)
            if imported is not None:
                out.append(_expand(_strip_comments(imported), (*stack, target)).rstrip("\n"))
    return "\n".join(out)


def _import_target(token: str, base: Path) -> Path | None:
    try:
        if token == "~" or token.startswith("~/"):
            path = Path.home() / token[2:]
        else:
            path = Path(token)
            if not path.is_absolute():
                path = base / path
    except RuntimeError:  # no home directory
        return None
    return _resolve(path)
