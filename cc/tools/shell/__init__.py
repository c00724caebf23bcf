"""Shell support for the Bash, TaskOutput and TaskStop tools.

The engine creates one `ShellSession` and one `BackgroundTasks` per conversation, puts
them on the `ToolContext` it builds, and closes them (`await tasks.close()`, then
`shell.close()`) when it closes.
"""

from __future__ import annotations

from cc.tools.shell.session import ShellSession
from cc.tools.shell.tasks import BackgroundTask, BackgroundTasks

__all__ = ["BackgroundTask", "BackgroundTasks", "ShellSession"]
