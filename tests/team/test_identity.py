"""Two teammates at work at once each act under their own identity: the hooks their calls
fire and the sidechain lines they write name them, and the leader's name no one.

Each teammate's requests are held by the fake API until the other's are in flight (its
first until the other's first has arrived, its second until the other's Bash call has
fired its PostToolUse hook), so their turns interleave in the one process."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from tests.conftest import Project
from tests.fakeapi import Dynamic, Reply, Route, tool_use

TEAM = "ids"
MEMBERS = ("alpha", "beta")

#: A hook that appends its stdin as one JSON line, in one O_APPEND write (the two
#: teammates' hooks run at the same time, so no line may be written in pieces).
HOOK = """\
import json, os, sys
line = json.dumps(json.load(sys.stdin)) + "\\n"
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
os.write(fd, line.encode())
os.close(fd)
"""


def log_tool_hooks(project: Project) -> Path:
    """PreToolUse and PostToolUse log every call to the returned file; `echo` is allowed."""
    log = project.root / "hooks.jsonl"
    script = project.root / "log_hook.py"
    script.write_text(HOOK)
    entry = [{"hooks": [{"type": "command", "command": f"{sys.executable} {script} {log}"}]}]
    settings = project.root / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({
        "permissions": {"allow": ["Bash(echo:*)"]},
        "hooks": {"PreToolUse": entry, "PostToolUse": entry},
    }))
    return log


def records(log: Path) -> list[dict[str, Any]]:
    """The hook inputs logged so far (a line still being written is left for later)."""
    if not log.exists():
        return []
    out = []
    for line in log.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            continue
    return out


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def call(tool: str, **inp: Any) -> dict[str, Any]:
    return tool_use(tool, inp)


def test_two_teammates_at_once_never_take_each_others_identity(project: Project) -> None:
    project.env["CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS"] = "1"
    api = project.api
    log = log_tool_hooks(project)
    routes: dict[str, Route] = {}
    bash = {m: call("Bash", command=f"echo {m}-marker", description=f"Say {m}") for m in MEMBERS}
    report = {m: call("SendMessage", to="team-lead", summary=f"{m} done", message=f"{m}: echoed")
              for m in MEMBERS}

    def other(member: str) -> str:
        return MEMBERS[1 - MEMBERS.index(member)]

    def arrived(member: str) -> Callable[[], bool]:
        return lambda: len(routes[member].requests) >= 1

    def echoed(member: str) -> Callable[[], bool]:
        return lambda: any(r["hook_event_name"] == "PostToolUse"
                           and r.get("tool_use_id") == bash[member]["id"] for r in records(log))

    for member in MEMBERS:
        routes[member] = api.route(
            f"{member.upper()}-TASK",
            Reply([bash[member]], hold_after_block={0: arrived(other(member))}),
            Reply([report[member]], hold_after_block={0: echoed(other(member))}),
            Reply("Reported."))

    create = call("TeamCreate", team_name=TEAM, description="say who you are")
    spawn = [call("Agent", description=f"{m} part", prompt=f"{m.upper()}-TASK: echo your name",
                  team_name=TEAM, name=m, subagent_type="general-purpose") for m in MEMBERS]
    delete = call("TeamDelete")

    def leader(body: dict[str, Any]) -> Reply:
        said = "\n".join(strings(body["messages"]))
        if json.dumps({"success": True, "team_name": TEAM}) in said:  # TeamDelete's result
            return Reply("Both reported; the team is gone.")
        reported = all(f'from="{m}"' in said for m in MEMBERS)
        finished = all(f'Agent "{m} part" finished' in said for m in MEMBERS)
        if reported and finished:
            return Reply([delete])
        return Reply("Waiting for the team.")

    api.script(Reply([create]), Reply(spawn), *[Dynamic(leader) for _ in range(10)])
    run = project.run("-p", "find out who is who", "--output-format", "stream-json",
                      "--verbose")
    assert run.returncode == 0, run.stderr + run.stdout
    api.assert_clean()
    results = [r for r in run.records() if r["type"] == "result"]
    assert results[-1]["result"] == "Both reported; the team is gone."
    assert not (project.config / "teams" / TEAM).exists()

    # Whose sidechain is whose, from what they were told (not from the fields under test).
    sidechains: dict[str, tuple[str, list[dict[str, Any]]]] = {}
    for path in project.config.glob("projects/*/*/subagents/agent-*.jsonl"):
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        member = next(m for m in MEMBERS if f"{m.upper()}-TASK" in lines[0]["message"]["content"])
        sidechains[member] = (path.stem.removeprefix("agent-"), lines)
    assert sorted(sidechains) == sorted(MEMBERS)

    logged = records(log)
    for member in MEMBERS:
        agent_id, lines = sidechains[member]
        own = [r for r in logged if r["tool_use_id"] in (bash[member]["id"], report[member]["id"])]
        assert sorted((r["hook_event_name"], r["tool_name"]) for r in own) == [
            ("PostToolUse", "Bash"), ("PostToolUse", "SendMessage"),
            ("PreToolUse", "Bash"), ("PreToolUse", "SendMessage")]
        for record in own:
            assert record["teammate_name"] == member, record
            assert record["team_name"] == TEAM
            assert record["agent_id"] == agent_id
            assert record["agent_type"] == "general-purpose"
        assert [r["tool_input"]["command"] for r in own if r["tool_name"] == "Bash"] == [
            f"echo {member}-marker"] * 2
        assert len(lines) >= 6  # brief, call, result, report, result, last words
        for line in lines:
            assert line["agentName"] == member, line
            assert line["teamName"] == TEAM
            assert line["agentId"] == agent_id and line["isSidechain"] is True

    # The leader's own calls say nothing of a team member, nor do its transcript's lines.
    lead_ids = {c["id"] for c in (create, *spawn, delete)}
    lead = [r for r in logged if r["tool_use_id"] in lead_ids]
    assert sorted(r["tool_name"] for r in lead if r["hook_event_name"] == "PreToolUse") == [
        "Agent", "Agent", "TeamCreate", "TeamDelete"]
    assert len(lead) == 8
    for record in lead:
        assert "teammate_name" not in record and "team_name" not in record, record
        assert "agent_id" not in record
    assert len(logged) == len(lead) + 8  # nothing else called a tool
    [main] = project.config.glob("projects/*/*.jsonl")
    main_lines = [json.loads(line) for line in main.read_text().splitlines()]
    assert main_lines and not any("agentName" in x or "teamName" in x for x in main_lines)
