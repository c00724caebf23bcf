"""The team tools: TeamCreate (the leader's second wiring) and TeamDelete; SendMessage is
`cc.agents.send_message`, re-wired with the team."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, ClassVar

from pydantic import ConfigDict

from cc.identity import current
from cc.team.config import LEAD, TeamFiles
from cc.team.session import TEAM_TOOLS, TeamSession, team_of
from cc.tools.base import Tool, ToolContext, ToolInput, ToolResult, optional_without_null

if TYPE_CHECKING:
    from cc.core.query_engine import QueryEngine


class TeamCreateInput(ToolInput):
    model_config = ConfigDict(extra="forbid", json_schema_extra=optional_without_null)

    team_name: str
    description: str | None = None


class TeamCreateTool(Tool):
    name = "TeamCreate"
    input_model: ClassVar[type[ToolInput]] = TeamCreateInput

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, TeamCreateInput)
        engine = ctx.engine()
        runtime = engine.runtime
        if runtime is None or engine.agent is not None:
            return ToolResult.error("Only the session's main agent can create a team.")
        if runtime.team is not None:
            return ToolResult.error(f"This session leads the team {runtime.team.name!r} "
                                    "already; delete it with TeamDelete first.")
        try:
            files = TeamFiles(runtime.config_dir, inp.team_name)
            files.create(inp.description or "", engine.model, engine.session_id)
        except (ValueError, OSError) as exc:
            return ToolResult.error(f"Could not create the team: {exc}")
        session = TeamSession(files, engine)
        runtime.team = session
        wire_leader(engine, session)
        data = {"team_name": files.team, "team_file_path": str(files.config_path),
                "lead_agent_id": LEAD}
        note = (f"You now lead the team {files.team!r}. Start teammates with the Agent tool, "
                f"giving team_name {files.team!r} and a name for each; they work in the "
                "background and report with SendMessage, and their messages reach you as "
                "<agent-message> blocks. Talk to them with SendMessage (to a name, or \"*\" "
                "for all). When the work is done and every teammate has finished, end the "
                "team with TeamDelete.")
        return ToolResult(json.dumps(data) + "\n\n" + note, data=data,
                          summary=f"Created team {files.team}")


def wire_leader(engine: QueryEngine, session: TeamSession) -> None:
    """The second wiring: the team tools join the leader's, SendMessage re-registered
    with the team bound into it (the next request's tool list changes once), and its
    inbox feeds its requests."""
    from cc.agents.send_message import SendMessageTool

    engine.registry.pop("SendMessage")
    engine.registry.register(SendMessageTool(session, "tools/SendMessage_team.md"))
    engine.registry.register(TeamDeleteTool())
    engine.notification_sources.append(session.lead_letters)
    engine.news_waiting.append(session.lead_has_mail)


def unwire_leader(engine: QueryEngine, session: TeamSession) -> None:
    """The team is gone: its tools and its inbox leave the leader, and SendMessage goes
    back to the session's agents only."""
    from cc.agents.send_message import SendMessageTool

    for name in TEAM_TOOLS:
        engine.registry.pop(name)
    engine.registry.register(SendMessageTool())
    engine.notification_sources.remove(session.lead_letters)
    engine.news_waiting.remove(session.lead_has_mail)


class TeamDeleteInput(ToolInput):
    pass


class TeamDeleteTool(Tool):
    name = "TeamDelete"
    input_model: ClassVar[type[ToolInput]] = TeamDeleteInput

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        engine = ctx.engine()
        session = team_of(engine)
        if session is None or engine.runtime is None:
            return ToolResult.error("Only the team's leader can delete it, and there is no "
                                    "team here.")
        if current.get() is not None:
            return ToolResult.error("Only the team's leader can delete it.")
        config = session.files.load()
        active = [m.name for m in config.active] if config else []
        if active:
            return ToolResult.error(f"Team {session.name!r} still has members at work: "
                                    f"{', '.join(active)}. Wait for them to finish (or stop "
                                    "them with TaskStop), then delete it.")
        await session.delete()
        unwire_leader(engine, session)
        engine.runtime.team = None
        data = {"success": True, "team_name": session.name}
        return ToolResult(json.dumps(data), data=data, summary=f"Deleted team {session.name}")
