"""Who is acting: a teammate's (or a named agent's) identity, in a context variable set
inside its asyncio task.

Teammates and named agents run as tasks of one process; each task has its own copy of the context, so
whatever runs on a teammate's behalf (its tools, the hooks they fire, the transcript lines
it writes) reads its own identity here without being told, and code outside any teammate
reads None. A leaf module: hooks, session and team all read it, and it imports nothing.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass

__all__ = ["Identity", "current"]


@dataclass(frozen=True)
class Identity:
    name: str
    #: None: a named agent of no team (`cc.agents.named`).
    team: str | None
    agent_id: str | None = None


#: Set by a teammate's task (`cc.team.teammate`) or a named agent's (`cc.agents.named`)
#: before each run; None elsewhere.
current: ContextVar[Identity | None] = ContextVar("cc_identity", default=None)
