"""Shell support for the Bash, TaskOutput and TaskStop tools.

The engine should create one `ShellSession` and one `BackgroundTasks` per
conversation and put them on the `ToolContext` it builds:

    shell = ShellSession(cwd)
    ctx = ToolContext(cwd=cwd, shell=shell, tasks=BackgroundTasks(shell.tasks_dir))
    ...
    await ctx.tasks.close()   # kills background commands
    shell.close()             # removes the temp dir

`session_of` / `tasks_of` create them lazily when missing. Since the executor
hands each call a shallow copy of the context, a lazily made object is also kept
in the shared `ctx.extra`, so later calls find the same one; it is never closed,
though, so the engine should still create them up front.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cc.tools.shell.session import ShellSession
from cc.tools.shell.tasks import BackgroundTask, BackgroundTasks

if TYPE_CHECKING:
    from cc.tools.base import ToolContext

__all__ = ["BackgroundTask", "BackgroundTasks", "ShellSession", "session_of", "tasks_of"]

_SHELL_KEY = "cc.tools.shell.session"
_TASKS_KEY = "cc.tools.shell.tasks"


def session_of(ctx: ToolContext) -> ShellSession:
    """The conversation's shell session, made (and stored on `ctx`) if it has none."""
    if ctx.shell is None:
        shell = ctx.extra.get(_SHELL_KEY)
        if not isinstance(shell, ShellSession) or shell.closed:
            shell = ctx.extra[_SHELL_KEY] = ShellSession(ctx.cwd)
        ctx.shell = shell
    return ctx.shell


def tasks_of(ctx: ToolContext) -> BackgroundTasks:
    """The conversation's background tasks, made (and stored on `ctx`) if it has none."""
    if ctx.tasks is None:
        tasks = ctx.extra.get(_TASKS_KEY)
        if not isinstance(tasks, BackgroundTasks):
            tasks = ctx.extra[_TASKS_KEY] = BackgroundTasks(session_of(ctx).tasks_dir)
        ctx.tasks = tasks
    return ctx.tasks
