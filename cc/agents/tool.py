"""The Agent tool (`Task`, its old name, is accepted): start a sub-agent on one task.

In the foreground the call's result is the agent's report; with `run_in_background` it
returns at once, and the agent's end reaches the model as a `<task-notification>` with
its next request. The tool reaches its engine through the context's `engine_ref`.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from string import Template
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import ConfigDict

from cc.tools.base import Tool, ToolContext, ToolInput, ToolResult, optional_without_null

if TYPE_CHECKING:
    from cc.agents.definitions import AgentCatalog
    from cc.agents.subagent import SubagentRun
    from cc.core.events import Event
    from cc.tools.agent_tasks import AgentTask, AgentTasks

DEFAULT_TYPE = "general-purpose"
#: The names agents (and teammates) may be given: safe as file names.
AGENT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
#: How many times in a row idle hooks may send an agent back to work.
MAX_IDLE_NUDGES = 8


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
        from cc.agents.subagent import AgentRequest, launch

        parent = ctx.engine()
        if parent.agent is not None:
            return ToolResult.error("A sub-agent cannot start agents of its own"
                                    + (" (a fork cannot fork again)." if parent.is_fork else "."))
        if inp.team_name or inp.name:
            if self.teammates is None:
                return ToolResult.error("Agent teams are not available in this session.")
            runtime = parent.runtime
            if inp.team_name or (runtime is not None and runtime.team is not None):
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
                               model=inp.model, background=background)
        try:
            run = await launch(parent, definition, request)
        except (ValueError, RuntimeError) as exc:
            return ToolResult.error(f"Could not start the agent: {exc}")
        if request.background:
            return run_in_background(run, ctx, name=inp.name)
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


@dataclass
class Continuation:
    """An agent of the session that may run again: its run, and what each of its runs
    does first (`before`: a teammate sets its identity) and last (`after`: how it
    ended; what it returns is added to the notification's result)."""

    run: SubagentRun
    before: Callable[[], None] | None = None
    after: Callable[[str], str | None] | None = None
    #: Asked when a run has ended well and no message waits: a text that keeps the
    #: agent going (a teammate's TeammateIdle hooks), or None.
    on_idle: Callable[[], Awaitable[str | None]] | None = None

    async def work(self, table: AgentTasks, entry: AgentTask, prompt: str | None) -> None:
        """One background run (the first when `prompt` is None), then more for as long
        as messages arrived too late for the run before; the notification last."""
        run = self.run
        if self.before is not None:
            self.before()
        status, result = "failed", None
        observe = _observer(table, entry)
        try:
            await (run.run(observe) if prompt is None else run.resume(prompt, observe))
            nudges = 0
            while run.status == "completed" and not run.closing:
                late = run.mail()  # messages that came too late for the run before
                if not late and self.on_idle is not None and nudges < MAX_IDLE_NUDGES:
                    nudge = await self.on_idle()
                    nudges += 1
                    late = [nudge] if nudge else []
                if not late:
                    break
                await run.resume("\n\n".join(late), observe)
            status = "completed" if run.status == "completed" else "failed"
            result = run.report or (run.terminal.error if run.terminal else None)
        except asyncio.CancelledError:
            status = "killed"
            raise
        except Exception as exc:  # noqa: BLE001 - reported to the model, not raised
            result = f"{type(exc).__name__}: {exc}"
        finally:
            entry.tokens, entry.tool_uses = run.tokens, run.tool_uses
            if self.after is not None:  # before the news spreads: whoever wakes sees it
                note = self.after(status)
                if note:
                    result = f"{result}\n\n{note}" if result else note
            table.finish(entry, status, result)
            if run.closing:
                await table.forget(entry)
            await table.trim()

    async def aclose(self) -> None:
        await self.run.aclose()


def _observer(table: AgentTasks, entry: AgentTask) -> Callable[[Event], None]:
    """What is learnt of a background run as it goes: each tool it starts (the REPL
    shows a teammate's latest call; nothing of the run is printed)."""
    from cc.core.events import SubagentEvent, ToolStart

    def observe(event: Event) -> None:
        inner = event.event if isinstance(event, SubagentEvent) else event
        if isinstance(inner, ToolStart):
            table.note_tool(entry, inner.tool_use.name, dict(inner.tool_use.input))

    return observe


def continue_agent(table: AgentTasks, entry: AgentTask, prompt: str, tool_use_id: str) -> bool:
    """Start another run of an agent that ended, `prompt` its next message; whether it
    could (False: it is closed for good, or running)."""
    handle = entry.handle
    if not isinstance(handle, Continuation) or handle.run.closed or entry.status == "running":
        return False
    table.restart(entry, tool_use_id, prompt, handle.work(table, entry, prompt))
    return True


def run_in_background(run: SubagentRun, ctx: ToolContext, *,
                      before: Callable[[], None] | None = None,
                      after: Callable[[str], str | None] | None = None,
                      on_idle: Callable[[], Awaitable[str | None]] | None = None,
                      name: str | None = None) -> ToolResult:
    """Start `run` as a background task; `before` runs first inside it (a teammate sets
    its identity there), `after` gets how it ended (and may add a note to its
    notification)."""
    from cc.tools.agent_tasks import AgentTask

    table = ctx.agent_tasks
    if table is None:
        return ToolResult.error("This session cannot run agents in the background.")
    output = _output_file(run, ctx)
    entry = AgentTask(run.agent_id, run.request.description, run.request.tool_use_id, output,
                      name=name, agent_type=run.info.agent_type, prompt=run.request.prompt)
    handle = Continuation(run, before, after, on_idle)
    entry.handle = handle
    table.start(entry, handle.work(table, entry, None))
    lines = [
        "Async agent launched successfully.",
        f"agentId: {run.agent_id}",
        "The agent works in the background, and a notification will arrive when it "
        "finishes. Do not do the same work yourself meanwhile.",
    ]
    if output is not None:
        lines += [f"output_file: {output}",
                  "That file is the agent's raw transcript: do not Read it; its result comes "
                  "with the notification."]
    data = {"isAsync": True, "status": "async_launched", "agentId": run.agent_id,
            "description": run.request.description, "resolvedModel": run.engine.model,
            "prompt": run.request.prompt, "outputFile": str(output) if output else None,
            "canReadOutputFile": output is not None, "canContinueAgent": True}
    return ToolResult("\n".join(lines), data=data, summary=f"Started in the background "
                      f"({run.agent_id})")


def _output_file(run: SubagentRun, ctx: ToolContext) -> Path | None:
    """`<tasks dir>/<agent id>.output`, a link to the agent's sidechain transcript."""
    if ctx.shell is None or run.transcript_path is None:
        return None
    path = ctx.shell.tasks_dir / f"{run.agent_id}.output"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(run.transcript_path, path)
    except OSError:
        return None
    return path
