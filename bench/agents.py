"""What the benches share to run cc and, optionally, the real Claude Code side by side.

Both reach the fake Messages API of tests/fakeapi.py "as Anthropic's API" (base URL
api.anthropic.com, the fake as their HTTP proxy), so each sends what it sends to Anthropic:
thinking, betas, deferred tools. Each runs with its own temporary HOME and config folder,
set up as a returning user's: onboarding done, the project trusted, the API key accepted.
Requests of the main conversation (those that offer the Read tool) are answered from the
bench's script; any other request (a title, a side question, the memory extraction) gets a
short text reply, so a bench never depends on which side requests an agent makes.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.fakeapi import FakeAPI, Reply, Turn, text  # noqa: E402

API_KEY = "sk-ant-bench-0123456789abcdefghij"


@dataclass(frozen=True)
class Agent:
    """One agent under test: a name and the command that starts it."""

    name: str
    argv: tuple[str, ...]

    @property
    def is_claude(self) -> bool:
        return self.name == "claude"


def agents(claude: str | None) -> list[Agent]:
    """cc, then Claude Code when a binary was given."""
    found = [Agent("cc", (sys.executable, "-m", "cc"))]
    if claude:
        found.append(Agent("claude", (os.path.abspath(claude),)))
    return found


def is_main(body: dict[str, Any]) -> bool:
    """A request of the main conversation: it offers the Read tool."""
    return any(isinstance(t, dict) and t.get("name") == "Read" for t in body.get("tools") or ())


def serve(api: FakeAPI, *turns: Turn, side_replies: int = 200) -> None:
    """Script the main conversation's turns; any other request gets a short answer."""
    api.route(is_main, *turns, name="main")
    api.script(*[Reply([text("ok")]) for _ in range(side_replies)])


def prepare(base: Path, project: Path, *, everything_on: bool = False) -> tuple[Path, Path]:
    """A config folder and a HOME for one run, as a returning user who trusts `project`;
    `everything_on`: the project has what a working one has besides (`furnish`)."""
    config, home = base / "config", base / "home"
    config.mkdir(parents=True)
    home.mkdir(parents=True)
    state = {
        "hasCompletedOnboarding": True,
        "theme": "dark",
        "numStartups": 5,
        "projects": {os.path.realpath(project): {"hasTrustDialogAccepted": True,
                                                  "hasCompletedProjectOnboarding": True}},
        "customApiKeyResponses": {"approved": [API_KEY[-20:]], "rejected": []},
    }
    (config / ".claude.json").write_text(json.dumps(state))
    if everything_on:
        furnish(project, config)
    return config, home


def furnish(project: Path, config: Path) -> None:
    """A CLAUDE.md, two skills, a custom agent, one stdio MCP server (mcp-server-time,
    pre-approved) and an auto-memory index in the memory folder both agents use
    (`<config>/projects/<sanitised cwd>/memory/`)."""
    from cc.session.paths import canonical_cwd, sanitize

    (project / "CLAUDE.md").write_text(
        "# Project notes\n\nRun tests with `pytest -q`. Keep functions small and typed.\n")
    for name, what in (("changelog", "Write a changelog entry for the last commit."),
                       ("release", "Tag and publish a release after the tests pass.")):
        skill = project / ".claude" / "skills" / name / "SKILL.md"
        skill.parent.mkdir(parents=True)
        skill.write_text(f"---\nname: {name}\ndescription: {what}\n---\n\n{what} Be brief.\n")
    agent = project / ".claude" / "agents" / "x.md"
    agent.parent.mkdir(parents=True)
    agent.write_text("---\nname: x\ndescription: Reviews a diff for style problems.\n"
                     "tools: Read, Grep\n---\n\nYou review diffs for style. Report briefly.\n")
    (project / ".claude" / "settings.local.json").write_text(
        json.dumps({"enableAllProjectMcpServers": True}))
    server = {"command": sys.executable,
              "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"time": server}}))
    memory = config / "projects" / sanitize(canonical_cwd(project)) / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- [Test command](testing.md) — tests run with pytest -q\n")
    (memory / "testing.md").write_text(
        "---\nname: Test command\ndescription: tests run with pytest -q\ntype: project\n---\n\n"
        "The project's tests run with `pytest -q` from the root.\n")


def env_for(api: FakeAPI, config: Path, home: Path, *, as_anthropic: bool = True,
            **extra: str) -> dict[str, str]:
    """The environment of one run. `as_anthropic=False` points the base URL at the fake
    itself: Claude Code then also skips what it fetches only from Anthropic (remote managed
    settings, which this machine cannot reach and a REPL waits ~20 s for)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ANTHROPIC_", "CLAUDE", "CC_", "PYTHONSTARTUP", "NO_COLOR"))}
    if as_anthropic:
        env.update(ANTHROPIC_BASE_URL="http://api.anthropic.com",
                   HTTP_PROXY=api.base_url, http_proxy=api.base_url, HTTPS_PROXY="",
                   https_proxy="", NO_PROXY="", no_proxy="")
    else:
        env["ANTHROPIC_BASE_URL"] = api.base_url
    env.update(
        ANTHROPIC_API_KEY=API_KEY,
        CLAUDE_CONFIG_DIR=str(config),
        HOME=str(home),
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        DISABLE_AUTOUPDATER="1",
    )
    env.update(extra)
    return env


def load() -> str:
    """The load averages, for the record."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())
