"""/tasks (alias /bashes): the conversation's background shells and agents, and a way
to stop one (`/tasks stop <id>`, or a pick in the REPL); /todos: the checklist the model
keeps with TodoWrite, then the task list of TaskCreate/TaskUpdate, if it has tasks.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cc.commands.context import CommandContext, CommandResult

if TYPE_CHECKING:
    from cc.tools.agent_tasks import AgentTasks
    from cc.tools.shell.tasks import BackgroundTasks

__all__ = ["tasks_command", "todos_command"]

TODO_MARKS = {"pending": "☐", "in_progress": "◼", "completed": "☒"}


@dataclass(frozen=True)
class Row:
    id: str
    kind: str  #: "shell" or "agent"
    status: str
    label: str
    seconds: float


def _rows(shells: BackgroundTasks | None, agents: AgentTasks | None) -> list[Row]:
    rows = [Row(t.id, "shell", t.status, t.label, time.time() - t.started_at)
            for t in (shells or ())]
    rows += [Row(a.id, "agent", a.status, a.name or a.description,
                 time.monotonic() - a.started_at if a.status == "running" else a.duration_ms / 1000)
             for a in (agents or ()) if a.announce or a.status == "running"]
    return rows


async def tasks_command(ctx: CommandContext, args: str) -> CommandResult:
    tools = ctx.engine.executor.ctx
    shells, agents = tools.tasks, tools.agent_tasks
    words = args.split()
    if words and words[0] == "stop":
        if len(words) != 2:
            ctx.say("Usage: /tasks stop <id>", style="red")
        else:
            await _stop(ctx, words[1], shells, agents)
        return CommandResult()
    rows = _rows(shells, agents)
    if not rows:
        ctx.say("No background tasks in this session.")
        return CommandResult()
    from cc.figures import format_duration

    ctx.say("Background tasks:", style="bold")
    width = max(len(r.id) for r in rows)
    for r in rows:
        ctx.say(f"  {r.id:<{width}}  {r.kind:<5}  {r.status:<9}  {r.label}  "
                f"({format_duration(r.seconds)})")
    running = [r for r in rows if r.status == "running"]
    if running and ctx.choose is not None:
        options = [f"Stop {r.id} · {r.label}" for r in running] + ["Leave them running"]
        index = await ctx.choose("Stop a background task?", options)
        if index is not None and index < len(running):
            await _stop(ctx, running[index].id, shells, agents)
    elif running:
        ctx.say("/tasks stop <id> stops one.", style="dim")
    return CommandResult()


async def _stop(ctx: CommandContext, key: str, shells: BackgroundTasks | None,
                agents: AgentTasks | None) -> None:
    if shells is not None and shells.get(key) is not None:
        stopped = await shells.stop(key)
    elif agents is not None and (agent := agents.find(key)) is not None:
        key = agent.id
        stopped = await agents.stop(agent.id)
    else:
        ctx.say(f"No background task {key}.", style="red")
        return
    ctx.say(f"Stopped {key}." if stopped else f"{key} was not running.")


async def todos_command(ctx: CommandContext, args: str) -> CommandResult:
    tools = ctx.engine.executor.ctx
    todos = tools.todos
    tasks = tools.task_list.list() if tools.task_list is not None else []
    if not todos and not tasks:
        ctx.say("No todos in this conversation.")
        return CommandResult()
    if todos:
        done = sum(t.get("status") == "completed" for t in todos)
        ctx.say(f"Todos ({done}/{len(todos)} done):", style="bold")
        for t in todos:
            ctx.say(f"  {TODO_MARKS.get(t.get('status', ''), '☐')} {t.get('content', '')}")
    if tasks:
        done = sum(t.status == "completed" for t in tasks)
        ctx.say(f"Tasks ({done}/{len(tasks)} done):", style="bold")
        for task in tasks:
            owner = f" ({task.owner})" if task.owner else ""
            ctx.say(f"  {TODO_MARKS.get(task.status, '☐')} #{task.id} {task.subject}{owner}")
    return CommandResult()
