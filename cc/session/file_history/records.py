"""Snapshots and backups, and the transcript lines that carry them.

A snapshot is taken when a prompt is sent: for each file tracked so far, the backup of
its state at that moment. A file a tool changes for the first time during the turn
joins the snapshot of that turn's prompt with a backup of its state just before the
change (`None`: it did not exist). Claude Code writes the first as a
`file-history-snapshot` line and the second as a `file-history-delta` line:

    {"type": "file-history-snapshot", "messageId": <prompt uuid>, "isSnapshotUpdate": false,
     "snapshot": {"messageId", "trackedFileBackups": {<path>: <backup>}, "timestamp"}}
    {"type": "file-history-delta", "messageId", "snapshotMessageId": <prompt uuid>,
     "trackingPath": <path>, "backup": <backup>, "timestamp"}
    backup: {"backupFileName": "<sha256(abs path)[:16]>@v<n>" | null, "version": <n>,
             "backupTime", "realParentDir"}

A tracking path is relative to the working folder when the file lies inside it. A
delta's `messageId` is its checkpoint's here (Claude Code writes the id of the assistant
message whose call made the change, which cc does not know yet when the call runs;
what a rewind needs is `snapshotMessageId`).
`read_lines()` rebuilds the snapshots from a transcript's lines; a line that does not
parse is skipped and reported, never fatal.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

SNAPSHOT = "file-history-snapshot"
DELTA = "file-history-delta"


@dataclass(frozen=True)
class Backup:
    """One saved state of a file: its backup file's name (None: the file was absent)."""

    backup_file_name: str | None
    version: int
    backup_time: str
    real_parent_dir: str

    def to_json(self) -> dict[str, Any]:
        return {"backupFileName": self.backup_file_name, "version": self.version,
                "backupTime": self.backup_time, "realParentDir": self.real_parent_dir}


@dataclass
class Snapshot:
    """The tracked files as they were when the prompt `message_id` was sent."""

    message_id: str
    timestamp: str
    backups: dict[str, Backup] = field(default_factory=dict)


def snapshot_line(snapshot: Snapshot, *, update: bool = False) -> dict[str, Any]:
    body = {"messageId": snapshot.message_id,
            "trackedFileBackups": {k: b.to_json() for k, b in snapshot.backups.items()},
            "timestamp": snapshot.timestamp}
    return {"type": SNAPSHOT, "messageId": snapshot.message_id, "snapshot": body,
            "isSnapshotUpdate": update}


def delta_line(message_id: str, snapshot_id: str, key: str, backup: Backup) -> dict[str, Any]:
    return {"type": DELTA, "messageId": message_id, "snapshotMessageId": snapshot_id,
            "trackingPath": key, "backup": backup.to_json(), "timestamp": backup.backup_time}


# --- reading (pydantic at the edge) ---------------------------------------------------


class _BackupModel(BaseModel):
    model_config = ConfigDict(extra="ignore")
    backupFileName: str | None
    version: int
    backupTime: str = ""
    realParentDir: str = ""

    def value(self) -> Backup:
        return Backup(self.backupFileName, self.version, self.backupTime, self.realParentDir)


class _SnapshotBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    messageId: str
    trackedFileBackups: dict[str, _BackupModel]
    timestamp: str = ""


class _SnapshotLine(BaseModel):
    model_config = ConfigDict(extra="ignore")
    snapshot: _SnapshotBody
    isSnapshotUpdate: bool = False


class _DeltaLine(BaseModel):
    model_config = ConfigDict(extra="ignore")
    snapshotMessageId: str
    trackingPath: str
    backup: _BackupModel


def read_lines(lines: Iterable[dict[str, Any]]) -> tuple[list[Snapshot], list[str]]:
    """The snapshots the file-history lines among `lines` describe, in order, and what
    could not be read (one sentence per line skipped)."""
    snapshots: list[Snapshot] = []
    warnings: list[str] = []
    for number, line in enumerate(lines, 1):
        kind = line.get("type")
        if kind not in (SNAPSHOT, DELTA):
            continue
        try:
            if kind == SNAPSHOT:
                _apply_snapshot(snapshots, _SnapshotLine.model_validate(line))
            else:
                problem = _apply_delta(snapshots, _DeltaLine.model_validate(line))
                if problem:
                    warnings.append(problem)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            warnings.append(f"A {kind} line (entry {number}) is damaged ({where}: "
                            f"{first['msg']}); it was skipped.")
    return snapshots, warnings


def _apply_snapshot(snapshots: list[Snapshot], line: _SnapshotLine) -> None:
    body = line.snapshot
    snap = Snapshot(body.messageId, body.timestamp,
                    {k: b.value() for k, b in body.trackedFileBackups.items()})
    if line.isSnapshotUpdate:
        for i in range(len(snapshots) - 1, -1, -1):
            if snapshots[i].message_id == snap.message_id:
                snapshots[i] = snap
                return
    snapshots.append(snap)


def _apply_delta(snapshots: list[Snapshot], line: _DeltaLine) -> str | None:
    for snap in reversed(snapshots):
        if snap.message_id == line.snapshotMessageId:
            snap.backups[line.trackingPath] = line.backup.value()
            return None
    return (f"A backup of {line.trackingPath} belongs to a checkpoint that is not on file "
            f"({line.snapshotMessageId}); it was skipped.")
