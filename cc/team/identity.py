"""The team's view of who is acting (the identity itself is `cc.identity.current`)."""

from __future__ import annotations

from cc.identity import current
from cc.team.config import LEAD


def sender_name() -> str:
    """The acting member's name: a teammate's, else the leader's."""
    who = current.get()
    return who.name if who is not None else LEAD
