"""The calls the permission layer refused, kept once for the whole session.

One `DenialLog` belongs to a session: the main agent's engine makes it, and every agent
it starts (foreground or background, fork, teammate, a continued run) is built on the
same log, so a refusal inside an agent is the session's refusal, as Claude Code reports
it in the result record's `permission_denials`. Each entry says which agent's call it was
(`agent_id`, None for the main agent), so an agent still reads its own refusals (its
hand-back lists them) from the one list. An internal agent (memory extraction) keeps a
log of its own: what the harness refuses its own helper is not the user's to act on.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["Denial", "DenialLog"]


@dataclass(frozen=True)
class Denial:
    tool_name: str
    tool_use_id: str
    tool_input: dict[str, Any]
    message: str
    #: The agent whose call it was (None: the session's main agent).
    agent_id: str | None = None


class DenialLog:
    """Refusals in the order they happened; entries are only ever added."""

    def __init__(self) -> None:
        self._entries: list[Denial] = []

    def add(self, denial: Denial) -> None:
        self._entries.append(denial)

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[Denial]:
        return iter(list(self._entries))

    def since(self, index: int) -> list[Denial]:
        """The refusals after the first `index` (what came since a count was taken)."""
        return self._entries[index:]

    def of(self, agent_id: str | None) -> list[Denial]:
        """One agent's refusals (None: the main agent's)."""
        return [d for d in self._entries if d.agent_id == agent_id]
