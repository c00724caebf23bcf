"""Reading switches from the environment, as Claude Code does."""

from __future__ import annotations

import os
from collections.abc import Mapping


def truthy(value: str | None) -> bool:
    """Whether an environment switch is on: 1, true, yes or on (any case, spaces aside)."""
    return (value or "").strip().lower() in {"1", "true", "yes", "on"}


def env_number(name: str, default: int, env: Mapping[str, str] | None = None) -> int:
    """A positive whole number from the environment (`default` when unset or not one)."""
    try:
        value = int((os.environ if env is None else env).get(name, ""))
    except ValueError:
        return default
    return value if value > 0 else default
