"""Static output: rendered with rich, printed above the live prompt.

The prompt stays on screen for the whole session; finished output goes above it
through prompt_toolkit's `run_in_terminal`, which erases the prompt, writes, and
draws the prompt again below. rich is imported on first use, not at start-up.
"""

from __future__ import annotations

import io
import os
import shutil
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

Draw = Callable[["Console"], Any]
#: Cursor home, erase the screen, erase the scrollback.
CLEAR_SCREEN = "\x1b[H\x1b[2J\x1b[3J"


def color_enabled() -> bool:
    return not os.environ.get("NO_COLOR")


class Printer:
    def __init__(self, out: Any = None, width: Callable[[], int] | None = None) -> None:
        self._out = out
        self._width = width

    def width(self) -> int:
        if self._width is not None:
            return max(20, self._width())
        from prompt_toolkit.application import get_app_or_none

        app = get_app_or_none()
        if app is not None and app.is_running:
            return max(20, app.output.get_size().columns)
        return max(20, shutil.get_terminal_size().columns)

    def console(self, width: int | None = None) -> Console:
        """A console that renders to a string, styled for this terminal."""
        from rich.console import Console

        return Console(
            file=io.StringIO(),
            width=width or self.width(),
            force_terminal=True,
            color_system="auto" if color_enabled() else None,
            no_color=not color_enabled(),
            highlight=False,
            emoji=False,
            legacy_windows=False,
        )

    def render(self, draw: Draw, width: int | None = None) -> str:
        console = self.console(width)
        draw(console)
        return console.file.getvalue()  # type: ignore[attr-defined,no-any-return]

    def to_ansi(self, renderable: RenderableType, width: int | None = None) -> str:
        return self.render(lambda c: c.print(renderable), width)

    async def print(self, draw: Draw, *, gap: bool = False) -> None:
        """Render `draw` and print it above the prompt (after a blank line if `gap`)."""
        text = self.render(draw)
        await self.write(("\n" if gap else "") + text)

    async def clear(self) -> None:
        """Clear the screen and its scrollback; the prompt is drawn again at the top."""
        await self.write(CLEAR_SCREEN)

    async def write(self, text: str) -> None:
        if not text:
            return
        from prompt_toolkit.application import run_in_terminal

        out = self._out or sys.stdout

        def emit() -> None:
            out.write(text)
            out.flush()

        await run_in_terminal(emit)
