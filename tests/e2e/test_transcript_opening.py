"""A new transcript opens with the environment as Claude Code's attachment line, which it
rebuilds a system message from on resume; cc's own resume skips it."""

from __future__ import annotations

import json

from tests.conftest import Project
from tests.fakeapi import Reply, text


def lines(project: Project) -> list[dict]:
    (path,) = project.config.glob("projects/*/*.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_the_first_prompt_is_followed_by_the_environment_once(project: Project) -> None:
    project.api.script(Reply([text("one")]), Reply([text("two")]))
    assert project.run("-p", "first").returncode == 0
    assert project.run("-c", "-p", "second").returncode == 0
    chain = [line for line in lines(project) if "uuid" in line]
    kinds = [line["type"] for line in chain]
    assert kinds == ["user", "attachment", "assistant", "user", "assistant"]
    prompt, opening, answer = chain[:3]
    assert opening["parentUuid"] == prompt["uuid"] and answer["parentUuid"] == opening["uuid"]
    assert opening["renderedRole"] == "system"
    assert opening["attachment"]["type"] == "environment"
    assert opening["attachment"]["snapshot"]["workingDirectory"] == str(project.root)
    (rendered,) = opening["rendered"]
    assert rendered["content"].startswith("<system-reminder>\n")
    assert str(project.root) in rendered["content"]
    assert opening["sessionId"] == prompt["sessionId"]
    # cc's resume sends the conversation as it was, the attachment left out
    resumed = project.api.bodies[-1]["messages"]
    assert [m["role"] for m in resumed] == ["user", "assistant", "user"]
    assert "system-reminder" not in json.dumps(resumed[:2])
