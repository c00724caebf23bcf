"""A sub-agent's refused calls are the session's: the result record's `permission_denials`
lists them (with the sub-agent's call ids and inputs) beside the main agent's own, each
once, whether the agent ran in the foreground or the background, or was continued."""

from __future__ import annotations

import json
from typing import Any

from tests.conftest import Project
from tests.fakeapi import Dynamic, Reply, tool_use


def denial(call: dict[str, Any]) -> dict[str, Any]:
    """The entry a refused `call` makes in `permission_denials`."""
    return {"tool_name": call["name"], "tool_use_id": call["id"], "tool_input": call["input"]}


def agent_call(description: str, prompt: str, **extra: Any) -> dict[str, Any]:
    return tool_use("Agent", {"description": description, "prompt": prompt, **extra})


def refused_calls(project: Project) -> tuple[dict[str, Any], dict[str, Any]]:
    """A Write and a Bash `rm`, both refused in default mode with nobody to ask."""
    (project.root / "keep.txt").write_text("keep\n")
    write = tool_use("Write", {"file_path": str(project.root / "out.txt"), "content": "x"})
    remove = tool_use("Bash", {"command": "rm keep.txt", "description": "Remove keep.txt"})
    return write, remove


def test_a_foreground_agents_refusals_are_in_the_json_result(project: Project) -> None:
    api = project.api
    write, remove = refused_calls(project)
    api.script(Reply([agent_call("Tidy up", "TIDY-TASK: write out.txt, remove keep.txt")]),
               Reply("The agent was refused both."))
    worker = api.route("TIDY-TASK", Reply([write, remove]), Reply("Both were refused."))
    run = project.run("-p", "tidy up via an agent", "--output-format", "json")
    assert run.returncode == 0, run.stderr + run.stdout
    api.assert_clean()
    assert len(worker.requests) == 2
    assert run.json()["permission_denials"] == [denial(write), denial(remove)]
    assert (project.root / "keep.txt").exists() and not (project.root / "out.txt").exists()


def test_the_stream_json_result_lists_the_agents_and_the_main_agents_refusals(
        project: Project) -> None:
    api = project.api
    write, remove = refused_calls(project)
    own = tool_use("Bash", {"command": "rm -f other.txt", "description": "Remove other.txt"})
    api.script(Reply([own]),
               Reply([agent_call("Tidy up", "TIDY-TASK: write out.txt, remove keep.txt")]),
               Reply("Nothing could be changed."))
    api.route("TIDY-TASK", Reply([write]), Reply([remove]), Reply("Both were refused."))
    run = project.run("-p", "tidy up", "--output-format", "stream-json", "--verbose")
    assert run.returncode == 0, run.stderr + run.stdout
    api.assert_clean()
    (result,) = [r for r in run.records() if r["type"] == "result"]
    assert result["permission_denials"] == [denial(own), denial(write), denial(remove)]
    # The sub-agent's calls are its own in the stream, marked with its Agent call's id.
    agent_calls = [r for r in run.records() if r["type"] == "assistant"
                   and r["message"]["content"][0]["type"] == "tool_use"
                   and r["parent_tool_use_id"] is not None]
    assert [r["message"]["content"][0]["id"] for r in agent_calls] == [write["id"],
                                                                      remove["id"]]


def test_a_background_agents_refusals_count_and_a_continued_runs_too(
        project: Project) -> None:
    """The background agent is refused a Write in its first run and a Bash `rm` in the run
    SendMessage starts; print mode writes a result for each turn of the lead, and the last
    lists both refusals once each (every record lists the session's so far)."""
    api = project.api
    write, remove = refused_calls(project)

    def continue_it(body: dict[str, Any]) -> Reply:
        sent = json.dumps(body["messages"])
        agent_id = sent.split("agentId: ", 1)[1][:17]
        return Reply([tool_use("SendMessage", {"to": agent_id, "message": "MORE: remove it"})])

    api.script(
        Reply([agent_call("Write it", "BG-TASK: write out.txt", run_in_background=True)]),
        Reply("Started it."),
        Dynamic(continue_it),
        Reply("Asked for more."),
        Reply("It was refused both."),
    )
    worker = api.route("BG-TASK", Reply([write]), Reply("Writing was refused."),
                       Reply([remove]), Reply("Removing was refused."))
    run = project.run("-p", "write via a background agent", "--output-format", "stream-json",
                      "--verbose")
    assert run.returncode == 0, run.stderr + run.stdout
    api.assert_clean()
    assert len(worker.requests) == 4
    results = [r for r in run.records() if r["type"] == "result"]
    assert len(results) == 3
    # Each record lists the session's refusals as they stand when it is written: a turn's
    # record is written once the agents it waits for have ended (print mode waits for
    # them before the next turn), so the first holds the first run's, the others both.
    assert results[0]["permission_denials"] == [denial(write)]
    assert results[1]["permission_denials"] == [denial(write), denial(remove)]
    assert results[2]["permission_denials"] == [denial(write), denial(remove)]
    assert results[2]["result"] == "It was refused both."


def test_a_teammates_refusals_are_the_sessions(project: Project) -> None:
    project.env["CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS"] = "1"
    api = project.api
    write, _ = refused_calls(project)
    api.script(
        Reply([tool_use("TeamCreate", {"team_name": "crew", "description": "write things"})]),
        Reply([agent_call("Write part", "CREW-TASK: write out.txt", team_name="crew",
                          name="writer")]),
        Reply("Waiting for writer."),
        Reply("Writer was refused."),
    )
    api.route("CREW-TASK", Reply([write]), Reply("I was refused."))
    run = project.run("-p", "write with a team", "--output-format", "json")
    assert run.returncode == 0, run.stderr + run.stdout
    api.assert_clean()
    assert run.json()["result"] == "Writer was refused."
    assert run.json()["permission_denials"] == [denial(write)]
