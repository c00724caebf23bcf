"""Who is acting: a teammate's identity, carried in a context variable so that tools,
hooks, transcripts and logs of its task know it without being told."""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass

from cc.team.config import LEAD


@dataclass(frozen=True)
class Identity:
    name: str
    team: str
    agent_id: str | None = None


current: ContextVar[Identity | None] = ContextVar("cc_team_identity", default=None)


def sender_name() -> str:
    """The acting member's name: a teammate's, else the leader's."""
    who = current.get()
    return who.name if who is not None else LEAD
