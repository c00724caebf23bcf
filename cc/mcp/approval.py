"""The user's answer about a project's new MCP servers (those `.mcp.json` names), and
where it is kept: `.claude/settings.local.json` of the working folder, as Claude Code
keeps it.

    approved   their names join `enabledMcpjsonServers`
    refused    theirs join `disabledMcpjsonServers`
    all_later  `enableAllProjectMcpServers: true` as well (every server the project
               adds later is approved without asking)

A name answered one way leaves the other list. The hub is told too: approved servers
connect at once, refused ones stay off (`apply`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cc.mcp.hub import McpHub

ENABLED, DISABLED, ALL = "enabledMcpjsonServers", "disabledMcpjsonServers", "enableAllProjectMcpServers"


@dataclass(frozen=True)
class ServerAnswer:
    approved: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()
    all_later: bool = False

    @classmethod
    def refuse_all(cls, names: Sequence[str]) -> ServerAnswer:
        return cls(refused=tuple(names))


def record(path: Path, answer: ServerAnswer) -> str | None:
    """Write `answer` into the settings file at `path`; a warning, or None."""
    from cc.config.settings import edit_settings_file

    def change(data: dict[str, Any]) -> str | None:
        for key, add, drop in ((ENABLED, answer.approved, answer.refused),
                               (DISABLED, answer.refused, answer.approved)):
            current = data.get(key, [])
            if not isinstance(current, list):
                return f"{key} is not a list there"
            kept = [n for n in current if n not in drop]
            kept += [n for n in add if n not in kept]
            if kept or key in data:
                data[key] = kept
        if answer.all_later:
            data[ALL] = True
        return None

    return edit_settings_file(path, change, "; the answer holds for this session only")


def apply(hub: McpHub, answer: ServerAnswer, path: Path) -> list[str]:
    """Start the approved servers, keep the refused ones off, and record the answer;
    the warnings to show."""
    for name in answer.approved:
        hub.enable(name)
    for name in answer.refused:
        hub.refuse(name)
    problem = record(path, answer)
    return [problem] if problem else []
