"""Running ripgrep: finding the binary, building its arguments, reading its output.

Grep describes a search as a `GrepQuery` and gets back `FileHits`, one per file
with matches; Glob gets the list of files rg would search. One rg process per
call. `cc.tools.search_fallback` answers the same questions in pure Python when
no rg binary exists.

rg exit codes: 0 matches, 1 no matches, 2 an error (with partial output when only
some files failed). An error with no output becomes a `SearchError` carrying
rg's own message."""

from __future__ import annotations

import asyncio
import os
import shutil
import sysconfig
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from cc.errors import SearchError, SearchTimeout

#: Setting this to a path picks that rg; setting it empty forces the Python fallback.
RG_PATH_ENV = "CC_RG_PATH"
from cc.tools.base import ReadOnlyTool

DEFAULT_TIMEOUT = 20.0
#: rg output beyond this is dropped (the process is killed) and the result marked cut.
MAX_OUTPUT_BYTES = 20 * 1024 * 1024
MAX_COLUMNS = 500
#: Version-control folders never searched, even with hidden files included.
VCS_DIRS = (".git", ".svn", ".hg", ".bzr", ".jj")

OutputMode = Literal["files_with_matches", "content", "count"]


@dataclass
class GrepQuery:
    """One Grep search, independent of the engine that runs it."""

    pattern: str
    root: Path
    mode: OutputMode = "files_with_matches"
    globs: list[str] = field(default_factory=list)
    file_type: str | None = None
    ignore_case: bool = False
    line_numbers: bool = True
    only_matching: bool = False
    multiline: bool = False
    before: int = 0
    after: int = 0


@dataclass
class FileHits:
    """What one file contributed to a Grep search."""

    path: str
    #: Content mode: output lines as rg prints them (`path:N:text`, `path-N-text`
    #: for context), with `--` between groups of lines that are not adjacent.
    lines: list[str] = field(default_factory=list)
    #: Count mode: how many matches the file holds.
    count: int = 0


@dataclass
class RgOutput:
    lines: list[str]
    #: True when output was dropped past MAX_OUTPUT_BYTES.
    truncated: bool = False


@dataclass
class GrepOutput:
    files: list[FileHits]
    truncated: bool = False


def find_rg() -> str | None:
    """The rg to run: $CC_RG_PATH if set (empty means none), the venv's, then PATH's."""
    override = os.environ.get(RG_PATH_ENV)
    if override is not None:
        return override or None
    exe = "rg.exe" if os.name == "nt" else "rg"
    beside = Path(sysconfig.get_path("scripts")) / exe
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which("rg")


def _common_args() -> list[str]:
    return ["--no-config", "--no-require-git", "--color", "never"]


def files_args(root: Path, *, hidden: bool, exclude: list[str]) -> list[str]:
    """Arguments listing every file under `root` that is not ignored or excluded.

    The caller filters by its own glob: given to rg as `--glob`, a pattern that
    also matches folders (`**`, `src/**`) would bring back gitignored files.
    """
    args = ["--files", *_common_args()]
    if hidden:
        args.append("--hidden")
    for name in exclude:
        args += ["--glob", f"!{name}/"]
    return [*args, "--", str(root)]


def grep_args(q: GrepQuery) -> list[str]:
    """Arguments running `q` (hidden files included, version-control folders skipped)."""
    args = [*_common_args(), "--hidden", "--no-heading", "--max-columns", str(MAX_COLUMNS)]
    for glob in q.globs:
        args += ["--glob", glob]
    for name in VCS_DIRS:  # after the user's globs: rg lets later globs win
        args += ["--glob", f"!{name}/"]
    if q.file_type:
        args += ["--type", q.file_type]
    if q.ignore_case:
        args.append("--ignore-case")
    if q.multiline:
        args += ["--multiline", "--multiline-dotall"]
    if q.mode == "files_with_matches":
        args.append("--files-with-matches")
    elif q.mode == "count":
        args += ["--count-matches", "--with-filename", "--null"]
    else:
        # A NUL after the path (rg expands the escape) lets paths hold ':' and '-'.
        args += ["--with-filename", "--field-match-separator", r"\x00:"]
        args += ["--field-context-separator", r"\x00-"]
        args.append("--line-number" if q.line_numbers else "--no-line-number")
        if q.only_matching:
            args.append("--only-matching")
        if q.before:
            args += ["--before-context", str(q.before)]
        if q.after:
            args += ["--after-context", str(q.after)]
    return [*args, "-e", q.pattern, "--", str(q.root)]


async def run_rg(
    rg: str,
    args: list[str],
    *,
    cwd: Path | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int = MAX_OUTPUT_BYTES,
) -> RgOutput:
    """Run rg once and return its stdout lines ([] when nothing matched).

    rg reads `--glob` patterns relative to its working folder, so run it in the
    folder being searched. The process is killed and awaited on timeout and on
    cancellation.
    """
    proc = await asyncio.create_subprocess_exec(
        rg,
        *args,
        cwd=cwd,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        async with asyncio.timeout(timeout):
            async with asyncio.TaskGroup() as tg:
                out_task = tg.create_task(_read_capped(proc, max_bytes))
                err_task = tg.create_task(_read_all(proc.stderr))
            code = await proc.wait()
    except TimeoutError:
        raise SearchTimeout(
            f"The search took longer than {timeout:g} seconds and was stopped. "
            "Narrow the path, glob or pattern."
        ) from None
    finally:
        if proc.returncode is None:
            try:
                proc.kill()
            except ProcessLookupError:
                pass
            await proc.wait()
    out, truncated = out_task.result()
    if truncated:
        out = out[: out.rfind(b"\n") + 1]
    lines = _split_lines(out.decode("utf-8", errors="replace"))
    if code == 2 and not lines:
        message = err_task.result().decode("utf-8", errors="replace").strip()
        raise SearchError(message or "ripgrep failed (exit code 2)")
    if code not in (0, 1, 2) and not truncated:
        raise SearchError(f"ripgrep exited with code {code}")
    return RgOutput(lines, truncated)


async def _read_capped(proc: asyncio.subprocess.Process, limit: int) -> tuple[bytes, bool]:
    assert proc.stdout is not None
    chunks: list[bytes] = []
    size = 0
    while chunk := await proc.stdout.read(65536):
        if size + len(chunk) > limit:
            chunks.append(chunk[: limit - size])
            proc.kill()
            return b"".join(chunks), True
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks), False


async def _read_all(stream: asyncio.StreamReader | None) -> bytes:
    assert stream is not None
    return await stream.read()


def _split_lines(text: str) -> list[str]:
    """Split on newlines only (not on the other characters `str.splitlines` knows)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


async def rg_files(
    rg: str, root: Path, *, hidden: bool, exclude: list[str], timeout: float = DEFAULT_TIMEOUT
) -> RgOutput:
    """Every file under `root` rg would search (see `files_args`)."""
    args = files_args(root, hidden=hidden, exclude=exclude)
    return await run_rg(rg, args, cwd=root, timeout=timeout)


async def rg_grep(rg: str, q: GrepQuery, *, timeout: float = DEFAULT_TIMEOUT) -> GrepOutput:
    """Run `q` with rg, one process, and group its output by file."""
    cwd = q.root if q.root.is_dir() else q.root.parent
    out = await run_rg(rg, grep_args(q), cwd=cwd, timeout=timeout)
    return GrepOutput(parse_grep_output(q, out.lines), out.truncated)


def parse_grep_output(q: GrepQuery, lines: list[str]) -> list[FileHits]:
    if q.mode == "files_with_matches":
        return [FileHits(line) for line in lines]
    if q.mode == "count":
        hits = []
        for line in lines:
            path, _, count = line.partition("\0")
            hits.append(FileHits(path, count=int(count) if count.isdigit() else 0))
        return hits
    files: list[FileHits] = []
    current: FileHits | None = None
    gap = False
    for line in lines:
        if line == "--":
            gap = True
            continue
        path, sep, rest = line.partition("\0")
        if not sep:  # a notice such as "<path>: binary file matches (...)"
            path, text = line.split(": ", 1)[0], line
        else:
            kind, rest = rest[:1], rest[1:]
            if q.line_numbers:
                number, _, text = rest.partition("\0")
                text = f"{path}{kind}{number}{kind}{text[1:]}"
            else:
                text = f"{path}{kind}{rest}"
        if current is None or current.path != path:
            current = FileHits(path)
            files.append(current)
        elif gap:
            current.lines.append("--")
        gap = False
        current.lines.append(text)
    return files


class RipgrepTool(ReadOnlyTool):
    """Base of the search tools: ripgrep when present, the pure-Python search when not."""

    def __init__(self, rg_path: str | None = None, timeout: float = DEFAULT_TIMEOUT) -> None:
        """`rg_path`: None finds rg (see `find_rg`); "" uses the pure-Python search."""
        self._rg = find_rg() if rg_path is None else rg_path or None
        self._timeout = timeout
