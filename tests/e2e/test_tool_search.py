"""Deferred tools and ToolSearch end to end: announced by name, loaded by a ToolSearch
result's `tool_reference` blocks, defined in full with `defer_loading` from the next
request on, and kept loaded across -c and compaction; off for another endpoint and with
ENABLE_TOOL_SEARCH=false (the fake checks every request against the API's rules)."""

from __future__ import annotations

import json
from typing import Any

from tests.conftest import Project
from tests.fakeapi import TOOL_SEARCH_BETA, Reply, text, tool_use

SUMMARY = "<analysis>looked</analysis>\n<summary>The user loaded the task tools.</summary>"


def names(body: dict[str, Any]) -> list[str]:
    return [t["name"] for t in body["tools"]]


def deferred(body: dict[str, Any]) -> set[str]:
    return {t["name"] for t in body["tools"] if t.get("defer_loading")}


def search_on(project: Project) -> None:
    project.env["ENABLE_TOOL_SEARCH"] = "true"  # the fake stands for Anthropic's API


def test_select_loads_a_deferred_tool_for_the_next_request(project: Project) -> None:
    search_on(project)
    project.api.script(
        Reply([tool_use("ToolSearch", {"query": "select:TaskCreate", "max_results": 5})]),
        Reply([text("loaded")]),
    )
    run = project.run("-p", "plan the work")
    assert run.returncode == 0, run.stderr
    first, second = project.api.bodies
    tools = names(first)
    assert "TaskCreate" not in tools and "ToolSearch" in tools
    assert tools[-2] == "DeferredToolPlaceholder" and deferred(first) == {"DeferredToolPlaceholder"}
    assert [n for n in tools if n != "DeferredToolPlaceholder"] == sorted(
        n for n in tools if n != "DeferredToolPlaceholder")
    reminder = json.dumps(first["messages"])
    assert "ToolSearch" in reminder and "TaskCreate" in reminder and "TeamCreate" not in reminder
    assert deferred(second) == {"DeferredToolPlaceholder", "TaskCreate"}
    created = next(t for t in second["tools"] if t["name"] == "TaskCreate")
    assert created["input_schema"]["required"] == ["subject", "description"]
    [result] = [b for b in second["messages"][-1]["content"] if b.get("type") == "tool_result"]
    assert result["content"] == [{"type": "tool_reference", "tool_name": "TaskCreate"}]
    beta = project.api.requests[1].headers.get("anthropic-beta", "")
    assert TOOL_SEARCH_BETA in beta.split(",")
    project.api.assert_clean()

    # -c: the loaded tool is still defined; nothing is announced twice
    project.api.script(Reply([text("still here")]))
    assert project.run("-c", "-p", "and now?").returncode == 0
    resumed = project.api.bodies[-1]
    assert "TaskCreate" in deferred(resumed)
    assert json.dumps(resumed["messages"]).count("Deferred tools (") == 1
    project.api.assert_clean()


def test_a_loaded_tool_stays_loaded_after_compaction(project: Project) -> None:
    search_on(project)
    project.api.script(
        Reply([tool_use("ToolSearch", {"query": "task list", "max_results": 2})]),
        Reply([text("found them")]),
    )
    assert project.run("-p", "plan").returncode == 0
    loaded = deferred(project.api.bodies[-1]) - {"DeferredToolPlaceholder"}
    assert loaded and loaded <= {"TaskCreate", "TaskGet", "TaskList", "TaskUpdate"}
    project.api.script(Reply(SUMMARY))
    assert project.run("-c", "-p", "/compact").returncode == 0
    project.api.script(Reply([text("after")]))
    assert project.run("-c", "-p", "go on").returncode == 0
    after = project.api.bodies[-1]
    assert "tool_reference" not in json.dumps(after["messages"])  # its round was summarised
    assert deferred(after) - {"DeferredToolPlaceholder"} == loaded
    assert "Deferred tools (" in json.dumps(after["messages"])  # announced again
    project.api.assert_clean()


def test_a_deferred_tool_called_without_loading_still_runs(project: Project) -> None:
    search_on(project)
    project.api.script(
        Reply([tool_use("TaskCreate", {"subject": "Write tests", "description": "all"})]),
        Reply([text("done")]),
    )
    assert project.run("-p", "go").returncode == 0
    [result] = [b for b in project.api.bodies[-1]["messages"][-1]["content"]
                if b.get("type") == "tool_result"]
    assert "Task #1 created successfully" in json.dumps(result)
    project.api.assert_clean()


def test_what_matches_nothing_is_answered(project: Project) -> None:
    search_on(project)
    project.api.script(
        Reply([tool_use("ToolSearch", {"query": "quantum teleporter", "max_results": 5}),
               tool_use("ToolSearch", {"query": "select:Nope,Read", "max_results": 5})]),
        Reply([tool_use("ToolSearch", {"query": "select:TaskList", "max_results": 5})]),
        Reply([tool_use("ToolSearch", {"query": "select:TaskList", "max_results": 5})]),
        Reply([text("ok")]),
    )
    run = project.run("-p", "go")
    assert run.returncode == 0, run.stderr
    nothing, unknown = (b["content"] for b in project.api.bodies[1]["messages"][-1]["content"]
                        if b.get("type") == "tool_result")
    assert "No matching deferred tools found" in nothing and "TaskCreate" in nothing
    assert "Nope, Read" in unknown and "TaskCreate" in unknown
    [again] = [b for b in project.api.bodies[3]["messages"][-1]["content"]
               if b.get("type") == "tool_result"]
    assert "Loaded already: TaskList" in again["content"]
    project.api.assert_clean()


def test_with_tool_search_off_every_tool_goes_in_full(project: Project) -> None:
    project.env["ENABLE_TOOL_SEARCH"] = "false"
    project.api.script(Reply([text("hi")]))
    assert project.run("-p", "hello").returncode == 0
    [body] = project.api.bodies
    assert deferred(body) == set() and "ToolSearch" not in names(body)
    assert {"TaskCreate", "TodoWrite", "SendMessage", "Read", "Bash"} <= set(names(body))
    project.api.assert_clean()


def test_another_endpoint_gets_no_field_it_may_not_know(project: Project) -> None:
    """The fake's base URL is not Anthropic's: with ENABLE_TOOL_SEARCH unset, plain full
    definitions, no beta."""
    project.api.script(Reply([tool_use("TaskList", {})]), Reply([text("hi")]))
    assert project.run("-p", "hello").returncode == 0
    for body, request in zip(project.api.bodies, project.api.requests, strict=True):
        assert deferred(body) == set() and "ToolSearch" not in names(body)
        assert "defer_loading" not in json.dumps(body)
        assert TOOL_SEARCH_BETA not in request.headers.get("anthropic-beta", "")
    project.api.assert_clean()
