"""The team tools: TeamCreate (the leader's second wiring) and TeamDelete; SendMessage is
`cc.agents.send_message`, re-wired with the team."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, ClassVar

from pydantic import ConfigDict

from cc.agents.control import agent_control
from cc.team.config import LEAD, TeamFiles
from cc.team.session import TEAM_TOOLS, TeamSession
from cc.tools.base import Tool, ToolContext, ToolInput, ToolResult, optional_without_null

if TYPE_CHECKING:
    from cc.tools.services import Toolset


class TeamCreateInput(ToolInput):
    model_config = ConfigDict(extra="forbid", json_schema_extra=optional_without_null)

    team_name: str
    description: str | None = None


class TeamCreateTool(Tool):
    name = "TeamCreate"
    input_model: ClassVar[type[ToolInput]] = TeamCreateInput

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, TeamCreateInput)
        control = agent_control(ctx)
        if control.identity is not None:
            return ToolResult.error("Only the session's main agent can create a team.")
        if control.team is not None:
            return ToolResult.error(f"This session leads the team {control.team.name!r} "
                                    "already; delete it with TeamDelete first.")
        try:
            files = TeamFiles(control.host.config_dir, inp.team_name)
            files.create(inp.description or "", control.model, control.session_id)
        except (ValueError, OSError) as exc:
            return ToolResult.error(f"Could not create the team: {exc}")
        session = TeamSession(files, control.engine)
        control.team = session
        wire_leader(ctx.services().toolset, session)
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


def wire_leader(toolset: Toolset, session: TeamSession) -> None:
    """The second wiring: the team tools join the leader's, SendMessage re-registered
    with the team bound into it (the next request's tool list changes once). Its inbox
    feeds its requests while the session leads the team (`cc.app.factory`)."""
    from cc.agents.send_message import SendMessageTool

    toolset.register(SendMessageTool(session, "tools/SendMessage_team.md"))
    toolset.register(TeamDeleteTool())


def unwire_leader(toolset: Toolset) -> None:
    """The team is gone: its tools leave the leader, and SendMessage goes back to the
    session's agents only."""
    from cc.agents.send_message import SendMessageTool

    for name in TEAM_TOOLS:
        toolset.remove(name)
    toolset.register(SendMessageTool())


class TeamDeleteInput(ToolInput):
    pass


class TeamDeleteTool(Tool):
    name = "TeamDelete"
    input_model: ClassVar[type[ToolInput]] = TeamDeleteInput

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        control = agent_control(ctx)
        session = control.team
        if session is None or control.identity is not None:
            return ToolResult.error("Only the team's leader can delete it, and there is no "
                                    "team here.")
        config = session.files.load()
        active = [m.name for m in config.active] if config else []
        if active:
            return ToolResult.error(f"Team {session.name!r} still has members at work: "
                                    f"{', '.join(active)}. Wait for them to finish (or stop "
                                    "them with TaskStop), then delete it.")
        await session.delete()
        unwire_leader(ctx.services().toolset)
        control.team = None
        data = {"success": True, "team_name": session.name}
        return ToolResult(json.dumps(data), data=data, summary=f"Deleted team {session.name}")
