"""The Bash sandbox end to end: settings files, `python -m cc -p`, what the model is told."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import Project
from tests.fakeapi import Reply, text, tool_use
from tests.sandbox.conftest import needs_bwrap

MISSING_BWRAP = {"CC_SANDBOX_BWRAP": "/nonexistent/bwrap"}


def with_settings(project: Project, sandbox: dict[str, Any], **other: Any) -> None:
    claude = project.root / ".claude"
    claude.mkdir(exist_ok=True)
    (claude / "settings.json").write_text(json.dumps({"sandbox": {"enabled": True, **sandbox},
                                                      **other}))


def bash(project: Project, command: str, **fields: Any) -> None:
    project.api.script(Reply([tool_use("Bash", {"command": command, **fields})]),
                       Reply([text("ok")]))


def last_result(project: Project) -> dict[str, Any]:
    return project.api.bodies[-1]["messages"][-1]["content"][0]


@needs_bwrap
def test_sandboxed_commands_are_allowed_without_asking(project: Project) -> None:
    with_settings(project, {})
    bash(project, "touch made-it && echo done")
    run = project.run("-p", "go", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    assert run.json()["permission_denials"] == []
    assert (project.root / "made-it").exists()
    assert "sandbox" not in run.stderr.lower()


@needs_bwrap
def test_a_deny_rule_still_wins(project: Project) -> None:
    with_settings(project, {}, permissions={"deny": ["Bash(touch *)"]})
    bash(project, "touch made-it")
    run = project.run("-p", "go", "--output-format", "json")
    assert not (project.root / "made-it").exists()
    assert [d["tool_name"] for d in run.json()["permission_denials"]] == ["Bash"]


@needs_bwrap
def test_auto_allow_can_be_turned_off(project: Project) -> None:
    with_settings(project, {"autoAllowBashIfSandboxed": False})
    bash(project, "touch made-it")
    run = project.run("-p", "go", "--output-format", "json")
    assert not (project.root / "made-it").exists()
    assert [d["tool_name"] for d in run.json()["permission_denials"]] == ["Bash"]


@needs_bwrap
def test_dangerously_disable_sandbox_needs_approval(project: Project) -> None:
    with_settings(project, {})
    bash(project, "touch made-it", dangerouslyDisableSandbox=True)
    run = project.run("-p", "go", "--output-format", "json")
    assert not (project.root / "made-it").exists()
    assert [d["tool_name"] for d in run.json()["permission_denials"]] == ["Bash"]
    result = last_result(project)
    assert result["is_error"] is True
    assert "it would run outside the sandbox" in result["content"]


@needs_bwrap
def test_excluded_commands_go_through_normal_permissions(project: Project) -> None:
    with_settings(project, {"excludedCommands": ["touch"]})
    bash(project, "touch made-it")
    run = project.run("-p", "go", "--output-format", "json")
    assert not (project.root / "made-it").exists()
    assert [d["tool_name"] for d in run.json()["permission_denials"]] == ["Bash"]


@needs_bwrap
def test_disable_refused_when_unsandboxed_commands_are_not_allowed(project: Project) -> None:
    with_settings(project, {"allowUnsandboxedCommands": False})
    outside = project.home / "escape"
    bash(project, f"touch made-it && touch {outside}", dangerouslyDisableSandbox=True)
    run = project.run("-p", "go", "--output-format", "json")
    assert run.json()["permission_denials"] == []
    assert (project.root / "made-it").exists()
    assert not outside.exists()
    assert "dangerouslyDisableSandbox was refused" in last_result(project)["content"]


def test_missing_bubblewrap_warns_once_and_runs_unsandboxed(project: Project) -> None:
    with_settings(project, {})
    project.env.update(MISSING_BWRAP)
    bash(project, "touch made-it")
    run = project.run("-p", "go", "--output-format", "json")
    warnings = [line for line in run.stderr.splitlines() if "sandbox" in line.lower()]
    assert len(warnings) == 1, run.stderr
    assert "apt-get install bubblewrap" in warnings[0]
    # Unsandboxed: the normal checks ask, and print mode has nobody to ask.
    assert not (project.root / "made-it").exists()
    assert [d["tool_name"] for d in run.json()["permission_denials"]] == ["Bash"]


def test_fail_if_unavailable_refuses_bash(project: Project) -> None:
    with_settings(project, {"failIfUnavailable": True})
    project.env.update(MISSING_BWRAP)
    bash(project, "echo hi > made-it")
    run = project.run("-p", "go", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    assert not (project.root / "made-it").exists()
    result = last_result(project)
    assert result["is_error"] is True
    assert "sandbox is required" in result["content"]
    assert sum("sandbox" in line.lower() for line in run.stderr.splitlines()) == 1


@pytest.mark.parametrize("enabled", [False, True])
def test_startup_stays_lean(project: Project, enabled: bool) -> None:
    """`import cc.main` pulls in nothing of the sandbox; a disabled one is never imported."""
    with_settings(project, {"enabled": enabled})
    project.env.update(MISSING_BWRAP)
    probe = ("import sys, cc.main; assert not [m for m in sys.modules if 'sandbox' in m]; "
             "from cc import main; main.run(['-p', 'hi']); "
             "print(sorted(m for m in sys.modules if m.startswith('cc.sandbox')))")
    project.api.script(Reply([text("hi")]))
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", probe], cwd=project.root, env=project.base_env(),
                         capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    loaded = out.stdout.strip().splitlines()[-1]
    assert (loaded != "[]") is enabled, loaded
