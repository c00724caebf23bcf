"""Whether a configured server may start from this folder, as `mcp list` and `mcp get`
report it.

    ready     may start: every local and user server, a project one once approved
    pending   a .mcp.json server that nobody has approved or refused yet
    rejected  a .mcp.json server named in disabledMcpjsonServers
    disabled  turned off for this project (disabledMcpServers in the project's state)

Approval reads `enableAllProjectMcpServers`, `enabledMcpjsonServers` and
`disabledMcpjsonServers` from the settings. The folder's own settings files count only
once the folder is trusted, so a cloned repository cannot approve its own servers. Older
state files keep the approvals in the project's entry of the global state; those count
(in a trusted folder) where the settings say nothing. `forget_choices` clears the
approvals from both places (`mcp reset-project-choices`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from cc.mcp.config import ServerEntry, approval

__all__ = ["APPROVAL_KEYS", "Choices", "Standing", "forget_choices", "project_choices"]

Standing = Literal["ready", "pending", "rejected", "disabled"]
APPROVAL_KEYS = ("enabledMcpjsonServers", "disabledMcpjsonServers", "enableAllProjectMcpServers")


@dataclass(frozen=True)
class Choices:
    """What this folder's settings and state say about its servers."""

    settings: Mapping[str, Any]
    turned_off: frozenset[str] = frozenset()

    def standing(self, entry: ServerEntry) -> Standing:
        if entry.name in self.turned_off:
            return "disabled"
        if entry.scope != "project":
            return "ready"
        verdict = approval(entry.name, self.settings.get)
        if verdict is None:
            return "pending"
        return "ready" if verdict else "rejected"


def project_choices(cwd: Path, config: Path) -> tuple[Choices, list[str]]:
    """The folder's choices, and the warnings of settings files that did not read."""
    from cc.config.global_state import project_key, read_state
    from cc.config.settings import SOURCES, load_settings
    from cc.config.trust import is_trusted

    trusted = is_trusted(config, cwd)
    settings = load_settings(cwd, config, sources=SOURCES if trusted else ("user",))
    chosen = {key: settings.get(key) for key in APPROVAL_KEYS if settings.get(key) is not None}
    projects = read_state(config).get("projects")
    entry = projects.get(project_key(cwd)) if isinstance(projects, dict) else None
    entry = entry if isinstance(entry, dict) else {}
    if trusted:
        for key in APPROVAL_KEYS:
            if key not in chosen and entry.get(key) is not None:
                chosen[key] = entry[key]
    off = entry.get("disabledMcpServers")
    turned_off = frozenset(n for n in off if isinstance(n, str)) if isinstance(off, list) else frozenset()
    return Choices(chosen, turned_off), settings.warnings


def forget_choices(cwd: Path, config: Path) -> str | None:
    """Drop the approval keys from the folder's `.claude/settings.local.json` and from
    its entry in the global state (files without them are left alone); None, or what
    could not be done."""
    from cc.config.global_state import project_key, read_state, update_state
    from cc.config.settings import edit_settings_file, settings_paths

    path = settings_paths(cwd, config)["local"]
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    except OSError as exc:
        return f"Could not read {path}: {exc.strerror or exc}"
    if any(f'"{key}"' in text for key in APPROVAL_KEYS):  # never made, nor rewritten, idly

        def drop(data: dict[str, Any]) -> None:
            for key in APPROVAL_KEYS:
                data.pop(key, None)

        problem = edit_settings_file(path, drop)
        if problem is not None:
            return problem
    key = project_key(cwd)
    projects = read_state(config).get("projects")
    entry = projects.get(key) if isinstance(projects, dict) else None
    if isinstance(entry, dict) and entry.keys() & set(APPROVAL_KEYS):

        def forget(data: dict[str, Any]) -> None:
            held = data.get("projects", {}).get(key)
            for name in APPROVAL_KEYS if isinstance(held, dict) else ():
                held.pop(name, None)

        try:
            update_state(config, forget)
        except OSError as exc:
            return f"Could not write the global state: {exc}"
    return None
