"""A team end to end: the leader creates it, two teammates work at once and report with
SendMessage, the leader hears both and deletes the team (refused while they work)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from tests.conftest import Project
from tests.fakeapi import Dynamic, Reply, tool_use

REFUSED = "still has members at work"


def results_of(body: dict[str, Any]) -> str:
    """The text of the tool results in a request's last message."""
    content = body["messages"][-1]["content"]
    return "\n".join(b["content"] for b in content if isinstance(b, dict)
                     and b.get("type") == "tool_result" and isinstance(b.get("content"), str))


def call(tool: str, **inp: Any) -> dict[str, Any]:
    return tool_use(tool, inp)


def test_a_leader_runs_a_team_of_two(project: Project) -> None:
    project.env["CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS"] = "1"
    api = project.api
    team_dir = project.config / "teams" / "docs"
    seen: dict[str, Any] = {}

    def refused_seen() -> bool:
        return any(REFUSED in json.dumps(b["messages"][-1]) for b in api.bodies)

    def snapshot(key: str, path: Path) -> bool:
        if key not in seen and path.exists():
            seen[key] = json.loads(path.read_text())
        return True

    def leader(body: dict[str, Any]) -> Reply:
        sent = json.dumps(body["messages"])
        snapshot("lead_inbox", team_dir / "inboxes" / "team-lead.json")
        if '{"success": true, "team_name": "docs"}' in results_of(body):
            return Reply("The team is done: alpha and beta reported.")
        if 'from=\\"alpha\\"' in sent and 'from=\\"beta\\"' in sent:
            return Reply([call("TeamDelete")])
        return Reply("Still waiting for the team.")

    api.script(
        Reply([call("TeamCreate", team_name="docs", description="document the modules")]),
        Reply([call("Agent", description="alpha part", prompt="ALPHA-TASK: document a.py",
                    team_name="docs", name="alpha"),
               call("Agent", description="beta part", prompt="BETA-TASK: document b.py",
                    team_name="docs", name="beta")]),
        Reply([call("TeamDelete")]),
        *[Dynamic(leader) for _ in range(6)],
    )
    for member in ("alpha", "beta"):
        marker = f"{member.upper()}-TASK"
        api.route(marker,
                  Reply([call("SendMessage", to="team-lead", summary=f"{member} done",
                              message=f"{member}: documented")],
                        hold_after_block={0: lambda: refused_seen() and snapshot(
                            "config", team_dir / "config.json")}),
                  Reply("Sent my report."))
    run = project.run("-p", "document the project with a team", "--output-format",
                      "stream-json", "--verbose")
    assert run.returncode == 0, run.stderr + run.stdout
    api.assert_clean()
    results = [r for r in run.records() if r["type"] == "result"]
    assert results[-1]["result"] == "The team is done: alpha and beta reported."

    main = [r.body for r in api.requests if r.route is None]
    names = [t["name"] for t in main[0]["tools"]]
    assert "TeamCreate" in names and "TeamDelete" not in names
    after_create = {t["name"]: t for t in main[1]["tools"]}
    assert {"SendMessage", "TeamDelete"} <= set(after_create)  # the second wiring
    before = next(t for t in main[0]["tools"] if t["name"] == "SendMessage")
    assert "team" not in before["description"]  # the session's agents only
    assert "member of your team" in after_create["SendMessage"]["description"]
    assert [t["name"] for t in main[2]["tools"]] == list(after_create)  # changed once
    agent_schema = next(t for t in main[1]["tools"] if t["name"] == "Agent")["input_schema"]
    assert {"name", "team_name"} <= set(agent_schema["properties"])
    assert REFUSED in json.dumps(main[3]["messages"][-1])  # TeamDelete while they work
    assert "alpha" in json.dumps(main[3]["messages"][-1])

    config = seen["config"]
    assert config["name"] == "docs" and config["description"] == "document the modules"
    members = {m["name"]: m for m in config["members"]}
    assert set(members) == {"team-lead", "alpha", "beta"}
    assert members["alpha"]["status"] == "active" and members["alpha"]["agentId"].startswith("a")
    letters = seen.get("lead_inbox", [])
    assert {x["from"] for x in letters} <= {"alpha", "beta"}
    assert all(set(x) == {"from", "text", "summary", "timestamp", "read"} for x in letters)

    final = json.dumps(main[-1]["messages"])
    assert '<agent-message from=\\"alpha\\" summary=\\"alpha done\\">' in final
    assert '<agent-message from=\\"beta\\"' in final
    assert not team_dir.exists()  # deleted
    # And unwired: the request after TeamDelete has the session's tools again.
    final_tools = {t["name"]: t for t in main[-1]["tools"]}
    assert "TeamDelete" not in final_tools
    assert final_tools["SendMessage"]["description"] == before["description"]
    # Each teammate spoke with its own identity, and has its own sidechain transcript.
    sidechains = sorted(project.config.glob("projects/*/*/subagents/agent-*.jsonl"))
    assert len(sidechains) == 2


def test_a_message_wakes_an_idle_leader_and_taskstop_takes_a_name(project: Project) -> None:
    project.env["CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS"] = "1"
    api = project.api
    team_dir = project.config / "teams" / "docs"
    never = project.root / "never"
    seen: dict[str, Any] = {}

    def leader(body: dict[str, Any]) -> Reply:
        results = results_of(body)
        if '{"success": true, "team_name": "docs"}' in results:
            return Reply("Stopped alpha and closed the team.")
        if "Successfully stopped task" in results:
            return Reply([call("TeamDelete")])
        if "halfway there" in json.dumps(body["messages"]):
            seen.setdefault("config", json.loads((team_dir / "config.json").read_text()))
            return Reply([call("TaskStop", task_id="alpha")])
        return Reply("Still waiting for alpha.")

    api.script(
        Reply([call("TeamCreate", team_name="docs")]),
        Reply([call("Agent", description="alpha part", prompt="ALPHA-TASK: go",
                    team_name="docs", name="alpha")]),
        *[Dynamic(leader) for _ in range(6)],
    )
    alpha = api.route("ALPHA-TASK",
                      Reply([call("SendMessage", to="team-lead", message="halfway there")]),
                      Reply("too late", hold_after_block={0: never.exists}))
    run = project.run("-p", "start alpha", "--output-format", "stream-json", "--verbose")
    assert run.returncode == 0, run.stderr + run.stdout
    results = [r for r in run.records() if r["type"] == "result"]
    assert results[-1]["result"] == "Stopped alpha and closed the team."
    # The leader heard alpha while alpha was still at work (woken by the message).
    members = {m["name"]: m for m in seen["config"]["members"]}
    assert members["alpha"]["status"] == "active"
    assert len(alpha.requests) == 2  # its second request was never answered: stopped
    stopped = next(json.loads(b["content"]) for body in api.bodies
                   for b in body["messages"][-1]["content"]
                   if isinstance(b, dict) and "Successfully stopped task" in str(b.get("content")))
    assert stopped["task_type"] == "local_agent"
    assert stopped["task_id"] == members["alpha"]["agentId"]
    assert not team_dir.exists()


def test_a_letter_wakes_an_idle_teammate_and_a_shutdown_is_asked_and_approved(
        project: Project) -> None:
    project.env["CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS"] = "1"
    api = project.api
    team_dir = project.config / "teams" / "docs"
    seen: dict[str, Any] = {}
    part_two = "toolu_part_two"

    def leader(body: dict[str, Any]) -> Reply:
        sent = json.dumps(body["messages"])
        results = results_of(body)
        if '{"success": true, "team_name": "docs"}' in results:
            return Reply("alpha did both parts and has shut down.")
        if "shutdown_approved" in sent:
            seen.setdefault("config_end", json.loads((team_dir / "config.json").read_text()))
            seen.setdefault("alpha_inbox", json.loads(
                (team_dir / "inboxes" / "alpha.json").read_text()))
            return Reply([call("TeamDelete")])
        if "part two done" in sent and sent.count("<task-notification>") >= 2 and \
                not seen.get("asked"):
            seen["asked"] = True
            return Reply([call("SendMessage", to="alpha", summary="wrap up", message=json.dumps(
                {"type": "shutdown_request", "reason": "both parts are done"}))])
        if "part one done" in sent and "<task-notification>" in sent and part_two not in sent:
            seen.setdefault("config_idle", json.loads((team_dir / "config.json").read_text()))
            return Reply([tool_use("SendMessage", {"to": "alpha", "summary": "part two",
                                                   "message": "PART-TWO: now do b.py"},
                                   id=part_two)])
        return Reply("Waiting for alpha.")

    api.script(
        Reply([call("TeamCreate", team_name="docs")]),
        Reply([call("Agent", description="alpha part", prompt="ALPHA-TASK: document a.py",
                    team_name="docs", name="alpha")]),
        *[Dynamic(leader) for _ in range(12)],
    )

    def shutdown_answer(body: dict[str, Any]) -> Reply:
        found = re.search(r"shutdown-\d+@alpha", json.dumps(body["messages"][-1]))
        assert found, "the request id reaches alpha"
        return Reply([call("SendMessage", to="team-lead", message=json.dumps(
            {"type": "shutdown_response", "request_id": found.group(0), "approve": True}))])

    alpha = api.route(
        "ALPHA-TASK",
        Reply([call("SendMessage", to="team-lead", summary="part one", message="part one done")]),
        Reply("Reported part one."),
        Reply([call("SendMessage", to="team-lead", summary="part two", message="part two done")]),
        Reply("Reported part two."),
        Dynamic(shutdown_answer),
        Reply("never sent: the approved shutdown ends the run"))
    run = project.run("-p", "document with alpha", "--output-format", "stream-json", "--verbose")
    assert run.returncode == 0, run.stderr + run.stdout
    api.assert_clean()
    assert [r for r in run.records() if r["type"] == "result"][-1]["result"] == \
        "alpha did both parts and has shut down."

    # Idle after its first run; woken by the letter, its conversation intact.
    idle = {m["name"]: m["status"] for m in seen["config_idle"]["members"]}
    assert idle["alpha"] == "idle"
    woken = alpha.requests[2].body["messages"]
    assert woken[0]["content"][0]["text"] == "ALPHA-TASK: document a.py"
    assert "part one done" in json.dumps(woken[1])
    assert '<agent-message from=\\"team-lead\\" summary=\\"part two\\">' in json.dumps(woken[-1])
    assert "PART-TWO: now do b.py" in json.dumps(woken[-1])
    # Its second run was announced for the letter that started it.
    notes = [n for body in api.bodies for n in re.findall(
        r"<task-notification>.*?</task-notification>", json.dumps(body["messages"][-1]))]
    assert any(f"<tool-use-id>{part_two}</tool-use-id>" in n for n in notes)
    # The shutdown: asked, approved, the run ended with the answer, alpha done for good.
    assert len(alpha.requests) == 5
    assert {m["name"]: m["status"] for m in seen["config_end"]["members"]}["alpha"] == "done"
    letters = seen["alpha_inbox"]
    request = json.loads(letters[-1]["text"])
    assert request["type"] == "shutdown_request" and request["from"] == "team-lead"
    assert request["requestId"].endswith("@alpha") and request["reason"] == "both parts are done"
    assert all(x["read"] for x in letters)
    final = json.dumps(api.bodies[-1]["messages"])
    assert "shutdown_approved" in final and request["requestId"] in final
    assert not team_dir.exists()


IDLE_HOOK = """\
import json, pathlib, sys
data = json.load(sys.stdin)
log = pathlib.Path(sys.argv[1])
with log.open("a") as f:
    f.write(json.dumps(data) + "\\n")
if len(log.read_text().splitlines()) == 1:
    print("write the summary too", file=sys.stderr)
    sys.exit(2)
"""


def test_a_teammate_idle_hook_sends_it_back_to_work(project: Project) -> None:
    project.env["CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS"] = "1"
    api = project.api
    log = project.root / "idle.jsonl"
    script = project.root / "idle_hook.py"
    script.write_text(IDLE_HOOK)
    settings = project.root / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {"TeammateIdle": [{"hooks": [
        {"type": "command", "command": f"{sys.executable} {script} {log}"}]}]}}))

    def leader(body: dict[str, Any]) -> Reply:
        if "<task-notification>" in json.dumps(body["messages"][-1]):
            return Reply("alpha wrote the summary.")
        return Reply("Waiting for alpha.")

    api.script(
        Reply([call("TeamCreate", team_name="docs")]),
        Reply([call("Agent", description="alpha part", prompt="ALPHA-TASK: document a.py",
                    team_name="docs", name="alpha")]),
        *[Dynamic(leader) for _ in range(4)],
    )
    alpha = api.route("ALPHA-TASK", Reply("a.py documented."), Reply("Summary written."))
    run = project.run("-p", "document a.py", "--output-format", "json")
    assert run.returncode == 0, run.stderr + run.stdout
    assert run.json()["result"] == "alpha wrote the summary."
    assert len(alpha.requests) == 2
    nudge = json.dumps(alpha.requests[1].body["messages"][-1])
    assert "TeammateIdle hook feedback" in nudge and "write the summary too" in nudge
    inputs = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(inputs) == 2  # blocked once, then let it rest
    assert all(i["hook_event_name"] == "TeammateIdle" and i["teammate_name"] == "alpha"
               and i["team_name"] == "docs" for i in inputs)


def test_notify_when_idle_tells_the_sender_when_the_member_stops(project: Project) -> None:
    project.env["CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS"] = "1"
    api = project.api

    def sent_seen() -> bool:
        return any("Message sent to alpha" in json.dumps(b["messages"][-1]) for b in api.bodies)

    def leader(body: dict[str, Any]) -> Reply:
        if "alpha has stopped working (idle)" in json.dumps(body["messages"]):
            return Reply("alpha is idle now.")
        return Reply("Waiting for alpha.")

    api.script(
        Reply([call("TeamCreate", team_name="docs")]),
        Reply([call("Agent", description="alpha part", prompt="ALPHA-TASK: document a.py",
                    team_name="docs", name="alpha")]),
        Reply([call("SendMessage", to="alpha", message="also look at c.py",
                    notify_when_idle=True)]),
        *[Dynamic(leader) for _ in range(6)],
    )
    alpha = api.route("ALPHA-TASK", Reply("a.py documented.", hold_after_block={0: sent_seen}),
                      Reply("c.py looked at."))
    run = project.run("-p", "document a.py", "--output-format", "json")
    assert run.returncode == 0, run.stderr + run.stdout
    assert run.json()["result"] == "alpha is idle now."
    assert len(alpha.requests) == 2  # the letter came late for its run: one more run
    assert "also look at c.py" in json.dumps(alpha.requests[1].body["messages"][-1])
