"""Text files for the Read tool: one streaming pass that keeps a window of lines."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DEFAULT_LIMIT = 2000
MAX_LINE_CHARS = 2000
SNIFF_BYTES = 8192
LINE_CUT_MARKER = "… [line truncated]"


@dataclass
class Window:
    """The lines of a text file between `start` and `start + limit`."""

    lines: list[str]
    start: int
    total: int
    more_after: bool


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def read_window(path: Path, start: int, limit: int) -> Window | None:
    """Stream the file once, keeping only the window; None if it looks binary."""
    end = start + limit  # exclusive
    kept: list[bytes] = []
    count = 0
    last = b"\n"  # an empty file is one empty line, like "".split("\n")
    with path.open("rb") as f:
        head = f.read(SNIFF_BYTES)
        if head.startswith(_WIDE_BOMS):
            return _wide_window(head + f.read(), start, limit)
        if b"\x00" in head:
            return None
        f.seek(0)
        for raw in f:
            count += 1
            last = raw
            if start <= count < end:
                kept.append(raw[:-1] if raw.endswith(b"\n") else raw)
    total = count + 1 if last.endswith(b"\n") else count
    if total > count and start <= total < end:
        kept.append(b"")
    if start == 1 and kept and kept[0].startswith(b"\xef\xbb\xbf"):
        kept[0] = kept[0][3:]
    text = _decode(b"\n".join(kept))
    lines = text.split("\n") if kept else []
    # A trailing newline's empty last line is not "more" worth a note.
    real_total = total - 1 if total > count else total
    return Window(lines, start, total, more_after=end <= real_total)


#: UTF-16/32 byte-order marks: such files hold NULs but are text.
_WIDE_BOMS = (b"\xff\xfe", b"\xfe\xff")


def _wide_window(raw: bytes, start: int, limit: int) -> Window | None:
    """The window of a UTF-16/32 file, decoded whole (they are rare and small)."""
    from cc.tools.file_io import decode

    decoded = decode(raw)
    if decoded is None:
        return None
    lines = decoded[0].split("\n")
    total = len(lines)
    real_total = total - 1 if lines[-1] == "" else total
    end = start + limit
    return Window(lines[start - 1 : end - 1], start, total, more_after=end <= real_total)


def number_lines(lines: list[str], start: int) -> str:
    """`N<TAB>line` for each line, from `start`; CRs dropped and long lines cut."""
    out = []
    for n, line in enumerate(lines, start):
        if line.endswith("\r"):
            line = line[:-1]
        if len(line) > MAX_LINE_CHARS:
            line = line[:MAX_LINE_CHARS] + LINE_CUT_MARKER
        out.append(f"{n}\t{line}")
    return "\n".join(out)
