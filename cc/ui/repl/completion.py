"""Tab completion: slash commands at the start of the input, `@path` anywhere."""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from pathlib import Path

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from cc.commands.mentions import project_files
from cc.commands.registry import CommandRegistry

_AT = re.compile(r'(?<!\S)@([^\s"]*)$')
MAX_FILES = 30
FILES_TTL_S = 5.0


class ReplCompleter(Completer):
    def __init__(self, commands: CommandRegistry, cwd: Path) -> None:
        self.commands = commands
        self.cwd = cwd
        self._files: list[str] = []
        self._files_at: float | None = None

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        before = document.text_before_cursor
        if before.startswith("/") and not any(c.isspace() for c in before):
            yield from self._commands(before[1:])
            return
        match = _AT.search(before)
        if match:
            yield from self._paths(match.group(1))

    def _commands(self, prefix: str) -> Iterable[Completion]:
        for entry in self.commands.entries():
            if entry.name.startswith(prefix):
                yield Completion(
                    "/" + entry.name,
                    start_position=-(len(prefix) + 1),
                    display="/" + entry.name,
                    display_meta=entry.description,
                )

    def files(self) -> list[str]:
        now = time.monotonic()
        if self._files_at is None or now - self._files_at > FILES_TTL_S:
            self._files, self._files_at = project_files(self.cwd), now
        return self._files

    def _paths(self, prefix: str) -> Iterable[Completion]:
        files = self.files()
        low = prefix.lower()
        starts = [f for f in files if f.lower().startswith(low)]
        inside = [f for f in files if low in f.lower() and f not in starts] if low else []
        for path in (starts + inside)[:MAX_FILES]:
            yield Completion(path, start_position=-len(prefix), display=path)
