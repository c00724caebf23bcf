"""Sub-agents end to end: `python -m cc -p` against the fake API, each agent scripted on
its own route (matched by the text of its prompt)."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

from tests.conftest import Project
from tests.fakeapi import Dynamic, Reply, first_user_text, system_text, text, tool_use
from tests.waiting import wait_for


def agent_call(description: str, prompt: str, **extra: Any) -> dict[str, Any]:
    return tool_use("Agent", {"description": description, "prompt": prompt, **extra})


def sidechains(project: Project) -> list[Path]:
    return sorted(project.config.glob("projects/*/*/subagents/agent-*.jsonl"))


def lines_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_two_agents_in_one_message_both_report(project: Project) -> None:
    (project.root / "a.txt").write_text("alpha\n")
    api = project.api
    api.script(
        Reply([text("Splitting the work."),
               agent_call("Count a", "TASK-A: how many lines has a.txt?"),
               agent_call("Look at b", "TASK-B: is there a b.txt?", subagent_type="Explore")]),
        Reply("Both agents reported: one line, and no b.txt."),
    )
    route_a = api.route("TASK-A", Reply([tool_use("Read", {"file_path": str(project.root / "a.txt")})]),
                        Reply("a.txt has 1 line."))
    route_b = api.route("TASK-B", Reply("There is no b.txt."))
    run = project.run("-p", "check the files", "--output-format", "json")
    assert run.returncode == 0, run.stderr + run.stdout
    assert run.json()["result"] == "Both agents reported: one line, and no b.txt."
    api.assert_clean()

    main_bodies = [r.body for r in api.requests if r.route is None]
    results = main_bodies[1]["messages"][-1]["content"]
    assert [r["type"] for r in results] == ["tool_result", "tool_result"]
    report_a = "".join(b["text"] for b in results[0]["content"])
    report_b = "".join(b["text"] for b in results[1]["content"])
    assert "<tools-used-before-summary>Read</tools-used-before-summary>" in report_a
    assert "  a.txt has 1 line." in report_a and "agentId: a" in report_a
    agent_id = report_a.split("agentId: ")[1].split()[0]
    assert [r.headers.get("x-claude-code-agent-id") for r in route_a.requests] == [agent_id] * 2
    assert all("x-claude-code-agent-id" not in r.headers for r in api.requests if r.route is None)
    assert "<usage>subagent_tokens:" in report_a
    assert "  There is no b.txt." in report_b and "agentId" not in report_b  # Explore: one-shot

    # Each sub-agent had its own short system prompt and a filtered tool list.
    body_a, body_b = route_a.requests[0].body, route_b.requests[0].body
    main_tools = {t["name"] for t in main_bodies[0]["tools"]}
    assert "Agent" in main_tools
    tools_a = {t["name"] for t in body_a["tools"]}
    tools_b = {t["name"] for t in body_b["tools"]}
    assert "Agent" not in tools_a and {"Bash", "Read", "Edit", "Write"} <= tools_a
    assert "Agent" not in tools_b and not {"Edit", "Write"} & tools_b and "Read" in tools_b
    assert "general-purpose agent" in system_text(body_a)
    assert "general-purpose agent" not in system_text(main_bodies[0])
    assert first_user_text(body_a).startswith("TASK-A")
    assert len(system_text(body_a)) < len(system_text(main_bodies[0])) / 2

    # Sidechains beside the parent's transcript; the parent's own file holds none of them.
    files = sidechains(project)
    assert len(files) == 2
    for path in files:
        lines = lines_of(path)
        assert lines and all(line["isSidechain"] is True for line in lines)
        agent_id = path.stem.removeprefix("agent-")
        assert all(line["agentId"] == agent_id for line in lines)
        assert lines[0]["parentUuid"] is None
        meta = json.loads(path.with_suffix(".meta.json").read_text())
        assert meta["finished"] is True and meta["requestShape"] == "foreground"
    parent_file = files[0].parent.parent.with_suffix(".jsonl")
    parent_lines = lines_of(parent_file)
    assert not any(line.get("isSidechain") for line in parent_lines)
    session_id = parent_lines[0]["sessionId"]
    assert {lines_of(p)[0]["sessionId"] for p in files} == {session_id}


def test_continue_after_agents_resends_no_sidechain(project: Project) -> None:
    api = project.api
    api.script(Reply([agent_call("Sum", "SUM-TASK: add 2 and 2")]), Reply("It is 4."))
    api.route("SUM-TASK", Reply("4"))
    first = project.run("-p", "what is 2+2, ask an agent")
    assert first.returncode == 0, first.stderr
    api.script(Reply("Yes, 4."))
    again = project.run("-c", "-p", "sure?")
    assert again.returncode == 0, again.stderr
    last = api.requests[-1].body
    assert last["messages"][0]["content"][0]["text"].endswith("what is 2+2, ask an agent")
    sent = json.dumps(last["messages"])
    assert "SUM-TASK: add 2 and 2" in sent  # the parent's own Agent call is kept ...
    roles = [m["role"] for m in last["messages"]]
    assert roles == ["user", "assistant", "user", "assistant", "user"]  # ... and nothing else
    api.assert_clean()


def test_a_denied_call_in_a_subagent_is_reported_not_asked(project: Project) -> None:
    target = project.root / "out.txt"
    api = project.api
    api.script(Reply([agent_call("Write it", "WRITE-TASK: write out.txt")]),
               Reply("The agent could not write."))
    api.route("WRITE-TASK",
              Reply([tool_use("Write", {"file_path": str(target), "content": "x"})]),
              Reply("I was not allowed to write out.txt."))
    run = project.run("-p", "write the file via an agent", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    assert not target.exists()
    sub_result = api.routes[0].requests[1].body["messages"][-1]["content"][0]
    assert sub_result["is_error"] is True
    report = json.dumps(api.requests[-1].body["messages"][-1]["content"])
    assert "Calls refused permission: Write(" in report
    api.assert_clean()


def test_unknown_agent_type_lists_the_known_ones(project: Project) -> None:
    api = project.api
    api.script(Reply([agent_call("x", "y", subagent_type="nope")]), Reply("ok"))
    run = project.run("-p", "go")
    assert run.returncode == 0, run.stderr
    result = api.requests[-1].body["messages"][-1]["content"][0]
    assert result["is_error"] is True
    assert "Agent type 'nope' not found. Available agents: Explore, fork, general-purpose, Plan" \
        in result["content"]


def test_a_background_agent_notifies_the_next_turn(project: Project) -> None:
    api = project.api
    api.script(
        Reply([agent_call("Survey", "BG-TASK: list the files", run_in_background=True)]),
        Reply("Started a survey in the background."),
        Reply("The survey found two files."),
    )
    api.route("BG-TASK", Reply("Found two files: a.txt and b.txt."))
    run = project.run("-p", "survey the project", "--output-format", "stream-json", "--verbose")
    assert run.returncode == 0, run.stderr + run.stdout
    api.assert_clean()
    main = [r.body for r in api.requests if r.route is None]
    launched = main[1]["messages"][-1]["content"][0]
    assert launched["type"] == "tool_result" and not launched.get("is_error")
    launched_text = launched["content"] if isinstance(launched["content"], str) else json.dumps(
        launched["content"])
    assert launched_text.startswith("Async agent launched successfully.")
    agent_id = launched_text.split("agentId: ")[1].split()[0]
    notified = json.dumps(main[2]["messages"][-1])
    assert "<task-notification>" in notified and f"<task-id>{agent_id}</task-id>" in notified
    assert "<status>completed</status>" in notified
    assert "Found two files: a.txt and b.txt." in notified
    results = [r for r in run.records() if r["type"] == "result"]
    assert [r["result"] for r in results] == ["Started a survey in the background.",
                                              "The survey found two files."]
    assert results[1]["origin"]["kind"] == "task-notification"


def launched_agent_id(body: dict[str, Any]) -> str:
    """The agentId in the last tool result of a request (an Agent call's, run in the
    background)."""
    text = json.dumps(body["messages"][-1]["content"])
    return text.split("agentId: ")[1].split("\\n")[0].split()[0]


def test_a_background_agent_can_be_stopped(project: Project) -> None:
    api = project.api
    never = project.root / "never"
    # The sub-agent's answer is held until `never` exists, which it never does.
    slow = api.route("SLOW-TASK", Reply("too late", hold_after_block={0: never.exists}))

    def stop_it(body: dict[str, Any]) -> Reply:
        wait_for(lambda: slow.requests, what="the background agent's request")  # it runs
        return Reply([tool_use("TaskStop", {"task_id": launched_agent_id(body)})])

    api.script(
        Reply([agent_call("Wait", "SLOW-TASK: wait", run_in_background=True)]),
        Dynamic(stop_it),
        Reply("Stopped it."),
    )
    run = project.run("-p", "start and stop", "--output-format", "json")
    assert run.returncode == 0, run.stderr + run.stdout
    assert run.json()["result"] == "Stopped it."
    stop_result = api.requests[-1].body["messages"][-1]["content"][0]
    assert not stop_result.get("is_error"), stop_result
    stopped = json.loads(stop_result["content"])
    assert stopped["task_type"] == "local_agent" and stopped["message"].startswith(
        "Successfully stopped task: a")
    assert len(slow.requests) == 1  # it was asked once, and never answered


def test_stream_json_marks_subagent_records(project: Project) -> None:
    (project.root / "a.txt").write_text("alpha\n")
    api = project.api
    call = agent_call("Read a", "REC-TASK: read a.txt")
    api.script(Reply([call]), Reply("Done."))
    api.route("REC-TASK", Reply([text("Reading."), tool_use("Read", {"file_path": str(project.root / "a.txt")})]),
              Reply("It says alpha."))
    run = project.run("-p", "go", "--output-format", "stream-json", "--verbose")
    assert run.returncode == 0, run.stderr + run.stdout
    records = run.records()
    started = [r for r in records if r.get("subtype") == "task_started"]
    assert len(started) == 1 and started[0]["tool_use_id"] == call["id"]
    assert started[0]["subagent_type"] == "general-purpose" and started[0]["task_type"] == "local_agent"
    agent_id = started[0]["task_id"]
    inner = [r for r in records if r.get("parent_tool_use_id") == call["id"]]
    kinds = [(r["type"], r["message"]["content"][0]["type"]) for r in inner]
    assert kinds == [("user", "text"), ("assistant", "tool_use"), ("user", "tool_result")]
    assert all(r["agent_id"] == agent_id for r in inner)
    assert not any(b.get("text") == "Reading." for r in inner for b in r["message"]["content"])
    notified = [r for r in records if r.get("subtype") == "task_notification"]
    assert len(notified) == 1 and notified[0]["status"] == "completed"
    top = [r for r in records if r["type"] in ("user", "assistant") and r["parent_tool_use_id"] is None]
    assert [r["type"] for r in top] == ["assistant", "user", "assistant"]


def test_interrupting_the_parent_stops_a_foreground_agent_and_its_commands(
    project: Project,
) -> None:
    from tests.e2e.test_interrupts import Lines
    from tests.e2e.test_sessions import start
    from tests.processes import alive

    pidfile = project.root / "sleeper.pid"
    never = project.root / "never"
    api = project.api
    api.script(Reply([agent_call("Sleep", "SLEEP-TASK: start a sleeper")]))
    api.route("SLEEP-TASK",
              Reply([tool_use("Bash", {"command": f"sleep 300 & echo $! > {pidfile}; wait",
                                       "run_in_background": True})]),
              Reply("still here", hold_after_block={0: never.exists}))
    proc = start(project, "-p", "go", "--output-format", "stream-json", "--verbose",
                 "--permission-mode", "bypassPermissions")
    out = Lines(proc)
    out.until(lambda r: r.get("type") == "user" and r.get("parent_tool_use_id") is not None
              and r["message"]["content"][0]["type"] == "tool_result")
    pid = int(wait_for(lambda: pidfile.exists() and pidfile.read_text().strip()))
    assert alive(pid)
    proc.send_signal(signal.SIGINT)
    assert out.finish() == 0
    assert out.records[-1]["type"] == "result" and out.records[-1]["is_error"] is True
    wait_for(lambda: not alive(pid), what="the sub-agent's background command to be killed")


def test_the_session_cost_includes_its_agents(project: Project) -> None:
    api = project.api
    api.script(Reply([agent_call("Count", "COST-TASK: count")], usage={"output_tokens": 10}),
               Reply("done", usage={"output_tokens": 10}))
    api.route("COST-TASK", Reply("three", usage={"input_tokens": 1000, "output_tokens": 500}))
    run = project.run("-p", "go", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    usage = run.json()["usage"]
    assert usage["output_tokens"] == 520  # the main agent's 20 and the sub-agent's 500
    assert usage["input_tokens"] >= 1000
