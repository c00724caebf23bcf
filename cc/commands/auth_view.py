"""/login and /logout: cc signs in to no account, so both say how the key is configured
and which one this session uses; /logout adds how to stop using it."""

from __future__ import annotations

import os

from cc.commands.context import CommandContext, CommandResult

__all__ = ["login_command", "logout_command"]


def _current(ctx: CommandContext) -> str:
    from cc.app.auth_status import auth_state

    creds = ctx.runtime.credentials
    if creds.from_helper:
        return "This session uses the key printed by apiKeyHelper."
    if creds.api_key:
        return "This session uses ANTHROPIC_API_KEY."
    if creds.auth_token:
        return "This session uses ANTHROPIC_AUTH_TOKEN."
    if auth_state(os.environ, ctx.runtime.settings.merged).logged_in:
        return "A key is configured, but this session started without one: restart cc."
    return "This session has no key: nothing can be sent to the model until one is set."


async def login_command(ctx: CommandContext, args: str) -> CommandResult:
    from cc.app.auth_status import HOW_TO_AUTHENTICATE

    for line in HOW_TO_AUTHENTICATE:
        ctx.say(line)
    ctx.say(_current(ctx), style="bold")
    ctx.say("A key set or changed now takes effect when cc starts again.", style="dim")
    return CommandResult()


async def logout_command(ctx: CommandContext, args: str) -> CommandResult:
    ctx.say("cc keeps no login to sign out of: it uses the key it is given.")
    ctx.say(_current(ctx), style="bold")
    ctx.say("To stop using a key, unset ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN (or remove "
            "it from the settings' \"env\") and the apiKeyHelper setting, then restart cc.",
            style="dim")
    return CommandResult()
