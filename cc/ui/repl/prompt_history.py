"""Up-arrow and Ctrl-R recall over `<config>/history.jsonl` (this project's prompts)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from prompt_toolkit.history import History

from cc.session.history import append_history, load_history


class ProjectHistory(History):
    def __init__(
        self, config_dir: Path, project: Path, session_id: Callable[[], str | None]
    ) -> None:
        super().__init__()
        self.config_dir = config_dir
        self.project = project
        self.session_id = session_id
        #: Prompts sent before the session had an id (it was still opening).
        self._waiting: list[str] = []

    def load_history_strings(self) -> Iterable[str]:
        return list(reversed(load_history(self.config_dir, self.project)))  # newest first

    def store_string(self, string: str) -> None:
        if self.session_id() is None:
            self._waiting.append(string)  # written with the session's id, once it has one
            return
        append_history(self.config_dir, string, self.project, self.session_id())

    def flush(self) -> None:
        """Write what waited for the session's id (with none, if it never came)."""
        waiting, self._waiting = self._waiting, []
        for string in waiting:
            append_history(self.config_dir, string, self.project, self.session_id())
