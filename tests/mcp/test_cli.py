"""`python -m cc mcp …` end to end: each command run as a subprocess in a temporary
project, with its own config folder and home, against the real configuration files and
real MCP servers (tests/servers/mcp_server.py, mcp_server_time)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO_ROOT, CCRun, Project

SERVER = str(REPO_ROOT / "tests" / "servers" / "mcp_server.py")
PY = sys.executable


@pytest.fixture
def proj(project: Project) -> Project:
    project.env["MCP_TIMEOUT"] = "30000"
    return project


def mcp(project: Project, *args: str, stdin: str | None = None) -> CCRun:
    run = project.run("mcp", *args, stdin=stdin)
    assert project.api.requests == []  # never the model's business
    return run


def state(project: Project) -> dict[str, Any]:
    return json.loads((project.config / ".claude.json").read_text())


def key(project: Project) -> str:
    return os.path.realpath(project.root)


def servers(project: Project, scope: str) -> dict[str, Any]:
    if scope == "project":
        path = project.root / ".mcp.json"
        return json.loads(path.read_text())["mcpServers"] if path.exists() else {}
    data = state(project)
    if scope == "local":
        data = data.get("projects", {}).get(key(project), {})
    return data.get("mcpServers", {})


def where(project: Project, scope: str) -> str:
    if scope == "project":
        return str(project.root / ".mcp.json")
    path = project.config / ".claude.json"
    return f"{path} [project: {key(project)}]" if scope == "local" else str(path)


def trust(project: Project, **choices: Any) -> None:
    path = project.config / ".claude.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    data.setdefault("projects", {}).setdefault(key(project), {})["hasTrustDialogAccepted"] = True
    path.write_text(json.dumps(data))
    if choices:
        settings = project.root / ".claude" / "settings.local.json"
        settings.parent.mkdir(exist_ok=True)
        settings.write_text(json.dumps(choices))


@pytest.mark.parametrize("scope", ["local", "project", "user"])
def test_add_get_remove_round_trip(proj: Project, scope: str) -> None:
    # Name first: -e takes every word after it up to the next option, as in Claude Code.
    run = mcp(proj, "add", "-s", scope, "echo", "-e", "TOKEN=abc", "-e", "MODE=x=y", "--",
              PY, SERVER, "--name", "echo")
    assert run.returncode == 0, run.stderr
    assert run.stdout == (
        f"Added stdio MCP server echo with command: {PY} {SERVER} --name echo to {scope} "
        f"config\nFile modified: {where(proj, scope)}\n")
    entry = {"type": "stdio", "command": PY, "args": [SERVER, "--name", "echo"],
             "env": {"TOKEN": "abc", "MODE": "x=y"}}
    assert servers(proj, scope) == {"echo": entry}
    if scope == "project":
        assert (proj.root / ".mcp.json").read_text() == json.dumps({"mcpServers": {"echo": entry}},
                                                                    indent=2)
        trust(proj, enabledMcpjsonServers=["echo"])

    got = mcp(proj, "get", "echo")
    assert got.returncode == 0, got.stderr
    lines = got.stdout.splitlines()
    assert lines[0] == "echo:"
    assert lines[1].startswith(f"  Scope: {scope.capitalize()} config")
    assert lines[2:9] == ["  Status: ✔ Connected", "  Type: stdio", f"  Command: {PY}",
                          f"  Args: {SERVER} --name echo", "  Environment:", "    TOKEN=abc",
                          "    MODE=x=y"]
    assert lines[-1] == f"To remove it: python -m cc mcp remove echo -s {scope}"

    gone = mcp(proj, "remove", "echo")
    assert gone.returncode == 0, gone.stderr
    assert gone.stdout == (f'Removed MCP server "echo" from {scope} config\n'
                           f"File modified: {where(proj, scope)}\n")
    assert servers(proj, scope) == {}
    assert mcp(proj, "get", "echo").returncode == 1


def test_remote_servers_keep_their_headers(proj: Project) -> None:
    run = mcp(proj, "add", "--transport", "http", "docs", "https://example.invalid/mcp",
              "-H", "Authorization: Bearer s3cret", "-H", "X-Team:  blue ", "--client-id", "cid")
    assert run.returncode == 0, run.stderr
    assert "s3cret" not in run.stdout
    assert run.stdout.splitlines() == [
        "Added HTTP MCP server docs with URL: https://example.invalid/mcp to local config",
        "Headers: {", '  "Authorization": "[REDACTED]",', '  "X-Team": "blue"', "}",
        f"File modified: {where(proj, 'local')}"]
    run = mcp(proj, "add", "-t", "sse", "-s", "user", "feed", "http://127.0.0.1:9/sse")
    assert run.returncode == 0, run.stderr
    assert servers(proj, "local") == {"docs": {
        "type": "http", "url": "https://example.invalid/mcp",
        "headers": {"Authorization": "Bearer s3cret", "X-Team": "blue"},
        "oauth": {"clientId": "cid"}}}
    assert servers(proj, "user") == {"feed": {"type": "sse", "url": "http://127.0.0.1:9/sse"}}
    got = mcp(proj, "get", "docs")
    assert got.returncode == 0
    assert "  Status: ✘ Failed to connect" in got.stdout.splitlines()
    assert "  Headers:\n    Authorization: Bearer s3cret\n    X-Team: blue\n" in got.stdout


def test_list_checks_every_server(proj: Project) -> None:
    for args in (["-s", "user", "time", "--", PY, "-m", "mcp_server_time"],
                 ["-s", "project", "shared", "--", PY, SERVER],
                 ["good", "--", PY, SERVER],
                 ["broken", "--", PY, SERVER, "--crash"],
                 ["-t", "http", "gone", "http://127.0.0.1:9/mcp"]):
        assert mcp(proj, "add", *args).returncode == 0
    run = mcp(proj, "list")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[:5] == [
        "Checking the MCP servers…", "",
        f"time: {PY} -m mcp_server_time - ✔ Connected",
        f"shared: {PY} {SERVER} - ⏸ Pending approval (not yet in enabledMcpjsonServers)",
        f"good: {PY} {SERVER} - ✔ Connected"]
    assert lines[5].startswith(f"broken: {PY} {SERVER} --crash - ✘ Failed to connect — ")
    assert lines[6].startswith("gone: http://127.0.0.1:9/mcp (HTTP) - ✘ Failed to connect — ")
    assert len(lines) == 7

    trust(proj, enableAllProjectMcpServers=True)
    lines = mcp(proj, "list").stdout.splitlines()
    assert f"shared: {PY} {SERVER} - ✔ Connected" in lines


def test_project_approval_needs_a_trusted_folder(proj: Project) -> None:
    assert mcp(proj, "add", "-s", "project", "shared", "--", PY, SERVER).returncode == 0
    settings = proj.root / ".claude" / "settings.local.json"
    settings.parent.mkdir()
    settings.write_text('{"enableAllProjectMcpServers": true}')
    assert "Status: ⏸ Pending approval" in mcp(proj, "get", "shared").stdout

    trust(proj, enableAllProjectMcpServers=True, disabledMcpjsonServers=["shared"])
    got = mcp(proj, "get", "shared")
    assert got.returncode == 0
    assert "  Status: ✘ Rejected (it is in disabledMcpjsonServers)" in got.stdout
    assert "shared" not in mcp(proj, "list").stdout  # refused: not listed at all


def test_reset_project_choices(proj: Project) -> None:
    trust(proj, enabledMcpjsonServers=["a"], disabledMcpjsonServers=["b"],
          enableAllProjectMcpServers=False, model="opus")
    data = state(proj)
    data["projects"][key(proj)]["enabledMcpjsonServers"] = ["c"]
    (proj.config / ".claude.json").write_text(json.dumps(data))
    run = mcp(proj, "reset-project-choices")
    assert run.returncode == 0, run.stderr
    assert "cleared" in run.stdout
    local = proj.root / ".claude" / "settings.local.json"
    assert json.loads(local.read_text()) == {"model": "opus"}
    assert state(proj)["projects"][key(proj)] == {"hasTrustDialogAccepted": True}


def test_remove_asks_which_scope_when_several_have_it(proj: Project) -> None:
    for scope in ("local", "user"):
        assert mcp(proj, "add", "-s", scope, "twin", "--", PY, "-m", scope).returncode == 0
    run = mcp(proj, "remove", "twin")
    assert run.returncode == 1
    assert "python -m cc mcp remove twin -s local" in run.stderr
    assert "python -m cc mcp remove twin -s user" in run.stderr
    assert servers(proj, "local") and servers(proj, "user")
    assert mcp(proj, "remove", "twin", "-s", "user").returncode == 0
    assert servers(proj, "user") == {} and "twin" in servers(proj, "local")


def test_add_json(proj: Project) -> None:
    run = mcp(proj, "add-json", "-s", "user", "api", '{"type": "http", "url": "http://h/mcp"}')
    assert (run.returncode, run.stdout) == (0, "Added http MCP server api to user config\n")
    run = mcp(proj, "add-json", "piped", "-", stdin='{"command": "uvx", "args": ["x"]}')
    assert (run.returncode, run.stdout) == (0, "Added stdio MCP server piped to local config\n")
    assert servers(proj, "user") == {"api": {"type": "http", "url": "http://h/mcp"}}
    assert servers(proj, "local") == {"piped": {"command": "uvx", "args": ["x"]}}
    again = mcp(proj, "add-json", "api", '{"command": "x"}', "--scope", "user")
    assert again.returncode == 1
    assert 'already in the user config' in again.stderr


@pytest.mark.parametrize(("args", "says"), [
    (["add-json", "bad", "{not json"], "not valid JSON"),
    (["add-json", "bad", '{"type": "http"}'], 'needs a "url"'),
    (["add-json", "bad", '{"url": "http://h"}'], 'has a "url" but no "type"'),
    (["add-json", "bad", '{"command": "x", "env": {"A": 1}}'], '"env" must be an object'),
    (["add-json", "bad", "[1]"], "must be a JSON object"),
    (["add"], "missing argument <name>"),
    (["add", "name-only"], "missing argument <command-or-url>"),
    (["add", "-t", "carrier-pigeon", "bad", "x"], 'Unknown transport "carrier-pigeon"'),
    (["add", "bad", "-e", "NOEQUALS", "--", "x"], 'Bad -e value "NOEQUALS"'),
    (["add", "-e", "A=1", "bad", "x"], "missing argument <name>"),  # -e took them all
    (["add", "-t", "http", "bad", "http://h", "-H", "no colon"], 'Bad -H value "no colon"'),
    (["add", "bad name", "x"], 'Invalid server name "bad name"'),
    (["add", "-s", "galaxy", "bad", "x"], 'Unknown scope "galaxy"'),
    (["add", "bad", "python", "-m", "x"], "unknown option '-m'"),
    (["remove", "nothing"], 'No MCP server named "nothing"'),
    (["get", "nothing"], 'No MCP server named "nothing"'),
    (["frobnicate"], 'unknown mcp command "frobnicate"'),
    (["serve"], 'cc does not implement "mcp serve" yet'),
    (["login", "x"], 'cc does not implement "mcp login" yet'),
])
def test_bad_input_is_refused_with_a_clear_message(proj: Project, args: list[str],
                                                   says: str) -> None:
    run = mcp(proj, *args)
    assert run.returncode == 1
    assert says in run.stderr
    assert run.stdout == ""
    assert servers(proj, "project") == {}
    assert not (proj.config / ".claude.json").exists() or servers(proj, "local") == {}


def test_a_file_that_is_not_json_is_left_alone(proj: Project) -> None:
    (proj.root / ".mcp.json").write_text("{broken")
    run = mcp(proj, "add", "-s", "project", "x", "--", "cmd")
    assert run.returncode == 1
    assert "not valid JSON" in run.stderr
    assert (proj.root / ".mcp.json").read_text() == "{broken"
    listed = mcp(proj, "list")
    assert listed.returncode == 0
    assert "Configuration problems:" in listed.stdout


def test_help(proj: Project) -> None:
    full = mcp(proj, "--help")
    assert full.returncode == 0
    assert "reset-project-choices" in full.stdout
    bare = mcp(proj)
    assert (bare.returncode, bare.stderr) == (1, full.stdout)
    add = mcp(proj, "add", "--help")
    assert add.returncode == 0 and "--transport" in add.stdout


def test_an_empty_configuration(proj: Project) -> None:
    run = mcp(proj, "list")
    assert run.returncode == 0
    assert run.stdout == "No MCP servers are configured. Add one with `python -m cc mcp add`.\n"
    assert not Path(proj.config / ".claude.json").exists()
