"""Folder trust: whether the user has said the files in a folder may act.

Until a folder is trusted, the REPL lets none of its project settings take
effect (hooks, env, apiKeyHelper, MCP servers). Answers live in the global
state file, `<config>/.claude.json` when CLAUDE_CONFIG_DIR is set, else
`~/.claude.json`, under `projects.<path>.hasTrustDialogAccepted`, as Claude
Code keeps them. A trusted folder trusts everything below it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cc.config.global_state import global_state_path, project_key, read_state, update_state

__all__ = ["global_state_path", "is_trusted", "set_trusted"]


def is_trusted(config: Path, cwd: Path) -> bool:
    projects = read_state(config).get("projects")
    if not isinstance(projects, dict):
        return False
    folder = Path(project_key(cwd))
    for candidate in (folder, *folder.parents):
        entry = projects.get(str(candidate))
        if isinstance(entry, dict) and entry.get("hasTrustDialogAccepted") is True:
            return True
    return False


def set_trusted(config: Path, cwd: Path) -> None:
    """Remember that `cwd` is trusted (other keys of the state file are kept)."""

    def change(data: dict[str, Any]) -> None:
        projects = data.setdefault("projects", {})
        projects.setdefault(project_key(cwd), {})["hasTrustDialogAccepted"] = True

    update_state(config, change)
