"""The global state file Claude Code keeps beside its settings: `<config>/.claude.json`
when CLAUDE_CONFIG_DIR is set, else `~/.claude.json`. It holds per-project state under
`projects["/abs/path"]` (trust, local-scope MCP servers) and user-scope MCP servers.

    read_state(config)            the object (empty when missing or unreadable)
    update_state(config, change)  read, change in place, write whole; a file that is not
                                  valid JSON is never overwritten (OSError says why)
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any


def global_state_path(config: Path) -> Path:
    if os.environ.get("CLAUDE_CONFIG_DIR"):
        return config / ".claude.json"
    return Path.home() / ".claude.json"


def read_state(config: Path) -> dict[str, Any]:
    try:
        data = json.loads(global_state_path(config).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def project_key(cwd: Path) -> str:
    """How a folder is named under `projects`."""
    return str(Path(os.path.realpath(cwd)))


def update_state(config: Path, change: Callable[[dict[str, Any]], None]) -> None:
    from cc.atomic import write_atomic

    path = global_state_path(config)
    data: dict[str, Any] = {}
    if path.exists():
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            raise OSError(f"{path} is not valid JSON; not overwriting it") from None
        data = loaded if isinstance(loaded, dict) else {}
    change(data)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(data, indent=2) + "\n")
