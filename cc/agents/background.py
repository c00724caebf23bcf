"""Agents in the background, and agents that continue: a run started as an asyncio task
(the Agent tool's `run_in_background`, a teammate), announced by a `<task-notification>`
when it ends, and started again by `continue_agent` (SendMessage) with its conversation
intact. `Continuation` is the handle the agent table keeps of each."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cc.tools.base import ToolContext, ToolResult

if TYPE_CHECKING:
    from cc.agents.subagent import SubagentRun
    from cc.core.events import Event
    from cc.tools.agent_tasks import AgentTask, AgentTasks

#: How many times in a row idle hooks may send an agent back to work.
MAX_IDLE_NUDGES = 8


@dataclass
class Continuation:
    """An agent of the session that may run again: its run, and what each of its runs
    does last (`after`: how it ended; what it returns is added to the notification's
    result)."""

    run: SubagentRun
    after: Callable[[str], str | None] | None = None
    #: Asked when a run has ended well and no message waits: a text that keeps the
    #: agent going (a teammate's TeammateIdle hooks), or None.
    on_idle: Callable[[], Awaitable[str | None]] | None = None

    async def work(self, table: AgentTasks, entry: AgentTask, prompt: str | None) -> None:
        """One background run (the first when `prompt` is None), then more for as long
        as messages arrived too late for the run before; the notification last."""
        run = self.run
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
                      after: Callable[[str], str | None] | None = None,
                      on_idle: Callable[[], Awaitable[str | None]] | None = None,
                      name: str | None = None) -> ToolResult:
    """Start `run` as a background task; `after` gets how it ended (and may add a note to
    its notification)."""
    from cc.tools.agent_tasks import AgentTask

    table = ctx.agent_tasks
    if table is None:
        return ToolResult.error("This session cannot run agents in the background.")
    output = _output_file(run, ctx)
    entry = AgentTask(run.agent_id, run.request.description, run.request.tool_use_id, output,
                      name=name, agent_type=run.info.agent_type, prompt=run.request.prompt)
    handle = Continuation(run, after, on_idle)
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
