"""Print mode offers none of the tools that ask a person (Claude Code 2.1.328): calling
one gives its "disabled for this session" error; a session started in plan mode is
told where its plan file is, and may write that file and nothing else."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.conftest import Project
from tests.fakeapi import Dynamic, Reply, text, tool_use


def results(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in body["messages"][-1]["content"] if b.get("type") == "tool_result"]


@pytest.mark.parametrize("name", ["AskUserQuestion", "EnterPlanMode", "ExitPlanMode"])
def test_the_tools_that_ask_a_person_are_not_offered(project: Project, name: str) -> None:
    project.api.script(Reply([tool_use(name, {})]), Reply([text("Fine.")]))
    run = project.run("-p", "go")
    assert run.returncode == 0, run.stderr + run.stdout
    first, second = project.api.bodies
    offered = {t["name"] for t in first["tools"]}
    assert not offered & {"AskUserQuestion", "EnterPlanMode", "ExitPlanMode"}
    assert "Read" in offered
    [result] = results(second)
    assert result["is_error"] is True
    assert result["content"] == (
        f"<tool_use_error>Error: No such tool available: {name}. {name} is disabled for "
        "this session, in subagents as well as here.</tool_use_error>")


def test_plan_mode_lets_only_the_plan_file_change(project: Project) -> None:
    target = project.root / "notes.txt"
    plans = re.escape(str(project.config / "plans")) + r"/[a-z]+-[a-z]+-[a-z]+\.md"
    found: list[str] = []

    def write_both(body: dict[str, Any]) -> Reply:
        found.extend(sorted(set(re.findall(plans, json.dumps(body["system"])))))
        return Reply([tool_use("Write", {"file_path": str(target), "content": "x"}),
                      tool_use("Write", {"file_path": found[0], "content": "# The plan"})])

    project.api.script(Dynamic(write_both), Reply([text("Planned.")]))
    run = project.run("-p", "plan it", "--permission-mode", "plan")
    assert run.returncode == 0, run.stderr + run.stdout
    assert len(found) == 1
    refused, wrote = results(project.api.bodies[1])
    assert refused["is_error"] is True and "plan mode" in json.dumps(refused)
    assert not target.exists()
    assert not wrote.get("is_error"), wrote
    assert (project.config / "plans").is_dir()
    with open(found[0]) as f:
        assert f.read() == "# The plan"
