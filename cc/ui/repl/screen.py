"""What the REPL shows: the banner, the prompt with the live area above it, the footer.

The screen is up before the session is: start-up's facts (settings, credentials, the
resolved options) are enough to draw it, and the session (tools, hooks, permissions, the
conversation) is built once the prompt shows, while the user can already type. Until the
REPL proper (`cc.ui.repl.app.Repl`) takes over the keys, Enter queues what was typed
(the REPL sends it once it is ready), Ctrl-D and a double Ctrl-C exit, and the rest waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from cc import __version__
from cc.ui.repl.dialogs import Dialogs, Pending
from cc.ui.repl.live import Fragments, Live, live_fragments
from cc.ui.repl.printer import Printer, color_enabled
from cc.ui.repl.redraw import Throttle

if TYPE_CHECKING:
    from prompt_toolkit import PromptSession

    from cc.app.session import StartFacts
    from cc.commands.registry import CommandRegistry
    from cc.ui.repl.prompt_history import ProjectHistory
    from cc.ui.status_line import StatusLine

FLASH_S = 1.5
#: The longest wait for the prompt's first whole drawing before the session opens.
DRAWN_S = 1.0
STYLE = {
    "bottom-toolbar": "noreverse",
    "prompt": "bold",
    "dim": "#8a8a8a",
    "spinner": "#d77757",
    "warning": "#d7af00",
    "mode": "#af87ff",
    "plan": "#5fafaf",
}
_MODE_LABELS = {
    "acceptEdits": ("class:mode", "  ⏵⏵ accept edits on (shift+tab to cycle)"),
    "plan": ("class:plan", "  ⏸ plan mode on (shift+tab to cycle)"),
    "bypassPermissions": ("class:warning", "  ⏵⏵ bypass permissions on (shift+tab to cycle)"),
}
_DEFAULT_LABEL = ("class:dim", "  /help for commands · ! for shell · @ for files · "
                  "shift+tab to cycle modes")


class Keys(Protocol):
    """What the key bindings ask of whoever runs the session (`Repl`)."""

    @property
    def busy(self) -> bool: ...
    @property
    def mode(self) -> str: ...
    @property
    def status_line(self) -> StatusLine | None: ...
    @property
    def commands(self) -> CommandRegistry: ...

    def submit(self, text: str) -> None: ...
    def interrupt(self) -> None: ...
    def refuse(self) -> None: ...
    def cycle_mode(self) -> None: ...
    def session_id(self) -> str: ...


class Screen:
    def __init__(self, facts: StartFacts, dialogs: Dialogs) -> None:
        self.facts = facts
        self.cwd = facts.cwd
        self.dialogs = dialogs
        self.live = Live(on_change=self.invalidate)
        self.printer = Printer()
        self.session: PromptSession[Any] | None = None
        self.history: ProjectHistory | None = None
        #: The REPL, once the session is open (`attach`): the keys and the footer go to it.
        self.repl: Keys | None = None
        #: Shift+Tab pressed before then: the modes cycle once the REPL runs.
        self._cycles = 0
        self.exiting = False
        self.last_ctrl_c = 0.0
        self._flash: tuple[str, float] | None = None
        self._redraw: Throttle | None = None
        self._dialog_cache: tuple[tuple[Any, ...], str] | None = None
        self._whole = asyncio.Event()

    # --- the banner -----------------------------------------------------------------

    def print_header(self) -> None:
        sys.stdout.write(self.header(self.facts.options.model))
        sys.stdout.flush()

    def header(self, model: str, width: int | None = None) -> str:
        from cc.ui.repl.header import header_text

        width = width or shutil.get_terminal_size().columns
        return header_text(__version__, model, self.cwd, self.facts.credentials.present,
                           width, color_enabled())

    # --- the prompt -------------------------------------------------------------------

    def make_session(self) -> PromptSession[Any]:
        from prompt_toolkit.styles import Style

        from cc.commands.vim import editor_mode
        from cc.ui.repl.completion import ReplCompleter, ReplSession
        from cc.ui.repl.keys import build_key_bindings, register_newline_sequences
        from cc.ui.repl.prompt_history import ProjectHistory

        settings, config = self.facts.settings, self.facts.config_dir
        register_newline_sequences()
        self.history = ProjectHistory(config, self.cwd, self._session_id)
        session: PromptSession[Any] = ReplSession(
            vi_mode=editor_mode(config, settings) == "vim",
            message=self._message,
            history=self.history,
            completer=ReplCompleter(
                self._commands, self.cwd,
                respect_gitignore=settings.get("respectGitignore") is not False),
            complete_while_typing=True,
            complete_in_thread=True,  # walking the tree for @paths must not stall typing
            key_bindings=build_key_bindings(self),
            bottom_toolbar=self._footer,
            prompt_continuation="  ",
            style=Style.from_dict(STYLE),
            include_default_pygments_style=False,
            erase_when_done=True,
        )
        session.app.ttimeoutlen = 0.1  # a lone Esc is an Esc after 0.1 s
        session.app.timeoutlen = 0.5
        session.app.after_render += self._rendered
        self.session = session
        return session

    def _rendered(self, app: Any) -> None:
        if app.renderer.height_is_known:
            self._whole.set()

    async def drawn(self, deadline_s: float = DRAWN_S) -> None:
        """Until the prompt is drawn whole, footer and all: prompt_toolkit draws the footer
        once the terminal has told it where the cursor is (the answer to its position
        request); a terminal that never answers gets `deadline_s`."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._whole.wait(), deadline_s)

    def _session_id(self) -> str | None:
        return self.repl.session_id() if self.repl is not None else None

    def _commands(self) -> CommandRegistry | None:
        return self.repl.commands if self.repl is not None else None

    def invalidate(self) -> None:
        """Redraw for a change of the session's: at most every INTERVAL_S (see
        cc.ui.repl.redraw); keys redraw through prompt_toolkit at once."""
        if self.session is None or not self.session.app.is_running:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # another thread: prompt_toolkit's own call is thread-safe
            self.session.app.invalidate()
            return
        if self._redraw is None:
            self._redraw = Throttle(self._redraw_now, loop.time, loop.call_later)
        self._redraw()

    def _redraw_now(self) -> None:
        if self.session is not None and self.session.app.is_running:
            self.session.app.invalidate()

    def flash(self, text: str) -> None:
        self._flash = (text, time.monotonic() + FLASH_S)
        self.invalidate()
        asyncio.get_running_loop().call_later(FLASH_S + 0.05, self.invalidate)

    def prefill(self, text: str) -> None:
        """Put `text` in the input box to edit and send (unless something is typed)."""
        if self.session is not None and not self.session.default_buffer.text:
            buf = self.session.default_buffer
            buf.text = text
            buf.cursor_position = len(text)
        self.invalidate()

    def set_editing_mode(self, mode: str) -> None:
        from prompt_toolkit.enums import EditingMode

        if self.session is not None:
            self.session.editing_mode = EditingMode.VI if mode == "vim" else EditingMode.EMACS

    def request_exit(self) -> None:
        self.exiting = True
        if self.session is not None and self.session.app.is_running:
            self.session.app.exit()

    # --- what the keys do (the REPL's, once it runs) -----------------------------------

    @property
    def busy(self) -> bool:
        return self.repl is not None and self.repl.busy

    @property
    def mode(self) -> str:
        return self.repl.mode if self.repl is not None else self.facts.options.permission_mode

    def submit(self, text: str) -> None:
        if self.repl is not None:
            self.repl.submit(text)
            return
        self.live.queued.append(text)  # sent once the session is open
        self.invalidate()

    def interrupt(self) -> None:
        if self.repl is not None:
            self.repl.interrupt()
            return
        self.take_back_queued()

    def take_back_queued(self) -> None:
        """What waits to be sent goes back into the input, to edit."""
        if self.live.queued and self.session is not None:
            buf = self.session.default_buffer
            buf.text = "\n".join([*self.live.queued, buf.text]).strip("\n")
            buf.cursor_position = len(buf.text)
            self.live.queued.clear()
        self.invalidate()

    def refuse(self) -> None:
        if self.repl is not None:
            self.repl.refuse()
        else:
            self.dialogs.cancel()

    def cycle_mode(self) -> None:
        if self.repl is not None:
            self.repl.cycle_mode()
        else:
            self._cycles += 1

    def attach(self, repl: Keys) -> None:
        """The session is open: from here on the keys and the footer are the REPL's. What
        was pressed meanwhile takes effect, and a `/` typed already gets its completions."""
        self.repl = repl
        if self.history is not None:
            self.history.flush()
        for _ in range(self._cycles):
            repl.cycle_mode()
        self._cycles = 0
        session = self.session
        if session is not None and session.app.is_running:
            buffer = session.default_buffer
            if buffer.text.startswith("/") and buffer.complete_state is None:
                buffer.start_completion(select_first=False)
        self.invalidate()

    # --- drawing ------------------------------------------------------------------------

    def _message(self) -> Fragments:
        from prompt_toolkit.application import get_app

        size = get_app().output.get_size()
        frags = live_fragments(self.live, size.columns, max(6, size.rows - 8))
        pending = self.dialogs.current
        if pending is not None:
            frags += self._dialog_fragments(pending, size.columns)
        frags.append(("class:prompt", "> "))
        return frags

    def _dialog_fragments(self, p: Pending, width: int) -> Fragments:
        from prompt_toolkit.formatted_text import ANSI, to_formatted_text

        # The dialog and its hunks by identity, held by the cache: an id alone could be
        # the next dialog's (a picker answered, freed, and the next one made in its place
        # would be drawn as the old one).
        key = (p, p.hunks, p.selected, p.typing_feedback, tuple(sorted(p.checked)), width)
        cached = self._dialog_cache
        if cached is None or not _same(cached[0], key):
            cached = self._dialog_cache = (key, self.printer.to_ansi(_dialog(p, self.cwd), width))
        return list(to_formatted_text(ANSI(cached[1])))  # type: ignore[arg-type]

    def _footer(self) -> Fragments:
        return [*self._status_fragments(), self._mode_line()]

    def _status_fragments(self) -> Fragments:
        line = self.repl.status_line if self.repl is not None else None
        if line is None or not line.text:
            return []
        from prompt_toolkit.formatted_text import ANSI, to_formatted_text

        pad = " " * (2 + line.config.padding)
        shown = to_formatted_text(ANSI(line.text))
        return [("", pad), *shown, ("", "\n")]  # type: ignore[list-item]

    def _mode_line(self) -> tuple[str, str]:
        if self._flash is not None and time.monotonic() < self._flash[1]:
            return ("class:dim", "  " + self._flash[0])
        return _MODE_LABELS.get(self.mode, _DEFAULT_LABEL)


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Two dialog keys: the dialog and its hunks the same objects, the rest equal."""
    return a[0] is b[0] and a[1] is b[1] and a[2:] == b[2:]


def _dialog(p: Pending, cwd: Path) -> Any:
    """The panel a pending dialog shows."""
    from cc.ui.render import choice_dialog, permission_dialog
    from cc.ui.render_plan import plan_dialog, question_dialog

    if p.kind == "question" and p.question is not None:
        return question_dialog(p.question, p.options, p.selected, p.checked, p.typing_feedback)
    if p.kind == "plan":
        return plan_dialog(p.plan or "", p.plan_path or "", p.options, p.selected)
    if p.kind == "servers":
        from cc.ui.render_mcp import servers_dialog

        return servers_dialog(p.servers, p.title, p.options, p.selected, p.checked)
    if p.request is not None:
        feedback = "" if p.typing_feedback else None
        return permission_dialog(p.request, cwd, p.selected, p.hunks, feedback)
    return choice_dialog(p.title, p.options, p.selected)
