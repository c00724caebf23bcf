"""Tab completion: slash commands at the start of the input, `@path` anywhere; and the
prompt session that makes room for the completion menu."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

if TYPE_CHECKING:
    from cc.commands.registry import CommandRegistry

_AT = re.compile(r'(?<!\S)@([^\s"]*)$')
MAX_FILES = 30
FILES_TTL_S = 5.0
#: The most rows prompt_toolkit's completion menu takes (it scrolls past that).
MENU_ROWS = 16


class ReplSession(PromptSession[Any]):
    """A PromptSession that makes room below the input for every row of the completion
    menu, while there is one. prompt_toolkit otherwise gives the menu only the lines left
    below the prompt, none once output has filled the screen; a fixed reserve would keep
    blank lines under the prompt all the time."""

    @property  # type: ignore[override]
    def reserve_space_for_menu(self) -> int:
        state = self.default_buffer.complete_state
        if state is None or not state.completions:
            return 0
        return min(len(state.completions), MENU_ROWS) + 1  # the input line, then the menu

    @reserve_space_for_menu.setter
    def reserve_space_for_menu(self, value: int) -> None:
        """Ignored: the space follows the menu."""


class ReplCompleter(Completer):
    def __init__(self, commands: Callable[[], CommandRegistry | None], cwd: Path, *,
                 respect_gitignore: bool = True) -> None:
        #: The session's commands (None while it opens: no command completes yet).
        self.commands = commands
        self.cwd = cwd
        #: Settings `respectGitignore`: @-completion leaves out what .gitignore ignores.
        self.respect_gitignore = respect_gitignore
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
        commands = self.commands()
        if commands is None:
            return
        for entry in commands.entries():
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
            from cc.input.mentions import project_files

            self._files, self._files_at = project_files(
                self.cwd, respect_gitignore=self.respect_gitignore), now
        return self._files

    def _paths(self, prefix: str) -> Iterable[Completion]:
        files = self.files()
        low = prefix.lower()
        starts = [f for f in files if f.lower().startswith(low)]
        inside = [f for f in files if low in f.lower() and f not in starts] if low else []
        for path in (starts + inside)[:MAX_FILES]:
            yield Completion(path, start_position=-len(prefix), display=path)
