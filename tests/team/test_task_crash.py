"""A team's task list survives a crash of one teammate: the leader and its members share
one list (`<config>/tasks/<team>/`); alpha claims a task and its next request fails for
good; its task is pending again with no owner, the leader is told which, beta takes it
over, and after TeamDelete the leader is back on the session's own list."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import Project
from tests.fakeapi import Dynamic, Fault, Reply, tool_use
from tests.team.test_team_e2e import results_of

TEAM = "crew"
RELEASED = "Released the tasks alpha owned and had not completed (#1)"


def call(tool: str, **inp: Any) -> Reply:
    return Reply([tool_use(tool, inp)])


def task_files(folder: Path) -> dict[str, Any]:
    """Every file of a list folder, task files parsed (each must be valid JSON)."""
    return {p.name: json.loads(p.read_text()) if p.suffix == ".json" else p.read_text()
            for p in sorted(folder.iterdir())}


def test_the_task_list_survives_a_crash_of_one_teammate(project: Project) -> None:
    project.env["CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS"] = "1"
    api = project.api
    tasks_root = project.config / "tasks"
    team_list = tasks_root / TEAM
    seen: dict[str, Any] = {}
    stage = [0]

    def finished(body: dict[str, Any], member: str) -> int:
        """How many runs of `member` the leader has heard end well."""
        return json.dumps(body["messages"]).count(f'Agent \\"{member} part\\" finished')

    def leader(body: dict[str, Any]) -> Reply:
        sent = json.dumps(body["messages"])
        results = results_of(body)
        if stage[0] == 0:  # until alpha has crashed and beta has done task 2
            if 'Agent \\"alpha part\\" failed' not in sent or finished(body, "beta") < 1:
                return Reply("Waiting for the team.")
            seen["after_crash"] = task_files(team_list)
            seen["folders"] = sorted(p.name for p in tasks_root.iterdir())
            stage[0] = 1
            return call("TaskList")
        if stage[0] == 1:
            seen["list_after_crash"] = results
            stage[0] = 2
            return call("SendMessage", to="beta", summary="take task 1",
                        message="Alpha crashed: task #1 is free again, take it.")
        if stage[0] == 2:  # until beta's second run has ended
            if finished(body, "beta") < 2:
                return Reply("Waiting for beta.")
            stage[0] = 3
            return call("TaskList")
        if stage[0] == 3:
            seen["list_at_end"] = results
            stage[0] = 4
            return call("TeamDelete")
        if stage[0] == 4:
            seen["deleted"] = results
            stage[0] = 5
            return call("TaskList")
        seen["list_after_delete"] = results
        return Reply("The crew is done.")

    api.script(
        call("TaskCreate", subject="Solo chore", description="the session's own"),
        call("TeamCreate", team_name=TEAM, description="two tasks, two members"),
        call("TaskCreate", subject="Task one", description="the first part"),
        call("TaskCreate", subject="Task two", description="the second part"),
        call("TaskCreate", subject="Scratch", description="made and removed"),
        call("TaskUpdate", taskId="3", status="deleted"),  # a high-water mark to keep
        Reply([tool_use("Agent", {"description": "alpha part", "prompt": "ALPHA-TASK: do #1",
                                  "team_name": TEAM, "name": "alpha"}),
               tool_use("Agent", {"description": "beta part", "prompt": "BETA-TASK: do #2",
                                  "team_name": TEAM, "name": "beta"})]),
        *[Dynamic(leader) for _ in range(16)],
    )

    def crash(body: dict[str, Any]) -> Fault:
        seen["claimed"] = json.loads((team_list / "1.json").read_text())
        return Fault(400, message="alpha's request is refused for good")

    alpha = api.route("ALPHA-TASK", call("TaskUpdate", taskId="1", owner="alpha",
                                         status="in_progress"), Dynamic(crash))
    beta = api.route(
        "BETA-TASK",
        call("TaskUpdate", taskId="2", owner="beta", status="in_progress"),
        call("TaskUpdate", taskId="2", status="completed"),
        call("SendMessage", to="team-lead", summary="task 2 done", message="beta: #2 done"),
        Reply("Reported."),
        # Its second run, woken by the leader's letter.
        call("TaskUpdate", taskId="1", owner="beta", status="in_progress"),
        call("TaskUpdate", taskId="1", status="completed"),
        call("SendMessage", to="team-lead", summary="task 1 done", message="beta: #1 done"),
        Reply("Reported again."),
    )
    run = project.run("-p", "share the work with a crew", "--output-format", "stream-json",
                      "--verbose")
    assert run.returncode == 0, run.stderr + run.stdout
    api.assert_clean()
    results = [r for r in run.records() if r["type"] == "result"]
    assert results[-1]["result"] == "The crew is done."
    assert len(alpha.requests) == 2 and beta.turns_left == 0

    # Alpha held task 1 when it crashed; the crash handed it back, and nothing else moved.
    assert seen["claimed"]["owner"] == "alpha" and seen["claimed"]["status"] == "in_progress"
    files = seen["after_crash"]
    assert files == {
        ".highwatermark": "3",
        ".lock": "",
        "1.json": {"id": "1", "subject": "Task one", "description": "the first part",
                   "status": "pending", "blocks": [], "blockedBy": []},
        "2.json": {"id": "2", "subject": "Task two", "description": "the second part",
                   "status": "completed", "blocks": [], "blockedBy": [], "owner": "beta"},
    }
    session_list = [name for name in seen["folders"] if name != TEAM]
    assert len(session_list) == 1 and seen["folders"] == sorted([TEAM, *session_list])
    assert seen["list_after_crash"] == "#1 [pending] Task one\n#2 [completed] Task two (beta)"
    main = [r.body for r in api.requests if r.route is None]
    told = [json.dumps(b["messages"][-1]) for b in main]
    crash_news = next(t for t in told if 'Agent \\"alpha part\\" failed' in t)
    assert RELEASED in crash_news  # the notification says which tasks were released
    assert sum(RELEASED in t for t in told) == 1

    # Beta took task 1 over and finished it; TeamDelete took the team's list with it.
    assert seen["list_at_end"] == ("#1 [completed] Task one (beta)\n"
                                   "#2 [completed] Task two (beta)")
    assert f'"team_name": "{TEAM}"' in seen["deleted"]
    assert not team_list.exists() and not (project.config / "teams" / TEAM).exists()
    assert seen["list_after_delete"] == "#1 [pending] Solo chore"  # the session's own again
    assert sorted(p.name for p in tasks_root.iterdir()) == session_list


def test_a_teammate_stopped_with_taskstop_hands_its_task_back(project: Project) -> None:
    project.env["CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS"] = "1"
    api = project.api
    team_list = project.config / "tasks" / TEAM
    seen: dict[str, Any] = {}

    def stopped() -> bool:
        return any("Successfully stopped task" in json.dumps(b["messages"][-1])
                   for b in api.bodies)

    def leader(body: dict[str, Any]) -> Reply:
        results = results_of(body)
        if "Successfully stopped task" in results:
            return call("TaskList")
        if results.startswith("#1 ["):
            seen["list"] = results
            seen["file"] = json.loads((team_list / "1.json").read_text())
            return call("TeamDelete")
        if f'"team_name": "{TEAM}"' in results:
            return Reply("Stopped alpha; its task is free.")
        if "claimed #1" in json.dumps(body["messages"]):
            return call("TaskStop", task_id="alpha")
        return Reply("Waiting for alpha.")

    api.script(
        call("TeamCreate", team_name=TEAM),
        call("TaskCreate", subject="Task one", description="the only part"),
        call("Agent", description="alpha part", prompt="ALPHA-TASK: do #1", team_name=TEAM,
             name="alpha"),
        *[Dynamic(leader) for _ in range(8)],
    )
    alpha = api.route(
        "ALPHA-TASK",
        call("TaskUpdate", taskId="1", owner="alpha", status="in_progress"),
        call("SendMessage", to="team-lead", summary="claimed", message="claimed #1"),
        Reply("still at it", hold_after_block={0: stopped}),  # until it is stopped
    )
    run = project.run("-p", "start alpha", "--output-format", "stream-json", "--verbose")
    assert run.returncode == 0, run.stderr + run.stdout
    api.assert_clean()
    results = [r for r in run.records() if r["type"] == "result"]
    assert results[-1]["result"] == "Stopped alpha; its task is free."
    assert alpha.turns_left == 0
    assert seen["list"] == "#1 [pending] Task one"
    assert seen["file"] == {"id": "1", "subject": "Task one", "description": "the only part",
                            "status": "pending", "blocks": [], "blockedBy": []}
    main = [json.dumps(r.body["messages"]) for r in api.requests if r.route is None]
    assert any(RELEASED in m and 'Agent \\"alpha part\\" was stopped' in m for m in main)
