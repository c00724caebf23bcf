"""Skill discovery (project over user, malformed skipped) and what a skill expands to."""

from __future__ import annotations

from pathlib import Path

from cc.input.custom import find_custom, load_custom_commands
from cc.input.skills import load_skills, skill_listing, skill_text


def add_skill(root: Path, name: str, text: str) -> Path:
    (root / name).mkdir(parents=True)
    (root / name / "SKILL.md").write_text(text)
    return root / name


def test_project_skills_beat_user_skills_and_a_malformed_one_is_skipped(tmp_path: Path) -> None:
    project, config = tmp_path / "p", tmp_path / "c"
    add_skill(project / ".claude" / "skills", "deploy", "---\ndescription: Project deploy\n---\nP")
    add_skill(config / "skills", "deploy", "---\ndescription: User deploy\n---\nU")
    add_skill(config / "skills", "lint", "---\ndescription: Lint\nmodel: haiku\n"
              "allowed-tools: Bash(ruff *), Read\nargument-hint: '[path]'\n---\nRun ruff")
    add_skill(config / "skills", "manual", "---\ndescription: Mine\n"
              "disable-model-invocation: true\n---\nM")
    bad = add_skill(project / ".claude" / "skills", "bad", "---\n[unclosed\n---\nB")
    scan = load_skills(project, config)
    assert [(s.name, s.scope) for s in scan.skills] == [
        ("deploy", "project"), ("lint", "user"), ("manual", "user")]
    assert scan.warnings == [scan.warnings[0]] and str(bad / "SKILL.md") in scan.warnings[0]
    lint = scan.skills[1]
    assert (lint.model, lint.allowed_tools, lint.argument_hint) == (
        "haiku", ("Bash(ruff *)", "Read"), "[path]")
    assert skill_listing(scan.skills) == ["- deploy: Project deploy", "- lint: Lint"]


def test_a_skill_beats_a_command_of_the_same_name(tmp_path: Path) -> None:
    (tmp_path / ".claude" / "commands").mkdir(parents=True)
    (tmp_path / ".claude" / "commands" / "deploy.md").write_text("the command")
    add_skill(tmp_path / ".claude" / "skills", "deploy", "the skill")
    command = find_custom(load_custom_commands(tmp_path, tmp_path / "c"), "deploy")
    assert command is not None and command.body == "the skill"
    assert command.label == "(project skill)"


def test_skill_text_fills_arguments_and_the_skill_dir(tmp_path: Path) -> None:
    folder = add_skill(tmp_path / ".claude" / "skills", "greet",
                       "Hi $ARGUMENTS; $0 then $1; $5 stays. See ${CLAUDE_SKILL_DIR}/ref.md\n")
    skill = load_skills(tmp_path, tmp_path / "c").skills[0]
    assert skill_text(skill, '"Ada Lovelace" Bob') == (
        f"Base directory for this skill: {folder.resolve()}\n\n"
        f'Hi "Ada Lovelace" Bob; Ada Lovelace then Bob; $5 stays. See {folder.resolve()}/ref.md')
    add_skill(tmp_path / "c" / "skills", "plain", "No placeholders.")
    plain = load_skills(tmp_path / "elsewhere", tmp_path / "c").skills[0]
    assert skill_text(plain, "extra").endswith("No placeholders.\n\nARGUMENTS: extra")
