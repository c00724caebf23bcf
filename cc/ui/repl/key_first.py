"""A key's echo is drawn at once, ahead of whatever else waits on the event loop.

prompt_toolkit redraws for a key the way it redraws for anything: `invalidate()` queues
the redraw behind the callbacks already waiting (and postpones it further while more keep
coming, up to `max_render_postpone_time`). With agents streaming, the queue ahead holds
their SSE steps, a few milliseconds each, so a key waited for all of them. Here the key
processor draws what the keys changed as soon as they are processed, and the redraw that
was queued for them finds nothing left to draw.

`key_first(app)` makes a PromptSession's application work this way (the session builds
the `Application` itself, so its class is swapped after it is made).
"""

from __future__ import annotations

from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.eventloop.utils import call_soon_threadsafe
from prompt_toolkit.key_binding.key_processor import KeyProcessor

__all__ = ["KeyFirstApplication", "key_first"]


class KeyFirstApplication(Application[Any]):
    """An Application whose queued redraw is skipped when nothing is owed any more.

    (prompt_toolkit's `min_redraw_interval` is not honoured: the REPL leaves it unset and
    throttles its own redraws, see cc.ui.repl.redraw.)"""

    #: A change asked for a redraw that has not been drawn yet.
    owed = False

    def invalidate(self) -> None:
        """As prompt_toolkit's: one redraw queued at a time, postponed while other
        callbacks wait (up to `max_render_postpone_time`); thread-safe."""
        if not self._is_running or self.loop is None or self.loop.is_closed():
            return
        self.owed = True
        if self._invalidated:
            return
        self._invalidated = True
        self.loop.call_soon_threadsafe(self.on_invalidate.fire)
        call_soon_threadsafe(self._draw_queued, max_postpone_time=self.max_render_postpone_time,
                             loop=self.loop)

    def _draw_queued(self) -> None:
        self._invalidated = False
        if self.owed:
            self._redraw()

    def _redraw(self, render_as_done: bool = False) -> None:
        self.owed = False
        super()._redraw(render_as_done)

    def draw_owed(self) -> None:
        """Draw now what is owed (the keys just processed changed the screen)."""
        if self.owed:
            self._redraw()


class KeyFirstProcessor(KeyProcessor):
    """Draws what the keys changed once they are processed, not after the queue."""

    def process_keys(self) -> None:
        super().process_keys()
        from prompt_toolkit.application import get_app

        app = get_app()
        if isinstance(app, KeyFirstApplication):
            app.draw_owed()


def key_first(app: Application[Any]) -> None:
    """Turn `app` (made by prompt_toolkit, not yet running) into a KeyFirstApplication."""
    app.__class__ = KeyFirstApplication
    app.key_processor.__class__ = KeyFirstProcessor
