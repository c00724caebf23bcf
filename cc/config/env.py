"""Reading switches from the environment, as Claude Code does."""

from __future__ import annotations


def truthy(value: str | None) -> bool:
    """Whether an environment switch is on: 1, true, yes or on (any case, spaces aside)."""
    return (value or "").strip().lower() in {"1", "true", "yes", "on"}
