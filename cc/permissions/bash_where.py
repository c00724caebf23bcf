"""Where a command line's relative paths point: the folder it starts in and every folder
a `cd` in it goes to (nested `sh -c` strings included)."""

from __future__ import annotations

import glob as globlib
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from cc.permissions.bash_forms import effective
from cc.permissions.bash_parse import SimpleCommand, Word
from cc.permissions.paths import expand, norm
from cc.permissions.shell_catalog import usage

#: More matches than this and a glob's paths are not checked one by one.
MAX_GLOB = 200
#: More `cd`s than this and where the line runs counts as unknown.
MAX_FOLDERS = 8


@dataclass
class Where:
    """Folders relative paths may be relative to (the start folder and every `cd`)."""

    cwds: list[str]
    #: A `cd` to a folder only known when it runs (or pushd/popd): relative paths are
    #: not known.
    unknown: bool
    home: Path

    def resolve(self, word: Word) -> list[str] | None:
        """Absolute paths the word names (globs expanded), or None if not known."""
        value = word.value
        if value is None:
            return None
        if word.tilde:
            value = str(self.home) + value[1:]
        if value.startswith("/"):
            found = [norm(value)]
        elif self.unknown:
            return None
        else:
            found = [expand(value, Path(base), self.home) for base in self.cwds]
        if word.glob:
            matches = [norm(m) for p in found for m in islice(globlib.iglob(p), MAX_GLOB + 1)]
            if len(matches) > MAX_GLOB:
                return None  # too many to check one by one
            found = matches or found
        return found


def where_of(cmds: list[SimpleCommand], start: Path, home: Path) -> Where:
    where = Where([norm(start)], False, home)
    for cmd in cmds:
        _, words = effective(cmd, deny=True)
        name = words[0].value if words else None
        if name in ("pushd", "popd"):
            where.unknown = True
        if name != "cd":
            continue
        targets = usage(words).reads
        paths = None if not targets else where.resolve(targets[0])
        if paths is None or len(where.cwds) > MAX_FOLDERS:
            where.unknown = True
        else:
            where.cwds += [p for p in paths if p not in where.cwds]
    return where
