"""`mcp add` / `mcp add-json` / `mcp remove` in cc and in Claude Code leave the same
entries in the same files and agree on which lines are refused.

Opt-in: set CC_CLAUDE_BIN to a `claude` executable (npm i @anthropic-ai/claude-code). Each
side runs in its own temporary project, config folder and home; nothing needs a network.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Project

CLAUDE = os.environ.get("CC_CLAUDE_BIN")
pytestmark = pytest.mark.skipif(
    not CLAUDE,
    reason="opt-in: needs Claude Code itself (npm i @anthropic-ai/claude-code); "
    "set CC_CLAUDE_BIN to its claude executable to run these",
)

LINES = [
    ["add", "plain", "node", "server.js"],
    ["add", "-s", "user", "everywhere", "-e", "A=1", "-e", "B=x=y", "--", "uvx", "tool", "-v"],
    ["add", "-s", "project", "shared", "--", "npx", "-y", "pkg"],
    ["add", "-t", "http", "web", "https://example.invalid/mcp", "-H", "Authorization: Bearer t"],
    ["add", "--transport", "sse", "--scope", "user", "feed", "https://example.invalid/sse"],
    ["add", "-t", "http", "oauth", "https://example.invalid/o", "--client-id", "c",
     "--callback-port", "8123"],
    ["add-json", "json", '{"type": "http", "url": "https://example.invalid/j"}'],
    ["add-json", "-s", "project", "json2", '{"command": "x", "args": ["y"]}'],
    ["add", "plain", "other"],  # there already
    ["add", "-e", "A=1", "name", "cmd"],  # -e takes the name
    ["add", "bad name", "cmd"],
    ["add", "-t", "pigeon", "p", "x"],
    ["add", "e", "-e", "NOEQ", "--", "x"],
    ["add", "h", "-t", "http", "http://x", "-H", "nocolon"],
    ["add", "m", "python", "-m", "x"],  # the server's own option, with no `--` before it
    ["add-json", "j", "{not json"],
    ["add-json", "j", '{"type": "http"}'],
    ["remove", "plain"],
    ["remove", "feed", "-s", "user"],
    ["remove", "nothing"],
]


def side(tmp: Path, name: str) -> Project:
    root = tmp / name
    for sub in ("project", "config", "home"):
        (root / sub).mkdir(parents=True)
    return Project(root / "project", root / "config", root / "home", None)  # type: ignore[arg-type]


def run(project: Project, argv: list[str], claude: bool) -> int:
    return call(project, argv, claude).returncode


def call(project: Project, argv: list[str], claude: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE"))}
    env.update(CLAUDE_CONFIG_DIR=str(project.config), HOME=str(project.home),
               CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_AUTOUPDATER="1",
               PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    command = [str(CLAUDE)] if claude else [sys.executable, "-m", "cc"]
    return subprocess.run([*command, "mcp", *argv], cwd=project.root, env=env, text=True,
                          stdin=subprocess.DEVNULL, capture_output=True, timeout=120)


def stored(project: Project) -> dict[str, Any]:
    state_file = project.config / ".claude.json"
    data = json.loads(state_file.read_text()) if state_file.exists() else {}
    local = data.get("projects", {}).get(os.path.realpath(project.root), {})
    mcp_json = project.root / ".mcp.json"
    return {"local": local.get("mcpServers"), "user": data.get("mcpServers"),
            "project": json.loads(mcp_json.read_text()) if mcp_json.exists() else None}


def test_the_same_lines_leave_the_same_files(tmp_path: Path) -> None:
    ours, theirs = side(tmp_path, "cc"), side(tmp_path, "claude")
    for argv in LINES:
        assert run(ours, argv, claude=False) == run(theirs, argv, claude=True), argv
    assert stored(ours) == stored(theirs)
    assert (ours.root / ".mcp.json").read_bytes() == (theirs.root / ".mcp.json").read_bytes()


def test_both_list_the_same_servers_the_same_way(tmp_path: Path) -> None:
    server = str(Path(__file__).resolve().parents[1] / "servers" / "mcp_server.py")
    ours, theirs = side(tmp_path, "cc"), side(tmp_path, "claude")
    for project, claude in ((ours, False), (theirs, True)):
        for argv in (["add", "-s", "user", "good", "--", sys.executable, server],
                     ["add", "-s", "project", "waiting", "--", sys.executable, server],
                     ["add", "broken", "--", sys.executable, server, "--crash"]):
            assert run(project, argv, claude) == 0

    def rows(project: Project, claude: bool) -> list[str]:
        listed = call(project, ["list"], claude)
        assert listed.returncode == 0, listed.stderr
        # The words after a status (a failure's reason, an approval hint) are each's own.
        return [line.split(" — ")[0].split(" (")[0] for line in listed.stdout.splitlines()
                if line.startswith(("good:", "waiting:", "broken:"))]

    assert rows(ours, False) == rows(theirs, True) == [
        f"good: {sys.executable} {server} - ✔ Connected",
        f"waiting: {sys.executable} {server} - ⏸ Pending approval",
        f"broken: {sys.executable} {server} --crash - ✘ Failed to connect"]
