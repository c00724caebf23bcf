"""Read-only views: /status, /config, /permissions, /hooks."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from cc import __version__
from cc.commands.context import CommandContext, CommandResult


def current_mode(ctx: CommandContext) -> str:
    """The permission mode, as its owner (the engine's permission checker) has it."""
    return ctx.engine.permission_mode


def key_source(ctx: CommandContext) -> str:
    creds = ctx.runtime.credentials
    if creds.api_key:
        return creds.source
    if creds.auth_token:
        return "ANTHROPIC_AUTH_TOKEN"
    return "none (set ANTHROPIC_API_KEY)"


async def status_command(ctx: CommandContext, args: str) -> CommandResult:
    engine, runtime = ctx.engine, ctx.runtime
    rows = [
        ("Version", __version__),
        ("Model", engine.model),
        ("Working folder", str(runtime.cwd)),
        ("Session ID", engine.session_id),
        ("Permission mode", current_mode(ctx)),
        ("API key source", key_source(ctx)),
    ]
    if runtime.credentials.base_url:
        rows.append(("API base URL", runtime.credentials.base_url))
    files = [f"{f.source} ({f.path})" if f.path else f.source for f in runtime.settings.files]
    rows.append(("Setting sources", ", ".join(files) or "none"))
    for label, value in rows:
        ctx.say(f"{label + ':':<17} {value}")
    return CommandResult()


async def config_command(ctx: CommandContext, args: str) -> CommandResult:
    settings = ctx.runtime.settings
    for f in settings.files:
        ctx.say(f"{f.source}: {f.path or '--settings'}", style="dim")
    ctx.say(json.dumps(settings.merged, indent=2, ensure_ascii=False) if settings.merged else "{}")
    return CommandResult()


def _rules(ctx: CommandContext) -> Mapping[str, Sequence[str]]:
    if ctx.services.permission_rules is not None:
        return ctx.services.permission_rules()
    checker = getattr(ctx.runtime, "permissions", None)
    if checker is not None and hasattr(checker, "rules_summary"):
        return checker.rules_summary()  # type: ignore[no-any-return]
    perms = ctx.runtime.settings.get("permissions") or {}
    if not isinstance(perms, dict):
        return {}
    return {k: list(perms.get(k) or []) for k in ("allow", "ask", "deny")}


async def permissions_command(ctx: CommandContext, args: str) -> CommandResult:
    ctx.say(f"Permission mode: {current_mode(ctx)}")
    rules = _rules(ctx)
    for kind in ("allow", "ask", "deny"):
        ctx.say(f"{kind.capitalize()}:")
        listed = list(rules.get(kind) or [])
        for rule in listed:
            ctx.say(f"  {rule}")
        if not listed:
            ctx.say("  (none)", style="dim")
    return CommandResult()


async def hooks_command(ctx: CommandContext, args: str) -> CommandResult:
    if ctx.services.hooks_config is not None:
        config: Any = ctx.services.hooks_config()
    else:
        config = ctx.runtime.settings.get("hooks") or {}
    if not isinstance(config, Mapping) or not config:
        ctx.say("No hooks configured.")
        return CommandResult()
    for event, groups in config.items():
        ctx.say(str(event), style="bold")
        for group in groups if isinstance(groups, list) else []:
            if not isinstance(group, Mapping):
                continue
            matcher = group.get("matcher") or "*"
            for hook in group.get("hooks") or []:
                if isinstance(hook, Mapping):
                    ctx.say(f"  {matcher}  →  {_hook_text(hook)}")
    return CommandResult()


def _hook_text(hook: Mapping[str, Any]) -> str:
    kind = str(hook.get("type", "command"))
    what = hook.get("command") or hook.get("prompt") or hook.get("url") or ""
    timeout = f" (timeout {hook['timeout']}s)" if hook.get("timeout") else ""
    return f"{kind}: {what}{timeout}"
