"""FileHistory: one session's checkpoints, kept as Claude Code keeps them.

    before_prompt(id)        a prompt is sent: snapshot every tracked file (a file as
                             its last backup has it keeps that backup)
    before_write(paths)      a tool is about to change these files: back up each one
                             the current checkpoint does not hold yet (absent: None)
    plan(id) / rewind(id)    what going back to before prompt `id` changes; doing it

Backups go to `<config>/file-history/<session-id>/`, and each snapshot and addition
becomes a line of the transcript (`records`), so `load()` rebuilds the history of a
resumed session. Without a transcript the history lives in memory only. Shell
commands are not tracked: only what the file tools change.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cc.session.file_history import backups, rewind
from cc.session.file_history.records import (
    Backup,
    Snapshot,
    delta_line,
    read_lines,
    snapshot_line,
)
from cc.session.lines import iso_timestamp

LineSink = Callable[[list[dict[str, Any]]], None]
NO_CHECKPOINT = "No file checkpoint found for this message."


def history_folder(config: Path, session_id: str) -> Path:
    return config / "file-history" / session_id


class FileHistory:
    def __init__(self, folder: Path, cwd: Path, write_lines: LineSink | None = None, *,
                 snapshots: Sequence[Snapshot] = (),
                 clock: Callable[[], datetime] | None = None) -> None:
        self.folder = folder
        self.cwd = cwd
        self.write_lines = write_lines
        self.snapshots: list[Snapshot] = list(snapshots)
        self._clock = clock or (lambda: datetime.now(UTC))
        self._lock = asyncio.Lock()

    @classmethod
    def load(cls, folder: Path, cwd: Path, lines: Iterable[dict[str, Any]],
             write_lines: LineSink | None = None) -> tuple[FileHistory, list[str]]:
        """The history that transcript `lines` record, and what could not be read."""
        snapshots, warnings = read_lines(lines)
        return cls(folder, cwd, write_lines, snapshots=snapshots), warnings

    # -- what the session asks ---------------------------------------------------------

    def has(self, message_id: str) -> bool:
        return self._index(message_id) is not None

    @property
    def tracked(self) -> list[str]:
        seen: dict[str, None] = {}
        for snap in self.snapshots:
            seen.update(dict.fromkeys(snap.backups))
        return list(seen)

    async def before_prompt(self, message_id: str) -> None:
        async with self._lock:
            snap = await asyncio.to_thread(self._snapshot, message_id)
            self.snapshots.append(snap)
            self._emit(snapshot_line(snap))

    async def before_write(self, paths: Sequence[Path]) -> None:
        """Back up `paths` before a tool changes them (no checkpoint yet: nothing to do)."""
        async with self._lock:
            if not self.snapshots:
                return
            current = self.snapshots[-1]
            for path in paths:
                key = self._key(path)
                if key in current.backups:
                    continue
                backup = await asyncio.to_thread(self._backup, key, self._next_version(key))
                current.backups[key] = backup
                self._emit(delta_line(current.message_id, current.message_id, key, backup))

    async def plan(self, message_id: str) -> rewind.RewindPlan | str:
        """What a rewind to before prompt `message_id` would change, or why it cannot."""
        index = self._index(message_id)
        if index is None:
            return NO_CHECKPOINT
        chosen = rewind.targets(self.snapshots, index)
        where = {key: self._path(key) for key in chosen}
        try:
            return await asyncio.to_thread(rewind.plan, self.folder, chosen, where)
        except OSError as exc:
            return f"Could not compare the files with their checkpoint: {exc}"

    async def turn_changes(self, message_id: str) -> list[tuple[str, int, int]]:
        """What tools changed in the turn of prompt `message_id`: (file, lines added,
        lines removed) each; none for a prompt with no checkpoint."""
        index = self._index(message_id)
        if index is None:
            return []
        where = {key: self._path(key) for key in self.tracked}
        try:
            return await asyncio.to_thread(rewind.turn_changes, self.folder, self.snapshots,
                                           index, where)
        except OSError:
            return []  # a summary only: the rewind itself says what is wrong

    async def rewind(self, message_id: str) -> rewind.RewindPlan | str:
        """Put the tracked files back as they were before prompt `message_id`; what was
        changed, or why nothing could be (a file that could not be written is named)."""
        async with self._lock:
            planned = await self.plan(message_id)
            if isinstance(planned, str):
                return planned
            problems = await asyncio.to_thread(rewind.apply, self.folder, planned)
            return "; ".join(problems) if problems else planned

    # -- inside ------------------------------------------------------------------------

    def _emit(self, line: dict[str, Any]) -> None:
        if self.write_lines is not None:
            self.write_lines([line])

    def _index(self, message_id: str) -> int | None:
        for i in range(len(self.snapshots) - 1, -1, -1):
            if self.snapshots[i].message_id == message_id:
                return i
        return None

    def _key(self, path: Path) -> str:
        path = path if path.is_absolute() else self.cwd / path
        try:
            return str(path.relative_to(self.cwd))
        except ValueError:
            return str(path)

    def _path(self, key: str) -> Path:
        path = Path(key)
        return path if path.is_absolute() else self.cwd / path

    def _latest(self, key: str) -> Backup | None:
        for snap in reversed(self.snapshots):
            if key in snap.backups:
                return snap.backups[key]
        return None

    def _next_version(self, key: str) -> int:
        versions = [s.backups[key].version for s in self.snapshots if key in s.backups]
        return max(versions, default=0) + 1

    def _snapshot(self, message_id: str) -> Snapshot:
        """Blocking: a snapshot of every tracked file for the prompt `message_id`."""
        snap = Snapshot(message_id, iso_timestamp(self._clock()))
        for key in self.tracked:
            latest = self._latest(key)
            if latest is not None and backups.same(self.folder, latest.backup_file_name,
                                                   self._path(key)):
                snap.backups[key] = latest
            else:
                snap.backups[key] = self._backup(key, self._next_version(key))
        return snap

    def _backup(self, key: str, version: int) -> Backup:
        """Blocking: save the file `key` as it is now, as its `version`."""
        path = self._path(key)
        name = backups.save(self.folder, path, version)
        parent = str(path.parent.resolve())
        return Backup(name, version, iso_timestamp(self._clock()), parent)
