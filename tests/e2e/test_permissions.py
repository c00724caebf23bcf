"""Permissions end to end in print mode: flags, settings files and what the model is told."""

from __future__ import annotations

import json

from tests.conftest import Project
from tests.fakeapi import Reply, text, tool_use


def bash_then_answer(project: Project, command: str) -> None:
    project.api.script(Reply([tool_use("Bash", {"command": command})]), Reply([text("ok")]))


def last_result(project: Project) -> dict:
    return project.api.bodies[-1]["messages"][-1]["content"][0]


def test_bash_not_allowed_is_denied_and_listed(project: Project) -> None:
    bash_then_answer(project, "touch made-it")
    run = project.run("-p", "go", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    assert not (project.root / "made-it").exists()
    denials = run.json()["permission_denials"]
    assert denials == [{"tool_name": "Bash", "tool_use_id": denials[0]["tool_use_id"],
                        "tool_input": {"command": "touch made-it"}}]
    assert last_result(project)["is_error"] is True


def test_allowed_tools_flag_and_compound_commands(project: Project) -> None:
    (project.root / "f.txt").write_text("x\n")
    bash_then_answer(project, "touch made-it")
    run = project.run("-p", "go", "--allowedTools", "Bash(touch *)")
    assert run.returncode == 0
    assert (project.root / "made-it").exists()
    bash_then_answer(project, "touch second; rm f.txt")
    project.run("-p", "go", "--allowedTools", "Bash(touch *)")
    assert (project.root / "f.txt").exists()
    assert not (project.root / "second").exists()


def test_settings_rules_deny_beats_allow(project: Project) -> None:
    claude = project.root / ".claude"
    claude.mkdir()
    (claude / "settings.json").write_text(json.dumps(
        {"permissions": {"allow": ["Bash(rm *)"]}}))
    (claude / "settings.local.json").write_text(json.dumps(
        {"permissions": {"deny": ["Bash(rm -rf *)"]}}))
    victim = project.root / "victim"
    victim.mkdir()
    bash_then_answer(project, f"rm -rf {victim}")
    run = project.run("-p", "go", "--output-format", "json")
    assert victim.exists()
    assert [d["tool_name"] for d in run.json()["permission_denials"]] == ["Bash"]
    assert "deny" in last_result(project)["content"].lower()


def test_read_only_commands_run_in_default_mode(project: Project) -> None:
    (project.root / "hello.txt").write_text("hi\n")
    bash_then_answer(project, "ls && cat hello.txt | wc -l")
    run = project.run("-p", "go", "--output-format", "json")
    assert run.json()["permission_denials"] == []
    assert last_result(project)["content"].splitlines()[-1].strip() == "1"


def test_quoted_awk_program_is_a_read_only_command(project: Project) -> None:
    (project.root / "README.md").write_text("one\ntwo\nthree\n")
    bash_then_answer(project, "awk 'NR>=1 && NR<=2' README.md")
    run = project.run("-p", "go", "--output-format", "json")
    assert run.json()["permission_denials"] == []
    assert last_result(project)["content"] == "one\ntwo"


def test_accept_edits_mode_and_protected_files(project: Project) -> None:
    target = project.root / "notes.md"
    project.api.script(
        Reply([tool_use("Write", {"file_path": str(target), "content": "hi\n"})]),
        Reply([tool_use("Write", {"file_path": str(project.root / ".claude" / "settings.json"),
                                  "content": "{}"})]),
        Reply([text("done")]),
    )
    run = project.run("-p", "go", "--permission-mode", "acceptEdits", "--output-format", "json")
    assert target.read_text() == "hi\n"
    assert not (project.root / ".claude" / "settings.json").exists()
    assert [d["tool_name"] for d in run.json()["permission_denials"]] == ["Write"]


def test_disallowed_tool_is_hidden_from_the_model(project: Project) -> None:
    project.api.script(Reply([text("ok")]))
    run = project.run("-p", "go", "--disallowedTools", "Bash,Write")
    assert run.returncode == 0
    names = [t["name"] for t in project.api.bodies[0]["tools"]]
    assert "Bash" not in names and "Write" not in names and "Edit" in names


def test_plan_mode_refuses_writes(project: Project) -> None:
    target = project.root / "plan.txt"
    project.api.script(
        Reply([tool_use("Write", {"file_path": str(target), "content": "x"})]),
        Reply([text("ok")]),
    )
    project.run("-p", "go", "--permission-mode", "plan")
    assert not target.exists()
    assert "plan" in last_result(project)["content"].lower()


def test_path_escape_does_not_dodge_a_deny_rule(project: Project) -> None:
    secret = project.root / "secret.txt"
    secret.write_text("token\n")
    (project.root / "src").mkdir()
    project.api.script(
        Reply([tool_use("Read", {"file_path": str(project.root / "src" / ".." / "secret.txt")})]),
        Reply([text("ok")]),
    )
    run = project.run("-p", "go", "--disallowedTools", "Read(./secret.txt)",
                      "--output-format", "json")
    assert "token" not in json.dumps(project.api.bodies[-1]["messages"][-1])
    assert [d["tool_name"] for d in run.json()["permission_denials"]] == ["Read"]


def test_an_allow_rule_grants_the_command_not_its_redirect(project: Project) -> None:
    bash_then_answer(project, "echo hi > f")
    run = project.run("-p", "go", "--output-format", "json", "--allowedTools", "Bash(echo:*)")
    assert run.returncode == 0, run.stderr
    assert not (project.root / "f").exists()
    denials = run.json()["permission_denials"]
    assert [d["tool_input"]["command"] for d in denials] == ["echo hi > f"]
    assert "writes to f" in last_result(project)["content"]
    bash_then_answer(project, "echo hi")  # the command itself is still allowed
    run = project.run("-p", "go", "--output-format", "json", "--allowedTools", "Bash(echo:*)")
    assert run.json()["permission_denials"] == [] and last_result(project)["content"] == "hi"


def test_a_bare_bash_rule_grants_the_whole_tool(project: Project) -> None:
    bash_then_answer(project, "echo run >> marker.txt")
    run = project.run("-p", "go", "--output-format", "json", "--allowedTools", "Bash")
    assert run.returncode == 0, run.stderr
    assert run.json()["permission_denials"] == []
    assert (project.root / "marker.txt").read_text() == "run\n"
    outside = project.root.parent / "outside.txt"  # writes outside the folders still ask
    bash_then_answer(project, f"echo run > {outside}")
    run = project.run("-p", "go", "--output-format", "json", "--allowedTools", "Bash")
    assert not outside.exists()
    assert len(run.json()["permission_denials"]) == 1


def test_git_in_a_foreign_repository_does_not_run_its_code(project: Project) -> None:
    """`cd other && git status` under `Bash(git status:*)`: other's fsmonitor would run."""
    import subprocess

    other = project.root / "other"
    other.mkdir()
    marker = project.root / "pwned"
    for args in (["init", "-q", "."], ["config", "core.fsmonitor", f"touch {marker}; false"]):
        subprocess.run(["git", *args], cwd=other, check=True, capture_output=True)
    (other / "a.txt").write_text("x\n")
    bash_then_answer(project, "cd other && git status")
    run = project.run("-p", "go", "--output-format", "json", "--allowedTools",
                      "Bash(git status:*)")
    assert run.returncode == 0, run.stderr
    assert not marker.exists()
    assert "another repository" in last_result(project)["content"]
    assert len(run.json()["permission_denials"]) == 1


def test_find_exec_under_a_find_rule_is_not_run(project: Project) -> None:
    (project.root / "victim").write_text("x\n")
    bash_then_answer(project, "find . -name victim -exec rm {} \\;")
    run = project.run("-p", "go", "--output-format", "json", "--allowedTools", "Bash(find:*)")
    assert run.returncode == 0, run.stderr
    assert (project.root / "victim").exists()
    assert len(run.json()["permission_denials"]) == 1


def test_grep_and_glob_leave_out_files_a_read_deny_rule_covers(project: Project) -> None:
    (project.root / ".env").write_text("API_KEY=SECRET-123\n")
    (project.root / "app.py").write_text("key = 'SECRET-not-really'\n")
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"deny": ["Read(.env)"]}}))
    project.api.script(
        Reply([tool_use("Grep", {"pattern": "SECRET", "output_mode": "content"}),
               tool_use("Glob", {"pattern": "**/.env*"}),
               tool_use("Grep", {"pattern": "SECRET", "path": str(project.root)})]),
        Reply([text("ok")]),
    )
    run = project.run("-p", "go")
    assert run.returncode == 0, run.stderr
    grep, glob, files = project.api.bodies[-1]["messages"][-1]["content"]
    assert "SECRET-not-really" in grep["content"] and "SECRET-123" not in grep["content"]
    assert ".env" not in glob["content"]
    assert "app.py" in files["content"] and ".env" not in files["content"]


def test_a_hard_link_does_not_dodge_a_read_deny_rule(project: Project) -> None:
    import os

    (project.root / ".env").write_text("API_KEY=SECRET-123\n")
    os.link(project.root / ".env", project.root / "notes.txt")
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"deny": ["Read(.env)"]}}))
    project.api.script(
        Reply([tool_use("Read", {"file_path": str(project.root / "notes.txt")}),
               tool_use("Grep", {"pattern": "SECRET", "output_mode": "content"}),
               tool_use("Bash", {"command": "cat notes.txt"})]),
        Reply([text("ok")]),
    )
    run = project.run("-p", "go", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    results = project.api.bodies[-1]["messages"][-1]["content"]
    assert "SECRET-123" not in json.dumps(results)
    assert sorted(d["tool_name"] for d in run.json()["permission_denials"]) == ["Bash", "Read"]
