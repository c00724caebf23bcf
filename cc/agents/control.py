"""What an agent's tools may do with agents: the `agents` service (`cc.tools.services`).

    identity, is_fork     who this agent is (None: the session's main agent)
    table, main_table     this agent's agents, and the main conversation's
    launch(...)           a finished sub-agent engine for an Agent call (`SubagentRun`)
    team                  the team the session leads (TeamCreate sets it)
    model, session_id     what a team's files record of its leader

It stands on the session (`AgentHost`: its folders, tool pool, team, and `fork`, the
factory's one way to derive an engine), so the tools above never hold the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from cc.agents.definitions import AgentDefinition
    from cc.agents.subagent import AgentRequest, SubagentRun
    from cc.core.events import AgentInfo
    from cc.core.news import NewsSource
    from cc.core.query_engine import QueryEngine
    from cc.core.spec import AgentSpec
    from cc.prompts.builder import PromptSection
    from cc.tools.agent_tasks import AgentTasks
    from cc.tools.base import ToolContext
    from cc.tools.registry import ToolRegistry


class AgentHost(Protocol):
    """The session, as agents see it (`cc.app.session.Session`)."""

    @property
    def cwd(self) -> Path: ...

    @property
    def config_dir(self) -> Path: ...

    @property
    def settings(self) -> Any: ...

    memory_dir: Path | None
    tool_pool: ToolRegistry | None
    #: The team the session leads (a `cc.team.session.TeamSession`), or None.
    team: Any

    @property
    def engine(self) -> QueryEngine: ...

    async def fork(self, parent: QueryEngine, spec: AgentSpec, *,
                   inherit_tools: bool = False) -> QueryEngine: ...


class AgentControl:
    def __init__(self, engine: QueryEngine, host: AgentHost) -> None:
        self._engine = engine
        self.host = host

    @property
    def identity(self) -> AgentInfo | None:
        return self._engine.agent

    @property
    def is_fork(self) -> bool:
        return self._engine.is_fork

    @property
    def table(self) -> AgentTasks | None:
        return self._engine.executor.ctx.agent_tasks

    @property
    def main_table(self) -> AgentTasks | None:
        """The main conversation's agents (a named agent's letters go there)."""
        return self.host.engine.executor.ctx.agent_tasks

    @property
    def team(self) -> Any:
        return self.host.team

    @team.setter
    def team(self, value: Any) -> None:
        self.host.team = value

    @property
    def model(self) -> str:
        return self._engine.model

    @property
    def session_id(self) -> str:
        return self._engine.session_id

    @property
    def engine(self) -> QueryEngine:
        """The agent's engine, for the team's leader wiring (`cc.team`) only."""
        return self._engine

    async def launch(self, definition: AgentDefinition, request: AgentRequest, *,
                     extra_tools: Sequence[str] = (),
                     extra_system: Sequence[PromptSection] = (),
                     mailbox: NewsSource | None = None,
                     team: str | None = None) -> SubagentRun:
        """A sub-agent for `request`, its engine finished (nothing runs yet); `team`: a
        teammate's."""
        from cc.agents.subagent import launch

        return await launch(self._engine, self.host, definition, request,
                            extra_tools=extra_tools, extra_system=extra_system,
                            mailbox=mailbox, team=team)


def agent_control(ctx: ToolContext) -> AgentControl:
    """The `agents` service of the agent a tool runs in."""
    from cc.tools.base import ToolUnavailable

    control = ctx.services().agents
    if control is None:
        raise ToolUnavailable("this agent cannot start or reach agents")
    return cast(AgentControl, control)
