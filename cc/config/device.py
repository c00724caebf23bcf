"""This installation's device id: a random 64-hex id kept as `userID` in the global state
file (`cc.config.global_state`), as Claude Code keeps its own; requests name it in
`metadata.user_id`."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from cc.config.global_state import read_state, update_state

_KEY = "userID"


def device_id(config: Path) -> str:
    """The id, made and saved on first need (an unwritable state file gets a fresh id
    for this run: a request never fails over it)."""
    known = read_state(config).get(_KEY)
    if isinstance(known, str) and known:
        return known
    made = secrets.token_hex(32)

    def keep(state: dict[str, Any]) -> None:
        nonlocal made
        present = state.get(_KEY)
        if isinstance(present, str) and present:
            made = present  # another process made one meanwhile
        else:
            state[_KEY] = made

    try:
        update_state(config, keep)
    except OSError:
        pass
    return made
