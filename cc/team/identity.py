"""The team's view of who is acting: a member's name, or the leader's."""

from __future__ import annotations

from cc.identity import AgentInfo
from cc.team.config import LEAD


def sender_name(who: AgentInfo | None) -> str:
    """The acting member's name: a teammate's, else the leader's."""
    return who.name if who is not None and who.name is not None else LEAD
