"""The watches behind FileChanged and ConfigChange hooks: which files, and a poll that
fires the event for each change (`cc.hooks.file_watch` says what a change is).

    FileChanged    the file names its matchers list, in the cwd (following the shell),
                   and the `watchPaths` SessionStart, CwdChanged and FileChanged hooks
                   return; matchers test the file name
    ConfigChange   the user, project and local settings files; matchers test the
                   source (user_settings, project_settings, local_settings). cc reads
                   settings at start, so a change applies from the next session.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from cc.hooks.background import Background
from cc.hooks.config import HooksConfig
from cc.hooks.file_watch import POLL_SECONDS, FileWatch, literal_names

#: Fires `(event, payload, matcher value)`; returns the paths its hooks ask to watch.
Fire = Callable[[str, dict[str, Any], str], Awaitable[list[str]]]


class Watches:
    def __init__(self, config: HooksConfig, background: Background, fire: Fire) -> None:
        self._config = config
        self._background = background
        self._fire = fire
        self._files: FileWatch | None = None
        self._settings: dict[Path, str] | None = None

    def files(self, cwd: Path, paths: list[str]) -> None:
        """Watch the FileChanged matchers' names in `cwd`, and `paths`; the first call
        starts the poll."""
        names = [n for m in self._config.matchers if m.event == "FileChanged"
                 for n in literal_names(m.matcher)]
        first = self._files is None
        files = self._files = self._files or FileWatch()
        files.watch_names(names, cwd)
        files.watch_paths(paths)
        if first:
            self._background.start(self._poll(files, self._file_changed))

    def settings(self, paths: dict[str, Path]) -> None:
        """Watch the settings files (`{source: path}`), once."""
        if self._settings is not None:
            return
        self._settings = {Path(p): source for source, p in paths.items()}
        watch = FileWatch()
        watch.watch_paths([str(p) for p in self._settings])
        self._background.start(self._poll(watch, self._config_changed))

    async def _file_changed(self, path: Path, change: str) -> None:
        more = await self._fire("FileChanged", {"file_path": str(path), "event": change},
                                path.name)
        if self._files is not None:
            self._files.watch_paths(more)

    async def _config_changed(self, path: Path, change: str) -> None:
        source = (self._settings or {}).get(path)
        if source is not None:
            await self._fire("ConfigChange", {"source": source, "file_path": str(path)}, source)

    @staticmethod
    async def _poll(watch: FileWatch, fire: Callable[[Path, str], Awaitable[None]]) -> None:
        while True:
            await asyncio.sleep(POLL_SECONDS)
            for path, change in await asyncio.to_thread(watch.changes):
                await fire(path, change)
