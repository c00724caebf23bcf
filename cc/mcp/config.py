"""MCP server configuration as Claude Code reads it.

    scopes    local    ~/.claude.json projects["/abs/proj"].mcpServers (this folder only)
              project  .mcp.json in the folder or above it (approved before it runs)
              user     ~/.claude.json mcpServers (every folder)
              dynamic  --mcp-config files or JSON strings
    order     a name is taken whole from the first scope that has it:
              dynamic > local > project > user (`--strict-mcp-config`: dynamic only)

An entry is stdio unless its `type` says `http` (or `streamable-http`), `sse` or `ws`;
`${VAR}` and `${VAR:-default}` are expanded in `command`, `args`, `env`, `url` and
`headers` (an unset variable without a default stays as written, with a warning). A bad
entry or file is reported (naming the file and the server) and skipped; the rest load.
`scope_servers` reads one scope alone (`mcp list` and `mcp get` weigh them side by side);
`cc.mcp.store` adds and removes entries.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

Scope = Literal["local", "project", "user", "dynamic"]
#: The scopes kept in files (dynamic servers come from flags).
FileScope = Literal["local", "project", "user"]
SCOPES: tuple[FileScope, ...] = ("local", "project", "user")
Transport = Literal["stdio", "http", "sse", "ws", "sdk"]
PROJECT_FILE = ".mcp.json"


@dataclass(frozen=True)
class StdioServer:
    command: str
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    transport: Transport = "stdio"


@dataclass(frozen=True)
class RemoteServer:
    url: str
    transport: Transport = "http"
    headers: Mapping[str, str] = field(default_factory=dict)
    #: `headersHelper`: a shell command printing a JSON object of more headers, run at
    #: each connection (for short-lived tokens).
    headers_helper: str | None = None


@dataclass(frozen=True)
class SdkServer:
    """A server living in the program that drives cc (`"type": "sdk"`, from the Agent
    SDK's `--mcp-config`): reached through the control protocol's `mcp_message`."""

    name: str
    transport: Transport = "sdk"


ServerConfig = StdioServer | RemoteServer | SdkServer


@dataclass(frozen=True)
class ServerEntry:
    """One configured server: its name, how to reach it, where it was found."""

    name: str
    config: ServerConfig
    scope: Scope
    #: The file it came from (None: a JSON string given to --mcp-config).
    origin: Path | None = None
    #: The entry as written (for `mcp get` and `mcp list`).
    raw: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class Found:
    """Servers by name, and what was wrong with the configuration (one line each)."""

    servers: dict[str, ServerEntry] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


def expand(text: str, env: Mapping[str, str], missing: list[str]) -> str:
    """`${VAR}` / `${VAR:-default}` replaced; names of unset variables without a default
    are added to `missing` (and left as written)."""

    def one(match: re.Match[str]) -> str:
        name, default = match.group(1), match.group(2)
        value = env.get(name)
        if value is not None and (value or default is None):
            return value
        if default is not None:
            return default
        missing.append(name)
        return match.group(0)

    return _VAR.sub(one, text)


def parse_server(name: str, raw: Any, env: Mapping[str, str]) -> tuple[ServerConfig | None, list[str]]:
    """A server entry, or None and why not; second, the warnings (unset variables)."""
    if not isinstance(raw, dict):
        return None, ["its entry is not a JSON object"]
    kind = raw.get("type", "stdio")
    missing: list[str] = []

    def text(key: str) -> str | None:
        value = raw.get(key)
        return expand(value, env, missing) if isinstance(value, str) and value.strip() else None

    def table(key: str) -> dict[str, str] | str:
        value = raw.get(key, {})
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            return f'"{key}" must be an object of strings'
        return {str(k): expand(v, env, missing) for k, v in value.items()}

    config: ServerConfig
    if kind == "stdio":
        if "url" in raw and "type" not in raw:
            return None, [f'MCP server "{name}" has a "url" but no "type"']
        command = text("command")
        if command is None:
            return None, ['a stdio server needs a "command"']
        args = raw.get("args", [])
        if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
            return None, ['"args" must be a list of strings']
        environment = table("env")
        if isinstance(environment, str):
            return None, [environment]
        config = StdioServer(command, tuple(expand(a, env, missing) for a in args),
                             environment)
    elif kind in ("http", "streamable-http", "sse", "ws"):
        url = text("url")
        if url is None:
            return None, [f'a server of type "{kind}" needs a "url"']
        headers = table("headers")
        if isinstance(headers, str):
            return None, [headers]
        transport: Transport = "http" if kind == "streamable-http" else kind
        config = RemoteServer(url, transport, headers, text("headersHelper"))
    elif kind == "sdk":
        config = SdkServer(str(raw.get("name") or name))
    else:
        return None, [f'unknown type "{kind}" (stdio, http, sse or ws)']
    warnings = [f"${{{var}}} is not set (no default given)" for var in dict.fromkeys(missing)]
    return config, warnings


def servers_of(data: Any, scope: Scope, origin: Path | None, label: str,
               env: Mapping[str, str], found: Found) -> None:
    """Add the servers of one `{"mcpServers": {...}}` object to `found` (a name already
    there wins)."""
    if not isinstance(data, dict):
        found.problems.append(f"{label}: expected a JSON object")
        return
    servers = data.get("mcpServers", {})
    if not isinstance(servers, dict):
        found.problems.append(f'{label}: "mcpServers" must be an object')
        return
    for name, raw in servers.items():
        config, notes = parse_server(name, raw, env)
        for note in notes:
            found.problems.append(f'{label}: MCP server "{name}": {note}')
        if config is not None and name not in found.servers:
            found.servers[name] = ServerEntry(name, config, scope, origin, raw)


def read_json_file(path: Path) -> tuple[Any, str | None]:
    """The JSON in `path` (None if there is no file), or the problem."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, f"{path}: cannot read it: {exc.strerror or exc}"
    try:
        return json.loads(text), None
    except ValueError as exc:
        return None, f"{path}: not valid JSON: {exc}"


def project_file(cwd: Path) -> Path | None:
    """The nearest `.mcp.json`, in `cwd` or a folder above it."""
    for folder in (cwd, *cwd.parents):
        candidate = folder / PROJECT_FILE
        if candidate.is_file():
            return candidate
    return None


def load_servers(cwd: Path, config_dir: Path, *, flag_configs: Sequence[str] = (),
                 strict: bool = False, env: Mapping[str, str] | None = None) -> Found:
    """Every configured server, by the order above."""
    found = Found()
    for item in flag_configs:
        _flag_config(item, env_or_process(env), found)
    if strict:
        return found
    for scope in SCOPES:
        one = scope_servers(scope, cwd, config_dir, env)
        found.problems += one.problems
        for name, entry in one.servers.items():
            found.servers.setdefault(name, entry)
    return found


def env_or_process(env: Mapping[str, str] | None) -> Mapping[str, str]:
    import os

    return os.environ if env is None else env


def scope_servers(scope: FileScope, cwd: Path, config_dir: Path,
                  env: Mapping[str, str] | None = None) -> Found:
    """The servers of one scope (local, project or user), as they read from `cwd`."""
    from cc.config.global_state import global_state_path, project_key, read_state

    env = env_or_process(env)
    found = Found()
    if scope == "project":
        path = project_file(cwd)
        if path is not None:
            data, problem = read_json_file(path)
            if problem:
                found.problems.append(problem)
            elif data is not None:
                servers_of(data, "project", path, str(path), env, found)
        return found
    state = read_state(config_dir)
    state_path = global_state_path(config_dir)
    if scope == "local":
        projects = state.get("projects", {})
        state = projects.get(project_key(cwd), {}) if isinstance(projects, dict) else {}
    if isinstance(state, dict) and "mcpServers" in state:
        servers_of(state, scope, state_path, f"{state_path} ({scope} scope)", env, found)
    return found


def _flag_config(item: str, env: Mapping[str, str], found: Found) -> None:
    text = item.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except ValueError as exc:
            found.problems.append(f"--mcp-config: not valid JSON: {exc}")
            return
        servers_of(data, "dynamic", None, "--mcp-config", env, found)
        return
    path = Path(text).expanduser()
    data, problem = read_json_file(path)
    if problem or data is None:
        found.problems.append(problem or f"--mcp-config: {path}: no such file")
        return
    servers_of(data, "dynamic", path, str(path), env, found)


def launch_text(config: ServerConfig) -> str:
    """What starting the server does, in one line: its command, or its URL."""
    if isinstance(config, StdioServer):
        import shlex

        return shlex.join([config.command, *config.args])
    if isinstance(config, SdkServer):
        return f"in-process server {config.name} of the program driving cc"
    return f"{config.url} ({config.transport})"


def approval(name: str, settings_get: Any) -> bool | None:
    """Whether a project server may run: True (approved), False (refused) or None (not
    yet asked). `settings_get` is `Settings.get`."""
    disabled = settings_get("disabledMcpjsonServers") or []
    if isinstance(disabled, list) and name in disabled:
        return False
    enabled = settings_get("enabledMcpjsonServers") or []
    if settings_get("enableAllProjectMcpServers") is True:
        return True
    if isinstance(enabled, list) and name in enabled:
        return True
    return None
