"""Who an agent is: one form, `AgentInfo`, for everything that says who acts.

The factory gives each sub-agent's engine its `AgentInfo` (from its spec): its requests
carry its id, its hooks' inputs its id and type (a teammate's and a named agent's, their
name and team), its sidechain lines its id (and name and team), its tools read it
through their services (`cc.agents.control.AgentControl.identity`). The session's main
agent has none. A leaf module: hooks, session, core and team all read it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["AgentInfo"]


@dataclass(frozen=True)
class AgentInfo:
    """Who a sub-agent is, as its events, records, hooks and lines name it."""

    agent_id: str
    agent_type: str
    description: str
    #: The Agent call that started it.
    parent_tool_use_id: str
    background: bool = False
    prompt: str = ""
    #: A named agent's (or a teammate's) name, which SendMessage reaches it by.
    name: str | None = None
    #: A teammate's team (None: a named agent of no team, or a plain sub-agent).
    team: str | None = None
