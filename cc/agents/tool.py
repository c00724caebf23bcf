"""The Agent tool (`Task`, its old name, is accepted): start a sub-agent on one task.

In the foreground the call's result is the agent's report; with `run_in_background` it
returns at once, and the agent's end reaches the model as a `<task-notification>` with
its next request. The tool reaches its agent through the `agents` service of the
context's `engine_ref` (`cc.agents.control`).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from string import Template
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import ConfigDict

from cc.tools.base import Tool, ToolContext, ToolInput, ToolResult, optional_without_null

if TYPE_CHECKING:
    from cc.agents.definitions import AgentCatalog
    from cc.agents.subagent import SubagentRun

DEFAULT_TYPE = "general-purpose"
#: The names agents (and teammates) may be given: safe as file names.
AGENT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")


class AgentInput(ToolInput):
    model_config = ConfigDict(extra="forbid", json_schema_extra=optional_without_null)

    description: str
    prompt: str
    subagent_type: str | None = None
    model: Literal["sonnet", "opus", "haiku", "fable"] | None = None
    effort: Literal["low", "medium", "high", "xhigh", "max"] | None = None
    run_in_background: bool | None = None
    isolation: Literal["worktree", "remote"] | None = None
    #: With a team: the member's name and team (shown in the schema once teams are on).
    name: str | None = None
    team_name: str | None = None
    mode: str | None = None


#: What the schema shows only when agent teams are on.
TEAM_FIELDS = ("name", "team_name", "mode")
#: Spawns a teammate for an Agent call that names a team (set by the control plane).
TeammateSpawner = Callable[["AgentTool", AgentInput, ToolContext], Awaitable[ToolResult]]


class AgentTool(Tool):
    name = "Agent"
    aliases = ("Task",)
    input_model: ClassVar[type[ToolInput]] = AgentInput

    def __init__(self, catalog: AgentCatalog) -> None:
        self.catalog = catalog
        #: The tools of the engine this tool serves (for the listing's "Tools: ...").
        self.available: Sequence[str] = ()
        #: Agent teams: who spawns a member (None: teams are off, and the schema hides
        #: `name`, `team_name` and `mode`).
        self.teammates: TeammateSpawner | None = None
        #: Every agent runs in the background (coordinator mode).
        self.background_only = False

    def input_schema(self) -> dict[str, Any]:
        schema = super().input_schema()
        if self.teammates is None:
            schema["properties"] = {k: v for k, v in schema["properties"].items()
                                    if k not in TEAM_FIELDS}
        return schema

    def is_concurrency_safe(self, inp: ToolInput) -> bool:
        return True  # several agents of one message run side by side

    def description(self) -> str:
        from cc.prompts import load_text

        listing = "\n".join(self.catalog.listing(self.available))
        return Template(load_text("tools/Agent.md").strip()).substitute(agent_listing=listing)

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, AgentInput)
        from cc.agents.background import run_in_background
        from cc.agents.control import agent_control
        from cc.agents.named import prompt_note
        from cc.agents.subagent import AgentRequest

        control = agent_control(ctx)
        if control.identity is not None:
            return ToolResult.error("A sub-agent cannot start agents of its own"
                                    + (" (a fork cannot fork again)." if control.is_fork
                                       else "."))
        if inp.team_name or inp.name:
            if self.teammates is None:
                return ToolResult.error("Agent teams are not available in this session.")
            if inp.team_name or control.team is not None:
                return await self.teammates(self, inp, ctx)
            # No team: a named background agent, which SendMessage reaches by its name.
            if not AGENT_NAME.match(inp.name or ""):
                return ToolResult.error("An agent's name is letters, digits, '-' and '_', at "
                                        "most 64, starting with a letter or digit.")
            table = ctx.agent_tasks
            if table is not None and (same := table.find(inp.name or "")) is not None \
                    and same.status == "running":
                return ToolResult.error(f"An agent named {inp.name!r} is at work already "
                                        f"({same.id}).")
        agent_type = inp.subagent_type or DEFAULT_TYPE
        definition = self.catalog.get(agent_type)
        if definition is None:
            return ToolResult.error(self.catalog.not_found(agent_type))
        if inp.isolation is not None:
            return ToolResult.error(f"isolation: {inp.isolation!r} is not supported; run the "
                                    "agent without it.")
        prompt = inp.prompt
        if definition.inherits_context:  # the fork's prompt frames the directive
            prompt = Template(definition.system_prompt).substitute(directive=inp.prompt)
        background = bool(inp.run_in_background or inp.name) or self.background_only
        request = AgentRequest(inp.description, prompt, ctx.tool_use_id or "",
                               model=inp.model, background=background, name=inp.name)
        try:  # a named agent gets SendMessage, and a note saying so
            run = await control.launch(definition, request,
                                       extra_tools=("SendMessage",) if inp.name else (),
                                       extra_system=[prompt_note(inp.name)] if inp.name else [])
        except (ValueError, RuntimeError) as exc:
            return ToolResult.error(f"Could not start the agent: {exc}")
        if inp.name:
            return run_in_background(run, ctx, name=inp.name)
        if request.background:
            return run_in_background(run, ctx)
        try:
            await run.run(ctx.emit)
        except BaseException:
            await run.aclose()
            raise
        content, data, failed = run.hand_back()
        await _keep(run, ctx)
        return ToolResult(content, is_error=failed, data=data, summary=_summary(run))


async def _keep(run: SubagentRun, ctx: ToolContext) -> None:
    """A foreground agent that ended stays, to be continued by SendMessage (a one-shot
    agent, or one the session cannot hold, is closed)."""
    from cc.agents.background import Continuation
    from cc.tools.agent_tasks import AgentTask

    table = ctx.agent_tasks
    if run.definition.one_shot or table is None:
        await run.aclose()
        return
    entry = AgentTask(run.agent_id, run.request.description, run.request.tool_use_id,
                      None, status="completed", result=run.report, announce=False,
                      agent_type=run.info.agent_type, prompt=run.request.prompt)
    entry.handle = Continuation(run)
    table.keep(entry)
    await table.trim()


def _summary(run: SubagentRun) -> str:
    uses = f"{run.tool_uses} tool use" + ("" if run.tool_uses == 1 else "s")
    return f"Done ({uses} · {run.tokens:,} tokens · {run.duration_ms / 1000:.1f}s)"
