"""`cc doctor`, `cc update`, `cc auth …` and `cc agents` answer locally, as subprocesses,
with Claude Code's exit statuses (observed with Claude Code 2.1.332); none reaches the
model."""

from __future__ import annotations

import json

import pytest

from tests.conftest import Project


def test_auth_status_with_a_key_is_json_and_exit_0(project: Project) -> None:
    run = project.run("auth", "status")
    assert run.returncode == 0, run.stderr
    status = json.loads(run.stdout)
    assert status["loggedIn"] is True
    assert status["authMethod"] == "api_key"
    assert status["apiKeySource"] == "ANTHROPIC_API_KEY"
    assert status["configDirectory"] == str(project.config)
    assert status["projectsDirectory"] == str(project.config / "projects")
    assert project.api.requests == []


def test_auth_status_without_a_key_exits_1(project: Project) -> None:
    project.env["ANTHROPIC_API_KEY"] = ""
    run = project.run("auth", "status")
    assert run.returncode == 1
    status = json.loads(run.stdout)
    assert (status["loggedIn"], status["authMethod"]) == (False, "none")
    assert "apiKeySource" not in status
    text = project.run("auth", "status", "--text")
    assert text.returncode == 1 and text.stdout.startswith("Not logged in.")


def test_auth_status_finds_a_token_and_an_api_key_helper(project: Project) -> None:
    project.env.update(ANTHROPIC_API_KEY="", ANTHROPIC_AUTH_TOKEN="tok")
    status = json.loads(project.run("auth", "status").stdout)
    assert (status["authMethod"], status.get("apiKeySource")) == ("oauth_token", None)
    project.env["ANTHROPIC_AUTH_TOKEN"] = ""
    (project.config / "settings.json").write_text(json.dumps({"apiKeyHelper": "echo k"}))
    run = project.run("auth", "status")
    assert run.returncode == 0
    status = json.loads(run.stdout)
    assert (status["authMethod"], status["apiKeySource"]) == ("api_key_helper", "apiKeyHelper")
    assert project.run("auth", "status", "--text").stdout == "Auth token: apiKeyHelper\n"


def test_auth_login_says_how_keys_are_configured(project: Project) -> None:
    run = project.run("auth", "login")
    assert run.returncode == 1
    assert "ANTHROPIC_API_KEY" in run.stderr and "apiKeyHelper" in run.stderr
    assert project.run("auth", "status", "--bogus").returncode == 1


def test_doctor_reports_settings_key_mcp_and_sandbox(project: Project) -> None:
    (project.config / "settings.json").write_text('{"model": ')
    (project.root / ".mcp.json").write_text(json.dumps(
        {"mcpServers": {"demo": {"command": "demo-server"}}}))
    run = project.run("doctor")
    assert run.returncode == 0, run.stderr  # as Claude Code's: the report says what is wrong
    out = run.stdout
    assert out.startswith("cc doctor\n")
    assert f"✗ user: {project.config / 'settings.json'}: invalid JSON at line 1" in out
    assert "✓ API key: ANTHROPIC_API_KEY" in out
    assert "demo (project, stdio): configured" in out
    assert "Sandbox" in out and "bubblewrap" in out
    assert out.rstrip().endswith("1 issue found.")
    assert project.api.requests == []


def test_doctor_help(project: Project) -> None:
    run = project.run("doctor", "--help")
    assert run.returncode == 0 and run.stdout.startswith("Usage: cc doctor")


@pytest.mark.parametrize("name", ["update", "upgrade"])
def test_update_says_how_and_changes_nothing(project: Project, name: str) -> None:
    run = project.run(name)
    assert run.returncode == 0, run.stderr
    assert "cc does not update itself" in run.stdout
    assert project.api.requests == []


def test_agents_lists_the_agent_types_by_source(project: Project) -> None:
    folder = project.root / ".claude" / "agents"
    folder.mkdir(parents=True)
    (folder / "tester.md").write_text(
        "---\nname: tester\ndescription: Runs the tests\nmodel: haiku\n---\nRun them.\n")
    run = project.run("agents")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "Project agents:\n  tester · haiku" in out
    assert "Built-in agents:" in out and "general-purpose · inherit" in out
    assert out.index("Project agents:") < out.index("Built-in agents:")
    listed = project.run("agents", "--json")
    assert (listed.returncode, json.loads(listed.stdout)) == (0, [])
