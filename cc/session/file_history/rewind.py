"""What a rewind to a checkpoint changes, worked out before anything is touched.

`plan()` decides, for each tracked file, which backup it goes back to: the one the
checkpoint holds, or, for a file first changed after it, its first backup (its state
before any tool touched it). Only files that differ from their target are changed. A
backup missing from the folder makes the whole plan fail, with nothing changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cc.session.file_history import backups
from cc.session.file_history.records import Backup, Snapshot

#: Files larger than this are counted as changed without counting their lines.
DIFF_LIMIT = 1024 * 1024


@dataclass(frozen=True)
class Change:
    path: Path
    #: The backup the file goes back to (None: it did not exist, and is deleted).
    backup_file_name: str | None


@dataclass
class RewindPlan:
    changes: list[Change] = field(default_factory=list)
    insertions: int = 0
    deletions: int = 0

    @property
    def files(self) -> list[str]:
        return [str(c.path) for c in self.changes]


def targets(snapshots: list[Snapshot], index: int) -> dict[str, Backup]:
    """For each tracked file, the backup a rewind to `snapshots[index]` restores."""
    chosen: dict[str, Backup] = {}
    for snap in snapshots:
        for key, backup in snap.backups.items():
            first = chosen.get(key)
            if first is None or backup.version < first.version:
                chosen[key] = backup  # the earliest state known of the file
    chosen.update(snapshots[index].backups)
    return chosen


def plan(folder: Path, chosen: dict[str, Backup], where: dict[str, Path]) -> RewindPlan | str:
    """The changes a rewind makes (blocking), or why it cannot be done."""
    out = RewindPlan()
    for key, backup in chosen.items():
        name = backup.backup_file_name
        if name is not None and not (folder / name).is_file():
            return (f"The backup of {key} ({name}) is missing from {folder}; "
                    "nothing was changed.")
        path = where[key]
        if backups.same(folder, name, path):
            continue
        out.changes.append(Change(path, name))
        added, removed = _count(folder, name, path)
        out.insertions += added
        out.deletions += removed
    return out


def apply(folder: Path, rewind: RewindPlan) -> list[str]:
    """Make the changes (blocking); what could not be done, one sentence each."""
    problems: list[str] = []
    for change in rewind.changes:
        try:
            backups.restore(folder, change.backup_file_name, change.path)
        except OSError as exc:
            problems.append(f"Could not restore {change.path}: {exc.strerror or exc}")
    return problems


def turn_changes(folder: Path, snapshots: list[Snapshot], index: int,
                 where: dict[str, Path]) -> list[tuple[str, int, int]]:
    """What the turn of `snapshots[index]` changed (blocking): (file, lines added,
    lines removed), from its snapshot to the next one's (the last: to the files now)."""
    start = targets(snapshots, index)
    end = targets(snapshots, index + 1) if index + 1 < len(snapshots) else None
    out: list[tuple[str, int, int]] = []
    for key, backup in start.items():
        before = _stored(folder, backup)
        after = where[key] if end is None else _stored(folder, end.get(key, backup))
        if _same(before, after):
            continue
        out.append((key, *line_changes(before, after)))
    return out


def _stored(folder: Path, backup: Backup) -> Path | None:
    return folder / backup.backup_file_name if backup.backup_file_name else None


def _same(a: Path | None, b: Path | None) -> bool:
    import filecmp

    a_there = a is not None and a.is_file()
    b_there = b is not None and b.is_file()
    if not (a_there and b_there):
        return a_there == b_there
    assert a is not None and b is not None
    return filecmp.cmp(a, b, shallow=False)


def _count(folder: Path, name: str | None, path: Path) -> tuple[int, int]:
    """Lines the rewind adds to and removes from `path`."""
    return line_changes(path, folder / name if name is not None else None)


def line_changes(before: Path | None, after: Path | None) -> tuple[int, int]:
    """Lines added and removed from `before` to `after` (None or missing: no file;
    (0, 0) when either is too large to tell)."""
    old_bytes = backups.read_small(before, DIFF_LIMIT) if before is not None else b""
    new_bytes = backups.read_small(after, DIFF_LIMIT) if after is not None else b""
    if old_bytes is None or new_bytes is None:
        return 0, 0
    import difflib

    old = old_bytes.decode("utf-8", errors="replace").splitlines()
    new = new_bytes.decode("utf-8", errors="replace").splitlines()
    added = removed = 0
    for line in difflib.unified_diff(old, new, lineterm="", n=0):
        if line.startswith("+") and not line.startswith("+++"):
            added += 1
        elif line.startswith("-") and not line.startswith("---"):
            removed += 1
    return added, removed
