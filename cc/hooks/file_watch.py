"""The files FileChanged hooks watch, and how they changed since the last look.

What is watched (as Claude Code does):
  - each literal file name in a FileChanged matcher (`.envrc|.env`), in the cwd (it
    follows the shell when the cwd changes);
  - each absolute path a SessionStart or CwdChanged hook returned in
    `hookSpecificOutput.watchPaths`.

A file is looked at (stat) every `POLL_SECONDS`; a change is `add` (it appeared),
`change` (its size or mtime moved) or `unlink` (it went away). Folders are not watched.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

#: How often the watched files are looked at.
POLL_SECONDS = 0.3
_LITERAL_NAMES = re.compile(r"^[A-Za-z0-9_.\-]+(\|[A-Za-z0-9_.\-]+)*$")

_State = tuple[int, int] | None


def literal_names(matcher: str | None) -> list[str]:
    """The file names a FileChanged matcher lists (none for a pattern or a catch-all)."""
    if not matcher or not _LITERAL_NAMES.match(matcher):
        return []
    return [n for n in matcher.split("|") if n not in ("", ".", "..")]


class FileWatch:
    def __init__(self) -> None:
        self._names: list[str] = []
        self._cwd: Path | None = None
        self._extra: set[Path] = set()
        self._states: dict[Path, _State] = {}

    @property
    def paths(self) -> list[Path]:
        static = [self._cwd / n for n in self._names] if self._cwd is not None else []
        return sorted({*static, *self._extra})

    def watch_names(self, names: list[str], cwd: Path) -> None:
        """Watch these file names in `cwd` (replacing the names in the folder before)."""
        self._names, self._cwd = list(names), cwd
        self._settle()

    def watch_paths(self, paths: list[str]) -> None:
        self._extra.update(Path(p) for p in paths if os.path.isabs(p))
        self._settle()

    def changes(self) -> list[tuple[Path, str]]:
        """What changed since the last look: (path, add|change|unlink)."""
        out: list[tuple[Path, str]] = []
        for path in self.paths:
            before, now = self._states.get(path), _state(path)
            self._states[path] = now
            if before == now:
                continue
            out.append((path, "add" if before is None else "unlink" if now is None else "change"))
        return out

    def _settle(self) -> None:
        """Paths newly watched start from how they are now (no event for that)."""
        current = set(self.paths)
        self._states = {p: self._states[p] if p in self._states else _state(p) for p in current}


def _state(path: Path) -> _State:
    try:
        st = path.stat()
    except OSError:
        return None
    if not path.is_file():
        return None
    return st.st_mtime_ns, st.st_size
