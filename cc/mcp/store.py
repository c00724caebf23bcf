"""Where each scope keeps its servers, and adding or removing one there (`mcp add`,
`mcp remove`); reading them all for a session is `cc.mcp.config.load_servers`.

    local    the global state file, projects["<real path of cwd>"].mcpServers
    user     the global state file, top-level mcpServers
    project  .mcp.json in the current folder (only there: reading looks upward too)

A file that is not valid JSON, or whose `mcpServers` is not an object, is never
overwritten; the problem comes back as a value.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cc.config.global_state import global_state_path, project_key, read_state, update_state
from cc.mcp.config import PROJECT_FILE, FileScope, read_json_file

__all__ = ["Place", "add_entry", "place", "read_scope", "remove_entry"]


@dataclass(frozen=True)
class Place:
    """One scope's servers: the file, and (local scope) the project's key in it."""

    scope: FileScope
    path: Path
    project: str | None = None

    def describe(self) -> str:
        return f"{self.path} [project: {self.project}]" if self.project else str(self.path)


def place(scope: FileScope, cwd: Path, config: Path) -> Place:
    if scope == "project":
        return Place(scope, cwd / PROJECT_FILE)
    return Place(scope, global_state_path(config), project_key(cwd) if scope == "local" else None)


def read_scope(where: Place, config: Path) -> tuple[dict[str, Any], str | None]:
    """The entries as written, by name (empty when there are none), or what is wrong
    with the file."""
    if where.scope == "project":
        data, problem = read_json_file(where.path)
        if problem:
            return {}, problem
        data = {} if data is None else data
    else:
        data = read_state(config)
        if where.project is not None:
            projects = data.get("projects", {})
            if not isinstance(projects, dict):
                return {}, f'{where.path}: "projects" is not an object'
            data = projects.get(where.project, {})
    servers = data.get("mcpServers", {}) if isinstance(data, dict) else None
    if not isinstance(servers, dict):
        return {}, f'{where.path}: "mcpServers" is not an object'
    return servers, None


def add_entry(where: Place, name: str, raw: dict[str, Any], config: Path) -> str | None:
    """Add `name` to the scope; None, or why not (it is there already, a bad file)."""
    current, problem = read_scope(where, config)
    if problem:
        return problem
    if name in current:
        return f'An MCP server named "{name}" is already in the {where.scope} config'

    def add(servers: dict[str, Any]) -> None:
        servers[name] = raw

    return _change(where, add, config)


def remove_entry(where: Place, name: str, config: Path) -> str | None:
    current, problem = read_scope(where, config)
    if problem:
        return problem
    if name not in current:
        return f'No MCP server named "{name}" in the {where.scope} config'

    def remove(servers: dict[str, Any]) -> None:
        servers.pop(name, None)

    return _change(where, remove, config)


def _change(where: Place, change: Callable[[dict[str, Any]], None], config: Path) -> str | None:
    if where.scope == "project":
        return _change_project_file(where.path, change)

    def apply(data: dict[str, Any]) -> None:
        holder = data
        if where.project is not None:
            projects = data.setdefault("projects", {})
            holder = projects.setdefault(where.project, {})
        servers = holder.setdefault("mcpServers", {})
        change(servers)

    try:
        update_state(config, apply)
    except OSError as exc:
        return f"Could not write {where.path}: {exc.strerror or exc}"
    return None


def _change_project_file(path: Path, change: Callable[[dict[str, Any]], None]) -> str | None:
    from cc.atomic import write_atomic

    data, problem = read_json_file(path)
    if problem:
        return problem
    data = {} if data is None else data
    if not isinstance(data, dict) or not isinstance(data.setdefault("mcpServers", {}), dict):
        return f'{path}: not an object with an "mcpServers" object; not changing it'
    change(data["mcpServers"])
    try:
        # Written as Claude Code writes it: two-space indents, no newline at the end.
        write_atomic(path, json.dumps(data, indent=2, ensure_ascii=False), mode=0o644)
    except OSError as exc:
        return f"Could not write {path}: {exc.strerror or exc}"
    return None
