"""`--agents` and `/agents` end to end: python -m cc in print mode and in a real terminal."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import Project
from tests.fakeapi import FakeAPI
from tests.ui.terminal import Terminal, cc_argv, cc_env, trust

FLAG = json.dumps({"jsonagent": {"description": "From JSON", "prompt": "Be brief.",
                                 "tools": ["Read"], "model": "sonnet"},
                   "broken": {"description": "no prompt"}})


def test_unparsable_agents_json_is_a_usage_error(project: Project) -> None:
    run = project.run("-p", "hi", "--agents", "{not json")
    assert run.returncode == 1
    assert run.stderr.startswith("Error: --agents is not valid JSON: ")
    run = project.run("-p", "hi", "--agents", '["a list"]')
    assert run.returncode == 1
    assert "Error: --agents must be a JSON object of agent names to definitions" in run.stderr
    assert project.api.bodies == []  # nothing reached the model
    project.api.assert_clean()


def test_agents_json_that_parses_lets_the_session_run(project: Project) -> None:
    project.api.script("Hello.")
    run = project.run("-p", "hi", "--agents", FLAG)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "Hello.\n"
    project.api.assert_clean()


def test_agents_command_in_the_repl(tmp_path: Path, fake_api: FakeAPI) -> None:
    root, config, home = tmp_path / "project", tmp_path / "config", tmp_path / "home"
    for folder in (root, config, home):
        folder.mkdir()
    trust(config, root)
    agents = root / ".claude" / "agents"
    agents.mkdir(parents=True)
    (agents / "reviewer.md").write_text(
        "---\nname: reviewer\ndescription: Reviews diffs\ntools: Read, Grep\ncolor: blue\n---\n"
        "You review diffs.\n")
    (agents / "bad.md").write_text("---\ndescription: x\npermissionMode: yolo\n---\n")
    term = Terminal(cc_argv("--agents", FLAG), root, cc_env(fake_api.base_url, config, home))
    try:
        term.wait_until(lambda screen: "cwd:" in screen and term.prompt_line() == ">")
        term.enter("/agents")
        screen = term.wait_for("Project agents", "  reviewer: Reviews diffs", "From --agents",
                               "  jsonagent: From JSON", "    Tools: Read · model: sonnet",
                               "Warning: Skipped agent 'broken' from --agents")
        assert "Warning: Skipped agent file" in screen and "not 'yolo'" in screen
        assert "    Tools: Read, Grep ·" in screen
        term.wait_idle()
        assert fake_api.bodies == []  # /agents needs no model
    finally:
        term.close()
    fake_api.assert_clean()
