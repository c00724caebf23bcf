"""Folder trust: whether the user has said the files in a folder may act.

Until a folder is trusted, the REPL lets none of its project settings take
effect (hooks, env, apiKeyHelper, MCP servers). Answers live in the global
state file, `<config>/.claude.json` when CLAUDE_CONFIG_DIR is set, else
`~/.claude.json`, under `projects.<path>.hasTrustDialogAccepted`, as Claude
Code keeps them. A trusted folder trusts everything below it.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


def global_state_path(config: Path) -> Path:
    if os.environ.get("CLAUDE_CONFIG_DIR"):
        return config / ".claude.json"
    return Path.home() / ".claude.json"


def _load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def is_trusted(config: Path, cwd: Path) -> bool:
    projects = _load(global_state_path(config)).get("projects")
    if not isinstance(projects, dict):
        return False
    folder = Path(os.path.realpath(cwd))
    for candidate in (folder, *folder.parents):
        entry = projects.get(str(candidate))
        if isinstance(entry, dict) and entry.get("hasTrustDialogAccepted") is True:
            return True
    return False


def set_trusted(config: Path, cwd: Path) -> None:
    """Remember that `cwd` is trusted (other keys of the state file are kept)."""
    path = global_state_path(config)
    data = _load(path) if path.exists() else {}
    if path.exists() and not data:
        try:
            json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            raise OSError(f"{path} is not valid JSON; not overwriting it") from None
    projects = data.setdefault("projects", {})
    entry = projects.setdefault(str(Path(os.path.realpath(cwd))), {})
    entry["hasTrustDialogAccepted"] = True
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".claude.json.")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)
    os.replace(tmp, path)
