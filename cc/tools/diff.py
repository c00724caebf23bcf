"""Line diffs of file changes: Claude Code's `structuredPatch` hunks, and unified text.

A hunk is `{"oldStart", "oldLines", "newStart", "newLines", "lines"}` with 1-based
starts (like the `diff` package Claude Code uses, a start stays 1-based even when its
line count is 0) and each line prefixed with " " (context), "-" (removed) or "+"
(added). A line that ends its file without a newline is followed by the marker
`\\ No newline at end of file`, as in `diff -u`.
"""

from __future__ import annotations

import difflib
from typing import Any

CONTEXT_LINES = 3
NO_NEWLINE = "\\ No newline at end of file"

Hunk = dict[str, Any]


def _split(text: str) -> list[str]:
    """The lines of `text`, each keeping its "\\n" (the last one may have none)."""
    if not text:
        return []
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _emit(prefix: str, lines: list[str], out: list[str]) -> None:
    for line in lines:
        if line.endswith("\n"):
            out.append(prefix + line[:-1])
        else:
            out.append(prefix + line)
            out.append(NO_NEWLINE)


def structured_patch(old: str, new: str, context: int = CONTEXT_LINES) -> list[Hunk]:
    """The hunks that turn `old` into `new`; [] when they are equal."""
    a, b = _split(old), _split(new)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    hunks: list[Hunk] = []
    for group in matcher.get_grouped_opcodes(context):
        lines: list[str] = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                _emit(" ", a[i1:i2], lines)
            else:
                _emit("-", a[i1:i2], lines)
                _emit("+", b[j1:j2], lines)
        first, last = group[0], group[-1]
        hunks.append(
            {
                "oldStart": first[1] + 1,
                "oldLines": last[2] - first[1],
                "newStart": first[3] + 1,
                "newLines": last[4] - first[3],
                "lines": lines,
            }
        )
    return hunks


def count_changes(hunks: list[Hunk]) -> tuple[int, int]:
    """How many lines the hunks add and remove."""
    added = removed = 0
    for hunk in hunks:
        for line in hunk["lines"]:
            if line.startswith("+"):
                added += 1
            elif line.startswith("-"):
                removed += 1
    return added, removed


def describe_changes(hunks: list[Hunk]) -> str:
    """E.g. "2 additions and 1 removal"."""
    added, removed = count_changes(hunks)
    return f"{_plural(added, 'addition')} and {_plural(removed, 'removal')}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _range(start: int, length: int) -> str:
    if length == 1:
        return str(start)
    if length == 0:
        start -= 1
    return f"{start},{length}"


def unified_diff_text(path: str, old: str, new: str, context: int = CONTEXT_LINES) -> str:
    """`diff -u` style text for a UI (headers name `path` twice); "" when equal."""
    hunks = structured_patch(old, new, context)
    if not hunks:
        return ""
    out = [f"--- {path}", f"+++ {path}"]
    for hunk in hunks:
        old_range = _range(hunk["oldStart"], hunk["oldLines"])
        new_range = _range(hunk["newStart"], hunk["newLines"])
        out.append(f"@@ -{old_range} +{new_range} @@")
        out.extend(hunk["lines"])
    return "\n".join(out) + "\n"
