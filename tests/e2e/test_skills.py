"""Skills end to end in print mode: `/name args` and the model's Skill call."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import Project
from tests.fakeapi import Reply, text, tool_use

GREETER = ("---\nname: greeter\ndescription: Greets people by name\n"
           "allowed-tools: Bash(touch *)\n---\n"
           "Greet $ARGUMENTS warmly; start with $0. Notes: ${CLAUDE_SKILL_DIR}/notes.md\n")


def add_skill(root: Path, name: str, text_: str) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(text_)
    return folder


def test_a_skill_runs_from_a_slash_prompt(project: Project) -> None:
    folder = add_skill(project.root / ".claude" / "skills", "greeter", GREETER)
    project.api.script(Reply([text("hello")]))
    run = project.run("-p", "/greeter Carol Dan")
    assert run.returncode == 0, run.stderr
    first = project.api.bodies[0]["messages"][0]
    sent = json.dumps(first)
    assert "<command-name>/greeter</command-name>" in sent
    assert "<command-args>Carol Dan</command-args>" in sent
    body = f"Base directory for this skill: {folder.resolve()}\\n\\nGreet Carol Dan warmly; " \
           f"start with Carol. Notes: {folder.resolve()}/notes.md"
    assert body in sent
    project.api.assert_clean()


def test_the_model_starts_a_skill_and_may_use_its_tools_that_turn(project: Project) -> None:
    folder = add_skill(project.root / ".claude" / "skills", "greeter", GREETER)
    add_skill(project.config / "skills", "secret", "---\ndescription: Not for the model\n"
              "disable-model-invocation: true\n---\nhidden\n")
    project.api.script(
        Reply([tool_use("Skill", {"skill": "greeter", "args": "Carol Dan"})]),
        Reply([tool_use("Bash", {"command": "touch made.txt"})]),
        Reply([text("done")]),
    )
    run = project.run("-p", "greet Carol and Dan", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    first, second, third = project.api.bodies
    skill = next(t for t in first["tools"] if t["name"] == "Skill")
    assert "- greeter: Greets people by name" in skill["description"]
    assert "secret" not in skill["description"]
    result, beside = second["messages"][-1]["content"]
    assert result["type"] == "tool_result" and not result.get("is_error")
    assert json.dumps(result["content"]).count("Launching skill: greeter") == 1
    assert beside["type"] == "text" and beside["text"] == (
        f"Base directory for this skill: {folder.resolve()}\n\nGreet Carol Dan warmly; "
        f"start with Carol. Notes: {folder.resolve()}/notes.md")
    assert (project.root / "made.txt").exists()  # the skill's allowed-tools held
    assert run.json()["permission_denials"] == []
    assert "is_error" not in json.dumps(third["messages"][-1])
    project.api.assert_clean()


def test_an_unknown_skill_is_a_tool_error(project: Project) -> None:
    project.api.script(Reply([tool_use("Skill", {"skill": "nonexistent"})]),
                       Reply([text("ok")]))
    assert project.run("-p", "go").returncode == 0
    result = project.api.bodies[1]["messages"][-1]["content"][0]
    assert result["is_error"] is True
    assert json.dumps(result["content"]).count(
        "<tool_use_error>Unknown skill: nonexistent</tool_use_error>") == 1
    project.api.assert_clean()


def test_a_malformed_skill_is_skipped_with_one_warning(project: Project) -> None:
    skills = project.root / ".claude" / "skills"
    add_skill(skills, "greeter", GREETER)
    bad = add_skill(skills, "broken", "---\n- a list\n- not a mapping\n---\nbody\n")
    project.api.script(Reply([text("ok")]))
    run = project.run("-p", "hi")
    assert run.returncode == 0, run.stderr
    assert run.stderr.count("SKILL.md") == 1 and str(bad / "SKILL.md") in run.stderr
    skill = next(t for t in project.api.bodies[0]["tools"] if t["name"] == "Skill")
    assert "- greeter:" in skill["description"] and "broken" not in skill["description"]
