"""The mcp commands that change the configuration: add, add-json, remove,
reset-project-choices. Each entry is checked with `parse_server` before it is written,
so a file never receives one that a session would refuse to load.

Output lines, for scripts that read them (their shape follows Claude Code's):

    Added stdio MCP server NAME with command: CMD ARGS to SCOPE config
    Added HTTP MCP server NAME with URL: URL to SCOPE config     (SSE likewise)
    Added TYPE MCP server NAME to SCOPE config                   (add-json)
    Removed MCP server "NAME" from SCOPE config
    File modified: PATH [project: FOLDER]

Problems go to stderr with exit code 1.
"""

from __future__ import annotations

import json
import re
from typing import Any

from cc.mcp.cli import PROGRAM, Context
from cc.mcp.config import SCOPES, FileScope, parse_server
from cc.mcp.store import Place, add_entry, place, read_scope, remove_entry
from cc.subcommand_args import Parsed

NAME = re.compile(r"[A-Za-z0-9_-]+")
TRANSPORTS = {"stdio": "stdio", "http": "http", "streamable-http": "http", "sse": "sse"}
#: Header names whose values `add` does not echo.
SECRET_HEADER = re.compile(r"auth|token|secret|cookie|passw(or)?d|credential|bearer|api[-_]?key",
                           re.IGNORECASE)
LABELS = {"stdio": "stdio", "http": "HTTP", "sse": "SSE"}


def run_add(parsed: Parsed, ctx: Context) -> int:
    name, target = parsed.positionals["name"], parsed.positionals["command-or-url"]
    scope = _scope(parsed, ctx, default="local")
    transport = TRANSPORTS.get(parsed.values.get("transport", "stdio"))
    if scope is None or not _name_ok(name, ctx):
        return 1
    if transport is None:
        ctx.err(f'Unknown transport "{parsed.values["transport"]}": use stdio, http or sse.')
        return 1
    if "client_secret" in parsed.flags:
        ctx.err("cc does not take OAuth client secrets yet (--client-secret).")
        return 1
    raw = (_stdio_entry(target, parsed, ctx) if transport == "stdio"
           else _remote_entry(transport, target, parsed, ctx))
    if raw is None:
        return 1
    where = place(scope, ctx.cwd, ctx.config)
    if not _write(where, name, raw, ctx):
        return 1
    if transport == "stdio":
        shown = " ".join([target, *parsed.rest])
        ctx.out(f"Added stdio MCP server {name} with command: {shown} to {scope} config")
    else:
        ctx.out(f"Added {LABELS[transport]} MCP server {name} with URL: {target} "
                f"to {scope} config")
        if raw.get("headers"):
            hidden = {k: "[REDACTED]" if SECRET_HEADER.search(k) else v
                      for k, v in raw["headers"].items()}
            ctx.out("Headers: " + json.dumps(hidden, indent=2, ensure_ascii=False))
    ctx.out(f"File modified: {where.describe()}")
    return 0


def _stdio_entry(command: str, parsed: Parsed, ctx: Context) -> dict[str, Any] | None:
    env: dict[str, str] = {}
    for item in parsed.lists.get("env", []):
        key, sep, value = item.partition("=")
        if not sep or not key:
            ctx.err(f'Bad -e value "{item}": write each variable as KEY=value.')
            return None
        env[key] = value
    if re.match(r"https?://", command) and "transport" not in parsed.values:
        name = parsed.positionals["name"]
        ctx.err(f'Note: "{command}" looks like a URL, but without --transport it is added '
                f"as a stdio command.\nFor a remote server: {PROGRAM} mcp add --transport "
                f"http {name} {command} (or --transport sse).")
    if parsed.values.keys() & {"client_id", "callback_port"}:
        ctx.err("Note: --client-id and --callback-port apply to HTTP and SSE servers only; "
                "ignored.")
    return {"type": "stdio", "command": command, "args": list(parsed.rest), "env": env}


def _remote_entry(transport: str, url: str, parsed: Parsed, ctx: Context
                  ) -> dict[str, Any] | None:
    headers: dict[str, str] = {}
    for item in parsed.lists.get("header", []):
        key, sep, value = item.partition(":")
        if not sep or not key.strip():
            ctx.err(f'Bad -H value "{item}": write each header as "Name: value".')
            return None
        headers[key.strip()] = value.strip()
    raw: dict[str, Any] = {"type": transport, "url": url}
    if headers:
        raw["headers"] = headers
    oauth: dict[str, Any] = {}
    if "client_id" in parsed.values:
        oauth["clientId"] = parsed.values["client_id"]
    if "callback_port" in parsed.values:
        port = parsed.values["callback_port"]
        if not port.isdigit() or not 0 < int(port) < 65536:
            ctx.err(f'Bad --callback-port "{port}": give a port number (1-65535).')
            return None
        oauth["callbackPort"] = int(port)
    if oauth:
        raw["oauth"] = oauth
    return raw


def run_add_json(parsed: Parsed, ctx: Context) -> int:
    name, text = parsed.positionals["name"], parsed.positionals["json"]
    scope = _scope(parsed, ctx, default="local")
    if scope is None or not _name_ok(name, ctx):
        return 1
    if "client_secret" in parsed.flags:
        ctx.err("cc does not take OAuth client secrets yet (--client-secret).")
        return 1
    if text == "-":
        text = ctx.read_stdin()
    try:
        raw = json.loads(text)
    except ValueError as exc:
        ctx.err(f"Invalid configuration: not valid JSON ({exc}).")
        return 1
    if not isinstance(raw, dict):
        ctx.err("Invalid configuration: the entry must be a JSON object.")
        return 1
    where = place(scope, ctx.cwd, ctx.config)
    if not _write(where, name, raw, ctx):
        return 1
    ctx.out(f"Added {raw.get('type', 'stdio')} MCP server {name} to {scope} config")
    return 0


def _write(where: Place, name: str, raw: dict[str, Any], ctx: Context) -> bool:
    """Check the entry as a session would read it, then add it to its scope."""
    config, notes = parse_server(name, raw, {})
    if config is None:
        ctx.err(f"Invalid configuration: {'; '.join(notes)}.")
        return False
    problem = add_entry(where, name, raw, ctx.config)
    if problem:
        ctx.err(problem)
        return False
    return True


def run_remove(parsed: Parsed, ctx: Context) -> int:
    name = parsed.positionals["name"]
    if "scope" in parsed.values:
        scope = _scope(parsed, ctx, default="local")
        if scope is None:
            return 1
        where = place(scope, ctx.cwd, ctx.config)
    else:
        holders = [w for w in (place(s, ctx.cwd, ctx.config) for s in SCOPES)
                   if name in read_scope(w, ctx.config)[0]]
        if not holders:
            ctx.err(f'No MCP server named "{name}" in the local, project or user config.')
            return 1
        if len(holders) > 1:
            lines = [f'The MCP server "{name}" is in more than one scope:']
            lines += [f"  {w.scope}: {w.describe()}" for w in holders]
            lines += ["Name the one to remove:"]
            lines += [f"  {PROGRAM} mcp remove {name} -s {w.scope}" for w in holders]
            ctx.err("\n".join(lines))
            return 1
        where = holders[0]
    problem = remove_entry(where, name, ctx.config)
    if problem:
        ctx.err(problem)
        return 1
    ctx.out(f'Removed MCP server "{name}" from {where.scope} config')
    ctx.out(f"File modified: {where.describe()}")
    return 0


def run_reset_project_choices(parsed: Parsed, ctx: Context) -> int:
    from cc.mcp.standing import forget_choices

    problem = forget_choices(ctx.cwd, ctx.config)
    if problem:
        ctx.err(problem)
        return 1
    ctx.out("This folder's approvals and refusals of .mcp.json servers are cleared; "
            "each server will be asked about again.")
    return 0


def _scope(parsed: Parsed, ctx: Context, *, default: FileScope) -> FileScope | None:
    value = parsed.values.get("scope", default)
    for scope in SCOPES:
        if value == scope:
            return scope
    ctx.err(f'Unknown scope "{value}": use local, project or user.')
    return None


def _name_ok(name: str, ctx: Context) -> bool:
    if NAME.fullmatch(name):
        return True
    ctx.err(f'Invalid server name "{name}": use only letters, digits, hyphens and '
            "underscores.")
    return False
