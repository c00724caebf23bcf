"""The before-write stage: the files a call is about to change are backed up first.

The executor runs it once a call is allowed, just before the tool; the engine tells
the same `Checkpoints` when a prompt is sent. The store (`cc.session.file_history`)
implements it; an agent without one changes files untracked. A backup that fails does
not stop the call: the user is told that this change cannot be rewound.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from cc.core.events import Event, Notice
from cc.tools.base import Tool, ToolContext, ToolInput


class Checkpoints(Protocol):
    async def before_prompt(self, message_id: str) -> None:
        """A prompt (the user message `message_id`) is about to start a turn."""
        ...

    async def before_write(self, paths: Sequence[Path]) -> None:
        """A tool is about to change `paths` (absolute)."""
        ...


async def back_up_before_write(
    checkpoints: Checkpoints | None,
    tool: Tool,
    inp: ToolInput,
    ctx: ToolContext,
    emit: Callable[[Event], None] | None,
) -> None:
    if checkpoints is None:
        return
    paths = [ctx.resolve(p) for p in tool.writes(inp)]
    if not paths:
        return
    try:
        await checkpoints.before_write(paths)
    except OSError as exc:
        if emit is not None:
            names = ", ".join(str(p) for p in paths)
            emit(Notice(f"Could not save a checkpoint of {names} ({exc.strerror or exc}); "
                        "this change cannot be rewound.", level="warning"))
