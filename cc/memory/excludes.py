"""`claudeMdExcludes`: glob patterns of instruction files not to load.

Each pattern is matched against a file's absolute path (and its resolved path, so a
symlinked folder does not dodge it): `**` spans folders, `*` and `?` stay within one
path part, `[...]` is a character class, a leading `~/` is the home folder. A value
that is not a list of strings excludes nothing.
"""

from __future__ import annotations

import re
from pathlib import Path


class Excludes:
    def __init__(self, patterns: object) -> None:
        items = patterns if isinstance(patterns, list) else []
        self.patterns = [p for p in items if isinstance(p, str) and p.strip()]
        self._compiled = [re.compile(_translate(_expand_home(p))) for p in self.patterns]

    def __bool__(self) -> bool:
        return bool(self._compiled)

    def excludes(self, *paths: Path) -> bool:
        return any(rx.fullmatch(str(path)) for rx in self._compiled for path in paths)


def _expand_home(pattern: str) -> str:
    if pattern == "~" or pattern.startswith("~/"):
        try:
            return str(Path.home()) + pattern[1:]
        except RuntimeError:
            return pattern
    return pattern


def _translate(pattern: str) -> str:
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[" and (end := pattern.find("]", i + 2)) != -1:
            body = pattern[i + 1 : end]
            if body.startswith("!"):
                body = "^" + body[1:]
            out.append(f"[{body.replace(chr(92), chr(92) * 2)}]")
            i = end + 1
        else:
            out.append(re.escape(c))
            i += 1
    return "".join(out)

