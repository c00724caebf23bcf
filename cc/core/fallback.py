"""`--fallback-model a,b`: the models a turn moves to when its model is busy or missing.

What Claude Code 2.1.332 was seen doing against a scripted API, and what this does:

    model not found (a 404     the next model at once          trigger `model_not_found`
    naming the model)
    server error (5xx)         the next model at once          trigger `server_error`
    overloaded (529)           at the third in a row (the      trigger `overloaded`
                               first two are retried as usual)
    rate limit, bad request,   never (the retry layer decides)
    a connection lost

The rest of the turn uses the new model; the next turn starts on the main model again.
A model of the list that is the one in use is skipped; after the last, errors take
their usual course.
"""

from __future__ import annotations

from cc.core.events import ModelFallback
from cc.errors import ModelCallError

__all__ = ["FallbackChain", "ModelFallback"]

#: Overloaded answers in a row after which the turn moves on.
OVERLOADED_BEFORE_SWITCH = 3


class FallbackChain:
    """One turn's way down the `--fallback-model` list."""

    def __init__(self, models: tuple[str, ...]) -> None:
        self._left = list(models)
        self._overloaded = 0

    def after(self, error: ModelCallError, current: str) -> ModelFallback | None:
        """The move `error` calls for while `current` answers, or None to go on as usual."""
        trigger = _trigger(error)
        if trigger == "overloaded":
            self._overloaded += 1
            if self._overloaded < OVERLOADED_BEFORE_SWITCH:
                return None
        if trigger is None:
            return None
        while self._left and self._left[0] == current:
            self._left.pop(0)
        if not self._left:
            return None
        self._overloaded = 0
        return ModelFallback(current, self._left.pop(0), trigger)


def _trigger(error: ModelCallError) -> str | None:
    if error.status == 404 and "model" in error.message.lower():
        return "model_not_found"  # (a 404 about something else is no reason to move)
    if error.kind == "overloaded" or error.status == 529:
        return "overloaded"
    if error.status is not None and error.status >= 500:
        return "server_error"
    return None

