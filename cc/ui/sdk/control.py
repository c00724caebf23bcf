"""The control requests a program sends, and what each answers.

    initialize            what the session offers: commands, models, the output style,
                          the permission mode, the process id
    interrupt             the turn under way ends (as Esc ends it)
    set_permission_mode   through the mode's one owner (the permission checker)
    set_model             through the model's one owner (the engine)
    mcp_status            the MCP servers and their status
    mcp_reconnect         a server connects again
    rewind_files          the files tools changed, back to before a prompt (`rewind_files`)
    anything else         an error response naming it, never a hang
"""

from __future__ import annotations

import os
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from cc import __version__
from cc.ui.sdk.rewind_files import rewind_files
from cc.ui.sdk.wire import ControlRequest

if TYPE_CHECKING:
    from cc.ui.sdk.host import Host

Handler = Callable[["Host", dict[str, Any]], Awaitable[dict[str, Any]]]


async def handle(host: Host, request: ControlRequest) -> dict[str, Any]:
    """The response to `request`; raises `ControlError` for what cannot be done."""
    from cc.ui.sdk.host import ControlError

    handler = HANDLERS.get(request.subtype)
    if handler is None:
        raise ControlError(f"Unsupported control request subtype: {request.subtype}",
                           "unsupported_request")
    return await handler(host, request.body)


async def _initialize(host: Host, body: dict[str, Any]) -> dict[str, Any]:
    from cc.input.custom import load_custom_commands
    from cc.models.catalog import ALIASES, DEFAULT_MODEL, resolve_model

    session = host.session
    problems = _register_hooks(host, body.get("hooks")) + _add_agents(host, body.get("agents"))
    for problem in problems:
        print(f"cc: initialize: {problem}", file=sys.stderr, flush=True)
    commands = [{"name": "compact", "description": "Summarise the conversation so far",
                 "argumentHint": "[instructions]"}]
    for command in load_custom_commands(session.cwd, session.config_dir):
        commands.append({"name": command.name, "description": command.description or "",
                         "argumentHint": command.argument_hint or ""})
    if session.mcp is not None:
        for prompt in session.mcp.prompt_commands():
            commands.append({"name": prompt.name, "description": prompt.description,
                             "argumentHint": prompt.argument_hint})
    models = [{"value": "default", "resolvedModel": resolve_model(DEFAULT_MODEL),
               "displayName": "Default", "description": "The default model"}]
    models += [{"value": alias, "resolvedModel": resolve_model(alias),
                "displayName": alias.capitalize(), "description": resolve_model(alias)}
               for alias in ALIASES if alias not in ("default", "best")]
    return {
        "commands": commands,
        "agents": _agent_list(session),
        "output_style": "default",
        "available_output_styles": ["default"],
        "models": models,
        "account": {},
        "pid": os.getpid(),
        "claude_code_version": __version__,
        "current_permission_mode": session.engine.permission_mode,
    }


def _register_hooks(host: Host, hooks: Any) -> list[str]:
    """The program's hooks (`{Event: [{matcher, hookCallbackIds, timeout}]}`), each a
    hook of every agent that asks the program (`hook_callback`) when it fires."""
    from cc.hooks.config import DEFAULT_TIMEOUT, HOOK_EVENTS, HookCommand, HookMatcher

    if not isinstance(hooks, dict):
        return [] if hooks is None else ["hooks must be an object"]
    problems, matchers = [], []
    for event, groups in hooks.items():
        if event not in HOOK_EVENTS or not isinstance(groups, list):
            problems.append(f"hooks for {event!r} are not understood; skipped")
            continue
        for group in groups:
            ids = group.get("hookCallbackIds") if isinstance(group, dict) else None
            if not isinstance(ids, list):
                problems.append(f"a {event} hook without hookCallbackIds; skipped")
                continue
            timeout = group.get("timeout")
            seconds = float(timeout) if isinstance(timeout, (int, float)) and timeout > 0 \
                else DEFAULT_TIMEOUT
            commands = tuple(HookCommand(f"sdk:{callback_id}", seconds, "sdk",
                                         timeout_set=timeout is not None,
                                         host=_ask_program(host, str(callback_id)))
                             for callback_id in ids)
            matcher = group.get("matcher")
            matchers.append(HookMatcher(event, matcher if isinstance(matcher, str) else None,
                                        commands))
    host.session.add_host_hooks(matchers)
    return problems


def _agent_list(session: Any) -> list[dict[str, str]]:
    catalog = getattr(session.engine.registry.get("Agent"), "catalog", None)
    if catalog is None:
        return []
    return [{"name": name, "description": d.description}
            for name in catalog.names() if (d := catalog.get(name)) is not None]


def _add_agents(host: Host, agents: Any) -> list[str]:
    """The program's sub-agent definitions (`{name: {description, prompt, tools?,
    model?}}`), offered by the Agent tool from now on."""
    if agents is None:
        return []
    if not isinstance(agents, dict):
        return ["agents must be an object"]
    from cc.agents.definitions import add_agents

    catalog = getattr(host.session.engine.registry.get("Agent"), "catalog", None)
    if catalog is None:
        return ["agents given, but this session has no Agent tool"]
    return add_agents(catalog, agents, "initialize")


def _ask_program(host: Host, callback_id: str) -> Any:
    async def ask(payload: dict[str, Any], tool_use_id: str | None) -> dict[str, Any]:
        answer = await host.request({"subtype": "hook_callback", "callback_id": callback_id,
                                     "input": payload, "tool_use_id": tool_use_id})
        if not answer.ok:
            raise RuntimeError(answer.error or "the program's hook failed")
        return answer.body

    return ask


async def _interrupt(host: Host, body: dict[str, Any]) -> dict[str, Any]:
    host.interrupt()
    return {}


async def _set_permission_mode(host: Host, body: dict[str, Any]) -> dict[str, Any]:
    from cc.ui.sdk.host import ControlError

    mode = body.get("mode")
    checker = host.session.permissions
    if not isinstance(mode, str) or checker is None:
        raise ControlError("set_permission_mode needs a mode")
    try:
        checker.mode = mode
    except ValueError as exc:
        raise ControlError(str(exc)) from None
    return {}


async def _set_model(host: Host, body: dict[str, Any]) -> dict[str, Any]:
    from cc.models.catalog import DEFAULT_MODEL, resolve_model

    model = body.get("model")
    chosen = model if isinstance(model, str) and model and model != "default" \
        else DEFAULT_MODEL
    host.session.engine.set_model(resolve_model(chosen))
    return {}


async def _mcp_status(host: Host, body: dict[str, Any]) -> dict[str, Any]:
    hub = host.session.mcp
    servers = []
    for connection in (hub.connections.values() if hub is not None else ()):
        entry: dict[str, Any] = {"name": connection.name, "status": connection.status}
        if connection.listing.server_name:
            entry["serverInfo"] = {"name": connection.listing.server_name,
                                   "version": connection.listing.server_version}
        if connection.error and connection.status == "failed":
            entry["error"] = connection.error
        servers.append(entry)
    return {"mcpServers": servers}


async def _mcp_reconnect(host: Host, body: dict[str, Any]) -> dict[str, Any]:
    from cc.ui.sdk.host import ControlError

    name = body.get("serverName")
    hub = host.session.mcp
    connection = hub.get(name) if hub is not None and isinstance(name, str) else None
    if connection is None:
        raise ControlError(f"No MCP server named {name!r}")
    await connection.reconnected(hub.setup.connect_timeout if hub is not None else 30.0)
    return {}


HANDLERS: dict[str, Handler] = {
    "initialize": _initialize,
    "interrupt": _interrupt,
    "set_permission_mode": _set_permission_mode,
    "set_model": _set_model,
    "mcp_status": _mcp_status,
    "mcp_reconnect": _mcp_reconnect,
    "rewind_files": rewind_files,
}
