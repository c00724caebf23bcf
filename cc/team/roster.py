"""The team as its leader's person sees it: each member's state and latest call, and
its conversation (its sidechain transcript). The REPL's status lines and `/team` read
it; nothing here prints.

    state    working (a run is going), idle (its run ended; a letter wakes it),
             done (its shutdown was approved), stopped (TaskStop, or the session
             ended), failed
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cc.team.config import LEAD, ended_status
from cc.team.session import run_of

if TYPE_CHECKING:
    from cc.models.messages import Message
    from cc.team.config import TeamConfig
    from cc.team.session import TeamSession
    from cc.tools.agent_tasks import AgentTask

#: The config's statuses; "active" is a member at work.
_STATUS = {"active": "working", "idle": "idle", "done": "done", "stopped": "stopped",
           "failed": "failed"}


@dataclass(frozen=True)
class MemberView:
    name: str
    state: str
    agent_id: str | None = None
    #: Its latest tool call (name, input), if it made one in this session.
    last_tool: tuple[str, dict[str, Any]] | None = None


def state_of(entry: AgentTask | None, status: str | None) -> str:
    """A member's state from its agent entry (this session's runs) and its config
    status (which also knows `done`)."""
    if entry is not None and entry.status == "running":
        return "working"
    if status is not None and status != "active" and status in _STATUS:
        return _STATUS[status]
    if entry is not None:  # its run ended (the config does not say more)
        return _STATUS[ended_status(entry.status)]
    return _STATUS.get(status or "", status or "unknown")


def roster(session: TeamSession, config: TeamConfig | None = None) -> list[MemberView]:
    """The members other than the leader, in the order they joined."""
    config = config if config is not None else session.files.load()
    if config is None:
        return []
    views = []
    for member in config.members:
        if member.name == LEAD:
            continue
        entry = session.entry(member.name)
        views.append(MemberView(member.name, state_of(entry, member.status),
                                member.agent_id or session.members.get(member.name),
                                entry.last_tool if entry is not None else None))
    return views


def transcript_path(session: TeamSession, name: str) -> Path | None:
    """Where the member's conversation is saved (None: it is not saved)."""
    from cc.agents.subagent import sidechain_path

    run = run_of(session.entry(name))
    if run is not None:
        return run.transcript_path
    config = session.files.load()
    member = config.member(name) if config is not None else None
    if member is None or member.agent_id is None:
        return None
    return sidechain_path(session.leader, member.agent_id)


def conversation(session: TeamSession, name: str) -> list[Message] | None:
    """The member's conversation so far: its sidechain transcript, else (nothing
    saved) its engine's messages; None if neither is known."""
    from cc.session.loader import validate_transcript

    path = transcript_path(session, name)
    if path is not None:
        try:
            data = path.read_bytes()
        except OSError:
            data = None
        if data is not None:
            return validate_transcript(data.split(b"\n"), sidechain=True).messages
    run = run_of(session.entry(name))
    return list(run.engine.messages) if run is not None else None
