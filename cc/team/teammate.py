"""Spawning a teammate: an Agent call that names a team and a member.

A teammate is a background sub-agent with a name: its system prompt is the agent type's
and a teammate note, it gets SendMessage (and no Agent, team or question tools), its
identity (`cc.identity.AgentInfo`: its name and team, its id) is its engine's, its inbox
feeds its requests, and the team's config follows its status: active while it works,
idle (or failed) when a run ends (a letter wakes it), stopped when TaskStop ends it,
done once its shutdown was approved. A run that fails or is stopped hands the tasks it
owned and had not completed back to the team's list, and the leader's notification says
which.
"""

from __future__ import annotations

from string import Template
from typing import TYPE_CHECKING

from cc.team.config import NAME, Member, ended_status
from cc.team.session import team_of
from cc.tools.base import ToolContext, ToolResult

if TYPE_CHECKING:
    from cc.agents.tool import AgentInput, AgentTool


async def spawn_teammate(tool: AgentTool, inp: AgentInput, ctx: ToolContext) -> ToolResult:
    from cc.agents.background import run_in_background
    from cc.agents.control import agent_control
    from cc.agents.subagent import AgentRequest
    from cc.agents.tool import DEFAULT_TYPE
    from cc.core.news import Source
    from cc.prompts import load_text
    from cc.prompts.builder import PromptSection

    control = agent_control(ctx)
    session = team_of(ctx)
    if session is None or (inp.team_name and inp.team_name != session.name):
        wanted = inp.team_name or "(none named)"
        return ToolResult.error(f"No team {wanted!r} here: create it with TeamCreate first.")
    name = inp.name or ""
    if not NAME.match(name):
        return ToolResult.error("A teammate needs a name: letters, digits, '-' and '_', "
                                "at most 64, starting with a letter or digit.")
    config = session.files.load()
    if config is not None and config.member(name) is not None:
        return ToolResult.error(f"Team {session.name!r} has a member named {name!r} already.")
    definition = tool.catalog.get(inp.subagent_type or DEFAULT_TYPE)
    if definition is None or definition.inherits_context:
        return ToolResult.error(tool.catalog.not_found(inp.subagent_type or DEFAULT_TYPE))
    note = Template(load_text("team/teammate.md").strip()).substitute(name=name,
                                                                      team=session.name)
    request = AgentRequest(inp.description, inp.prompt, ctx.tool_use_id or "",
                           model=inp.model, background=True, name=name)
    run = await control.launch(definition, request, extra_tools=("SendMessage",),
                               extra_system=[PromptSection("team", note, cacheable=False)],
                               mailbox=Source(lambda: session.delivered(name)),
                               team=session.name)
    session.files.upsert(Member(name, definition.agent_type, run.engine.model, "active",
                                run.agent_id))
    session.members[name] = run.agent_id

    def after(status: str) -> str | None:
        ended = ended_status(status)
        session.files.set_status(name, "done" if run.closing else ended)
        session.went_idle(name, "done" if run.closing else ended)
        if status == "completed":
            return None
        return session.release_tasks(name, run.agent_id)  # it crashed: its work is free

    async def on_idle() -> str | None:
        hooks = run.engine.hooks
        return await hooks.teammate_idle(name, session.name) if hooks is not None else None

    return run_in_background(run, ctx, after=after, on_idle=on_idle, name=name)
