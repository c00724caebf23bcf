"""Tab completion: slash commands at the start of the input, `@path` anywhere; and the
prompt session that makes room for the completion menu, completes, validates and suggests
while typing only where it can come to something (elsewhere a key would cost a second redraw, for
nothing), makes its prompt once a render (`split_at_newlines`), and draws a key's echo first
(cc.ui.repl.key_first)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prompt_toolkit import PromptSession
from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.filters import FilterOrBool, is_true
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout.utils import explode_text_fragments

from cc.ui.repl.key_first import key_first

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

    @property  # type: ignore[override]
    def complete_while_typing(self) -> bool:
        """As set, and only while the text before the cursor can be completed."""
        return is_true(self._while_typing) and could_complete(self.default_buffer.document)

    @complete_while_typing.setter
    def complete_while_typing(self, value: FilterOrBool) -> None:
        self._while_typing = value

    @property  # type: ignore[override]
    def validate_while_typing(self) -> bool:
        """As set, when there is a validator (the REPL has none): prompt_toolkit's buffer
        otherwise validates every key against an empty one, and redraws for it."""
        return self.validator is not None and is_true(self._validate_typing)

    @validate_while_typing.setter
    def validate_while_typing(self, value: FilterOrBool) -> None:
        self._validate_typing = value

    #: The prompt's fragments, split into characters, and the render they were made for.
    _prompt_made: tuple[int, StyleAndTextTuples] | None = None

    def _get_prompt(self) -> StyleAndTextTuples:
        """The message (the live area, then "> "), made once a render: prompt_toolkit
        asks for it several times a render (once per input line too)."""
        render = self.app.render_counter
        if self._prompt_made is None or self._prompt_made[0] != render:
            self._prompt_made = (render, split_at_newlines(super()._get_prompt()))
        return self._prompt_made[1]

    def _create_default_buffer(self) -> Buffer:
        buffer = super()._create_default_buffer()
        if self.auto_suggest is None:  # (it asks an empty suggester after every key otherwise)
            buffer.auto_suggest = None
        return buffer

    def _create_application(self, *args: Any, **kwargs: Any) -> Application[Any]:
        app = super()._create_application(*args, **kwargs)
        key_first(app)
        return app


#: prompt_toolkit's mark of a fragment list already split into single characters.
_SPLIT = type(explode_text_fragments([]))


def split_at_newlines(fragments: StyleAndTextTuples) -> StyleAndTextTuples:
    """The fragments with each newline a fragment of its own, marked as split.

    A multi-line message is cut (prompt_toolkit's `_split_multiline_prompt`) into the
    lines above the input and the input line's prefix, at the last newline; all it needs
    is each newline on its own. It splits the message into single characters first unless
    the list is marked as split already, and then draws the lines above one fragment per
    character: with the live area's few hundred characters, that was as much work as the
    rest of a redraw. Marked, whole runs of text stay whole."""
    out: StyleAndTextTuples = []
    for style, text, *rest in fragments:
        for i, part in enumerate(text.split("\n")):
            if i:
                out.append((style, "\n", *rest))  # type: ignore[arg-type]
            if part:
                out.append((style, part, *rest))  # type: ignore[arg-type]
    return _SPLIT(out)


def could_complete(document: Document) -> bool:
    """Whether ReplCompleter may have something for the text before the cursor."""
    before = document.text_before_cursor
    return _command_prefix(before) is not None or _AT.search(before) is not None


def _command_prefix(before: str) -> str | None:
    if before.startswith("/") and not any(c.isspace() for c in before):
        return before[1:]
    return None


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
        prefix = _command_prefix(before)
        if prefix is not None:
            yield from self._commands(prefix)
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
