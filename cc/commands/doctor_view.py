"""/doctor: the health report of `cc doctor` (`cc.app.doctor`), with the MCP servers as
this session has them."""

from __future__ import annotations

import asyncio
import os

from cc.commands.context import CommandContext, CommandResult

__all__ = ["doctor_command"]


async def doctor_command(ctx: CommandContext, args: str) -> CommandResult:
    from cc.app.auth_status import session_state
    from cc.app.doctor import diagnose

    hub = ctx.runtime.mcp
    states = hub.statuses() if hub is not None else []
    report = await asyncio.to_thread(diagnose, ctx.cwd, ctx.config_dir, dict(os.environ),
                                     mcp_states=states,
                                     auth=session_state(ctx.runtime.credentials))
    ctx.say("cc doctor", style="bold")
    ctx.say("")
    for line in report.lines:
        style = "red" if line.lstrip().startswith("✗") else None
        ctx.say(line, style=style)
    return CommandResult()
