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


#: What `--bare` sets, as Claude Code does; set by hand it means the same.
SIMPLE_ENV = "CLAUDE_CODE_SIMPLE"


def simple_mode(env: Mapping[str, str] | None = None) -> bool:
    """`--bare`: no discovery of hooks, CLAUDE.md, auto memory, MCP servers from files,
    agent and command files, and no attribution lines; what the command line names
    (--settings, --mcp-config, --agents, --system-prompt…) still counts."""
    return truthy((os.environ if env is None else env).get(SIMPLE_ENV))


#: What `--disable-slash-commands` sets: no skills, no command files.
NO_COMMANDS_ENV = "CC_DISABLE_SLASH_COMMANDS"


def commands_disabled(env: Mapping[str, str] | None = None) -> bool:
    return truthy((os.environ if env is None else env).get(NO_COMMANDS_ENV))
