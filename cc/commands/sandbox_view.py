"""/sandbox: the Bash sandbox's state, as plain lines."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from cc.commands.context import CommandContext, CommandResult


async def sandbox_command(ctx: CommandContext, args: str) -> CommandResult:
    from cc.sandbox.bwrap import INSTALL_HINT, find_bubblewrap

    sandbox = getattr(ctx.runtime, "sandbox", None)
    found = await asyncio.to_thread(sandbox.bubblewrap if sandbox else find_bubblewrap)
    if found.usable:
        ctx.say(f"bubblewrap:   {found.path} (version {found.version or 'unknown'})")
    else:
        ctx.say(f"bubblewrap:   unavailable: {found.problem}; {INSTALL_HINT}")
    if sandbox is None:
        ctx.say('Sandbox:      disabled (turn it on with "sandbox": {"enabled": true} in '
                "settings)")
        return CommandResult()
    cfg = sandbox.config
    if found.usable:
        state = "enabled: Bash commands run in the sandbox"
    elif cfg.fail_if_unavailable:
        state = "enabled but unavailable: Bash commands are refused (failIfUnavailable)"
    else:
        state = "enabled but unavailable: Bash commands run unsandboxed"
    ctx.say(f"Sandbox:      {state}")
    ctx.say(f"Auto-allow:   {'on' if cfg.auto_allow else 'off'} (autoAllowBashIfSandboxed)")
    ctx.say("Unsandboxed:  " + ("allowed with approval (dangerouslyDisableSandbox)"
                                if cfg.allow_unsandboxed else "never (allowUnsandboxedCommands)"))
    ctx.say("Network:      " + ("only " + ", ".join(cfg.allowed_domains) + " (through a proxy)"
                                if cfg.allowed_domains else "none"))
    _paths(ctx, "Writable folders (plus a private /tmp and the session's temp folder):",
           cfg.writable)
    _paths(ctx, "Read-only inside them (denyWrite, Edit deny rules):", cfg.deny_write)
    _paths(ctx, "Denied reads (denyRead, Read deny rules):", cfg.deny_read)
    _paths(ctx, "Allowed reads inside denied ones (allowRead):", cfg.allow_read)
    _paths(ctx, "Excluded commands (run outside, with normal permissions):",
           cfg.excluded_commands)
    return CommandResult()


def _paths(ctx: CommandContext, title: str, items: Sequence[object]) -> None:
    ctx.say(title)
    for item in items or ["(none)"]:
        ctx.say(f"  {item}")
