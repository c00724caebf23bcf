"""The subcommands that answer locally, besides `mcp`: `doctor`, `update`, `auth …`
and `agents`. Each prints its answer and returns the exit status; none starts a session.

    cc doctor              the health report (`cc.app.doctor`); exit 0 (as Claude Code)
    cc update              how to update cc (it never updates itself); exit 0
    cc auth status         Claude Code's JSON (`--text`: one line); exit 0 with a key, 1
                           without one
    cc auth login|logout   how keys are configured (cc signs in to no account); exit 1
    cc agents              the agent types by source (`--json`: the background sessions,
                           of which cc has none: `[]`)
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from cc.subcommand_args import Grammar, Option, Parsed, parse

__all__ = ["LOCAL", "run_local"]

Out = Callable[[str], None]


def run_local(name: str, argv: list[str], cwd: Path, config_dir: Path, out: Out,
              err: Out) -> int:
    return LOCAL[name](argv, cwd, config_dir, out, err)


def _parsed(argv: list[str], grammar: Grammar, usage: str, out: Out, err: Out
            ) -> Parsed | int:
    parsed = parse(argv, grammar)
    if isinstance(parsed, str):
        err(f"error: {parsed}")
        return 1
    if parsed.help:
        out(usage)
        return 0
    return parsed


DOCTOR_USAGE = """Usage: cc doctor [options]

Check the health of the cc install: settings files, key, MCP servers, sandbox.

Options:
  -h, --help  Display help for command"""


def doctor(argv: list[str], cwd: Path, config_dir: Path, out: Out, err: Out) -> int:
    parsed = _parsed(argv, Grammar(), DOCTOR_USAGE, out, err)
    if isinstance(parsed, int):
        return parsed
    from cc.app.doctor import diagnose

    report = diagnose(cwd, config_dir, dict(os.environ))
    out("cc doctor\n")
    out("\n".join(report.lines))
    return 0  # as Claude Code's: the report says what is wrong


UPDATE_USAGE = """Usage: cc update|upgrade [options]

Say how to update cc (it never updates itself)

Options:
  -h, --help  Display help for command"""


def update(argv: list[str], cwd: Path, config_dir: Path, out: Out, err: Out) -> int:
    parsed = _parsed(argv, Grammar(), UPDATE_USAGE, out, err)
    if isinstance(parsed, int):
        return parsed
    import cc

    source = Path(cc.__file__).resolve().parent.parent
    out(f"Current version: {cc.__version__}")
    out("cc does not update itself. To update it:")
    if (source / ".git").exists():
        out(f"  cd {source} && git pull && pip install -e .")
    else:
        out("  pip install --upgrade <the source cc was installed from>")
    return 0


AUTH_USAGE = """Usage: cc auth [options] [command]

Show how cc authenticates

Options:
  -h, --help        Display help for command

Commands:
  login             Say how to configure a key
  logout            Say how to stop using a key
  status [options]  Show authentication status"""
STATUS_USAGE = """Usage: cc auth status [options]

Show authentication status

Options:
  -h, --help  Display help for command
  --json      Output as JSON (default)
  --text      Output as plain text"""


def auth(argv: list[str], cwd: Path, config_dir: Path, out: Out, err: Out) -> int:
    from cc.app.auth_status import HOW_TO_AUTHENTICATE, auth_state, status_json, status_text
    from cc.config.settings import load_settings

    if not argv or argv[0] in ("-h", "--help", "help"):
        out(AUTH_USAGE)
        return 0
    command, rest = argv[0], argv[1:]
    if command in ("login", "logout"):
        err("cc signs in to no account; it uses the key it is given.")
        for line in HOW_TO_AUTHENTICATE:
            err(line)
        return 1
    if command != "status":
        err(f"error: unknown command '{command}'")
        return 1
    grammar = Grammar(options=(Option("--json"), Option("--text")))
    parsed = _parsed(rest, grammar, STATUS_USAGE, out, err)
    if isinstance(parsed, int):
        return parsed
    env = dict(os.environ)
    state = auth_state(env, load_settings(cwd, config_dir).merged)
    if "text" in parsed.flags:
        out(status_text(state))
    else:
        out(json.dumps(status_json(state, config_dir, env), indent=2))
    return 0 if state.logged_in else 1


AGENTS_USAGE = """Usage: cc agents [options]

List the agent types (built-in, user, project)

Options:
  -h, --help  Display help for command
  --json      Print the background sessions as a JSON array (cc runs none)"""


def agents(argv: list[str], cwd: Path, config_dir: Path, out: Out, err: Out) -> int:
    parsed = _parsed(argv, Grammar(options=(Option("--json"),)), AGENTS_USAGE, out, err)
    if isinstance(parsed, int):
        return parsed
    if "json" in parsed.flags:
        out("[]")
        return 0
    from cc.agents.definitions import SOURCES, load_agents

    catalog = load_agents(cwd, config_dir)
    titles = {"built-in": "Built-in agents", "user": "User agents",
              "project": "Project agents", "flag": "From --agents"}
    out(f"{len(catalog.definitions)} agents")
    for source in reversed(SOURCES):
        group = [catalog.definitions[n] for n in catalog.names()
                 if catalog.definitions[n].source == source]
        if not group:
            continue
        out("")
        out(f"{titles.get(source, source)}:")
        for d in group:
            out(f"  {d.agent_type} · {d.model or 'inherit'}")
    for warning in catalog.warnings:
        err(f"Warning: {warning}")
    return 0


LOCAL: dict[str, Callable[[list[str], Path, Path, Out, Out], int]] = {
    "doctor": doctor, "update": update, "upgrade": update, "auth": auth, "agents": agents,
}
