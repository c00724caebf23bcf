"""Key bindings of the REPL prompt.

    Enter            send (a trailing "\\" continues on a new line instead)
    Meta+Enter, Esc Enter, Shift+Enter (where the terminal reports it), Ctrl+J   new line
    Esc              interrupt the running turn; in a dialog: No, and stop the turn / cancel
    Esc Esc          on an empty input, while idle: /rewind
    Ctrl+C           interrupt, or clear the input; twice within 1 s: exit
    Ctrl+D           exit, on an empty input
    Shift+Tab        cycle permission modes
    In a dialog: ↑/↓ and Enter, or the option's number.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from prompt_toolkit.application import get_app
from prompt_toolkit.filters import Condition, is_searching
from prompt_toolkit.input.ansi_escape_sequences import ANSI_SEQUENCES
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

if TYPE_CHECKING:
    from cc.ui.repl.screen import Screen

DOUBLE_PRESS_S = 1.0
#: Sequences terminals send for Shift+Enter / Alt+Enter, read as Ctrl+J (a new line).
NEWLINE_SEQUENCES = ("\x1b[13;2u", "\x1b[27;2;13~", "\x1b\r", "\x1b[13;3u")


def register_newline_sequences() -> None:
    for seq in NEWLINE_SEQUENCES:
        ANSI_SEQUENCES.setdefault(seq, Keys.ControlJ)


def build_key_bindings(screen: Screen) -> KeyBindings:
    kb = KeyBindings()
    dialogs = screen.dialogs
    in_dialog = Condition(lambda: dialogs.current is not None)
    choosing = Condition(
        lambda: dialogs.current is not None and not dialogs.current.typing_feedback
    )
    busy = Condition(lambda: screen.busy)

    def start_feedback(event: KeyPressEvent) -> None:
        pending = dialogs.current
        if pending is not None and pending.typing_feedback:
            pending.saved_input = event.current_buffer.document
            event.current_buffer.reset()

    def end_feedback(event: KeyPressEvent, text: str) -> None:
        pending = dialogs.current
        saved = pending.saved_input if pending is not None else None
        dialogs.give_feedback(text)
        event.current_buffer.reset(saved)

    @kb.add("enter", filter=~is_searching)
    def _enter(event: KeyPressEvent) -> None:
        buf = event.current_buffer
        pending = dialogs.current
        if pending is not None:
            if pending.typing_feedback:
                end_feedback(event, buf.text)
            elif dialogs.pick():
                start_feedback(event)
            return
        state = buf.complete_state
        if state is not None and state.current_completion is not None:
            buf.apply_completion(state.current_completion)
            if not buf.text.startswith("/"):
                return
        text = buf.text
        if text.endswith("\\") and buf.cursor_position == len(text):
            buf.delete_before_cursor(1)
            buf.insert_text("\n")
            return
        if not text.strip():
            return
        buf.append_to_history()
        buf.reset()
        screen.submit(text)

    @kb.add("c-j")
    @kb.add("escape", "enter")
    def _newline(event: KeyPressEvent) -> None:
        if not dialogs.current or dialogs.current.typing_feedback:
            event.current_buffer.insert_text("\n")

    def stop_at_dialog(event: KeyPressEvent) -> None:
        """Esc / Ctrl-C on a dialog: a picker is cancelled; a permission is refused and the
        turn ends, back at the prompt (a reason being typed stays there, to send or edit)."""
        pending = dialogs.current
        if pending is None:
            return
        if pending.request is None:
            if pending.typing_feedback:  # the person's input, as it was before
                event.current_buffer.reset(pending.saved_input)
            dialogs.cancel()
            return
        if pending.typing_feedback:
            buf = event.current_buffer
            saved = pending.saved_input.text if pending.saved_input is not None else ""
            text = "\n".join(t for t in (saved, buf.text) if t.strip())
            buf.reset()
            buf.insert_text(text)
            pending.typing_feedback = False
        screen.refuse()

    @kb.add("escape", filter=(in_dialog | busy) & ~is_searching, eager=True)
    def _escape(event: KeyPressEvent) -> None:
        if dialogs.current is not None:
            stop_at_dialog(event)
        else:
            screen.interrupt()

    empty = Condition(lambda: not get_app().current_buffer.text)

    @kb.add("escape", "escape", filter=~in_dialog & ~busy & empty & ~is_searching)
    def _rewind(event: KeyPressEvent) -> None:
        screen.submit("/rewind")

    @kb.add("c-c", filter=~is_searching, eager=True)
    def _ctrl_c(event: KeyPressEvent) -> None:
        now = time.monotonic()
        double, screen.last_ctrl_c = now - screen.last_ctrl_c < DOUBLE_PRESS_S, now
        if double:
            screen.request_exit()
            return
        if dialogs.current is not None:
            stop_at_dialog(event)
        elif screen.busy:
            screen.interrupt()
        elif event.current_buffer.text:
            event.current_buffer.reset()
        screen.flash("Press Ctrl-C again to exit")

    @kb.add("c-d", filter=~is_searching)
    def _ctrl_d(event: KeyPressEvent) -> None:
        buf = event.current_buffer
        if buf.text:
            buf.delete(1)
        elif dialogs.current is None:
            screen.request_exit()

    @kb.add("s-tab")
    def _cycle_mode(event: KeyPressEvent) -> None:
        screen.cycle_mode()

    @kb.add("up", filter=choosing)
    def _up(event: KeyPressEvent) -> None:
        dialogs.move(-1)

    @kb.add("down", filter=choosing)
    def _down(event: KeyPressEvent) -> None:
        dialogs.move(1)

    @kb.add("space", filter=choosing)
    def _toggle(event: KeyPressEvent) -> None:
        dialogs.toggle()

    for n in range(1, 10):
        _add_number(kb, n, choosing, dialogs, start_feedback)

    @kb.add(Keys.Any, filter=choosing)
    def _swallow(event: KeyPressEvent) -> None:
        """While a dialog waits for a choice, typing does not go into the input."""

    return kb


def _add_number(
    kb: KeyBindings, n: int, choosing: Condition, dialogs: object, start: object
) -> None:
    @kb.add(str(n), filter=choosing)
    def _number(event: KeyPressEvent) -> None:
        if dialogs.pick(n - 1):  # type: ignore[attr-defined]
            start(event)  # type: ignore[operator]
