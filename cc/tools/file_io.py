"""Text files for Edit and Write: keep a file's encoding and line endings; check reads.

Tools work on text whose line endings are "\\n". `read_text_file` decodes a file and
notes its encoding (UTF-8, UTF-8/16/32 with a BOM, or Latin-1 when UTF-8 fails) and
its main line-ending style; `encode_text` turns edited text back into bytes of the
same kind. `write_bytes` writes in place: the file keeps its mode, owner and hard
links, and a symlink is followed, never replaced.

A file may be changed only if the conversation has read it and it has not changed
since: `find_read_key` / `read_problem` check `ctx.read_files`, `record_write`
updates it after a write so the next Edit needs no new Read.
"""

from __future__ import annotations

import asyncio
import codecs
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from cc.tools.base import FileReadRecord, ToolContext

SNIFF_BYTES = 8192

NOT_READ_YET = "File has not been read yet. Read it first before writing to it."
CHANGED_SINCE_READ = (
    "The file was modified after it was last read, by the user or by a linter. "
    "Read it again before writing to it."
)


@dataclass(frozen=True)
class Encoding:
    """How a file's text is stored: a codec, and the byte-order mark it starts with."""

    codec: str
    bom: bytes = b""

    @property
    def label(self) -> str:
        return f"{self.codec} with BOM" if self.bom else self.codec


UTF8 = Encoding("utf-8")
LATIN1 = Encoding("latin-1")

# UTF-32 first: its little-endian BOM starts with UTF-16's.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


@dataclass(frozen=True)
class TextFile:
    """A decoded text file. `text` has "\\n" line endings; `line_ending` is the file's."""

    text: str
    encoding: Encoding
    line_ending: str


def normalize_newlines(text: str) -> str:
    return text.replace("\r\n", "\n")


def decode(raw: bytes) -> tuple[str, Encoding] | None:
    """The text of `raw` and its encoding; None if it looks binary."""
    for bom, codec in _BOMS:
        if raw.startswith(bom):
            try:
                return raw[len(bom) :].decode(codec), Encoding(codec, bom)
            except UnicodeDecodeError:
                return None
    if b"\x00" in raw[:SNIFF_BYTES]:
        return None
    try:
        return raw.decode("utf-8"), UTF8
    except UnicodeDecodeError:
        return raw.decode("latin-1"), LATIN1


def parse_text(raw: bytes) -> TextFile | None:
    """`raw` as a TextFile; CRLF style when most of its lines end with "\\r\\n"."""
    decoded = decode(raw)
    if decoded is None:
        return None
    text, encoding = decoded
    crlf = text.count("\r\n")
    ending = "\r\n" if crlf * 2 > text.count("\n") else "\n"
    return TextFile(normalize_newlines(text), encoding, ending)


def read_text_file(path: Path) -> TextFile | None:
    """Blocking: the file as a TextFile, or None if it is binary."""
    return parse_text(path.read_bytes())


def encode_text(text: str, encoding: Encoding, line_ending: str = "\n") -> bytes:
    """Bytes for `text` ("\\n" endings) in a file's style. May raise UnicodeEncodeError."""
    if line_ending != "\n":
        text = text.replace("\n", line_ending)
    return encoding.bom + text.encode(encoding.codec)


def write_bytes(path: Path, data: bytes) -> int:
    """Blocking: write `data` in place, creating parent folders; the new mtime_ns.

    The path is resolved first (the permission check judged the resolved path) and
    opened with O_NOFOLLOW, so a symlink swapped in after the check is refused
    rather than followed somewhere else.
    """
    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(target, flags, 0o666)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    return os.stat(target).st_mtime_ns


def write_file(ctx: ToolContext, path: Path, data: bytes) -> int:
    """Blocking: write `data` to `path`; the new mtime_ns. A file in the memory folder is
    checked for secrets and written whole, 0600 (raises SecretRefused); any other file
    in place (`write_bytes`)."""
    from cc.memory.auto_memory import inside, write_memory_file

    if not inside(ctx.memory_dir, path):
        return write_bytes(path, data)
    target = Path(os.path.realpath(path))
    write_memory_file(target, data.decode("utf-8", errors="replace"))
    return os.stat(target).st_mtime_ns


def kind_problem(path: Path, st: os.stat_result) -> str | None:
    """Why `path` (with stat `st`) cannot be written as a text file, if it cannot."""
    if stat.S_ISDIR(st.st_mode):
        return f"{path} is a directory, not a file."
    if not stat.S_ISREG(st.st_mode):
        return f"{path} is not a regular file (device, pipe or socket)."
    return None


def display_path(path: Path, cwd: Path) -> str:
    """`path` relative to `cwd` when it lies inside it, else as given."""
    try:
        return str(path.relative_to(cwd))
    except ValueError:
        return str(path)


def _match_key(path: Path, keys: list[str]) -> str | None:
    candidates = (str(path), os.path.normpath(path), os.path.realpath(path))
    for candidate in candidates:
        if candidate in keys:
            return candidate
    real = candidates[2]
    for key in keys:
        if os.path.realpath(key) == real:
            return key
    return None


async def find_read_key(ctx: ToolContext, path: Path) -> str | None:
    """The `ctx.read_files` key under which `path` was read (any spelling of it), if any."""
    return await asyncio.to_thread(_match_key, path, list(ctx.read_files))


def read_problem(ctx: ToolContext, key: str | None, mtime_ns: int) -> str | None:
    """Why a file read under `key` may not be written now (its mtime is `mtime_ns`)."""
    record = ctx.read_files.get(key) if key is not None else None
    if record is None:
        return NOT_READ_YET
    if record.mtime_ns != mtime_ns:
        return CHANGED_SINCE_READ
    return None


async def write_problem(ctx: ToolContext, path: Path,
                        st: os.stat_result) -> tuple[str | None, str | None]:
    """(the read key, why it may not be written) for an existing file: it must be a
    regular file the conversation read, unchanged since."""
    problem = kind_problem(path, st)
    if problem is not None:
        return None, problem
    key = await find_read_key(ctx, path)
    return key, read_problem(ctx, key, st.st_mtime_ns)


def record_write(ctx: ToolContext, path: Path, mtime_ns: int, key: str | None = None) -> None:
    """Note that the conversation knows the file as just written."""
    for k in {str(path), key or str(path)}:
        ctx.read_files[k] = FileReadRecord(mtime_ns)
