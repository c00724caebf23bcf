"""Slash commands typed to `cc -p`, end to end against the fake API, handled as Claude
Code 2.1.332 was observed to: /cost answers locally, /export is "not available", an
unknown command reaches the model with a note naming the nearest, /review sends its
prompt, /rename writes the title."""

from __future__ import annotations

import json

from tests.conftest import Project
from tests.fakeapi import Reply, text


def test_cost_answers_locally(project: Project) -> None:
    run = project.run("-p", "/cost")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == "Estimated cost:        $0.0000"
    assert "Usage:                 0 input, 0 output, 0 cache read, 0 cache write" in run.stdout
    assert project.api.requests == []
    record = json.loads(project.run("-p", "/usage", "--output-format", "json").stdout)
    assert (record["is_error"], record["num_turns"]) == (False, 0)
    assert record["result"].startswith("Estimated cost:")


def test_terminal_only_commands_are_not_available(project: Project) -> None:
    # (as Claude Code 2.1.332 answers them under -p)
    for name in ("export", "tasks", "vim", "help", "status", "rewind", "statusline",
                 "permissions", "hooks", "memory", "skills", "sandbox", "resume", "exit"):
        run = project.run("-p", f"/{name}")
        assert (run.returncode, run.stdout) == (0, f"/{name} isn't available in this environment.\n")
    assert project.api.requests == []


def test_settings_and_model_commands_answer_without_the_model(project: Project) -> None:
    answers = {"/model sonnet": "claude-sonnet-5-5", "/config": "outputStyle",
               "/output-style": "Explanatory", "/context": "System prompt",
               "/mcp": "No MCP servers", "/agents": "Explore"}
    for typed, shown in answers.items():
        run = project.run("-p", typed)
        assert run.returncode == 0 and shown in run.stdout, (typed, run.stdout)
    assert project.api.requests == []


def test_unknown_command_reaches_the_model_with_the_nearest_named(project: Project) -> None:
    project.api.script(Reply([text("There is no /exprot; did you mean /export?")]))
    run = project.run("-p", "/exprot now")
    assert (run.returncode, run.stdout) == (0, "There is no /exprot; did you mean /export?\n")
    content = project.api.requests[0].body["messages"][-1]["content"]
    texts = [b["text"] for b in content if b["type"] == "text"]
    assert texts[0] == "/exprot now"
    assert texts[-1].startswith("<system-reminder>\nThe message below begins with /exprot, ")
    assert "The nearest command is /export." in texts[-1]
    project.api.assert_clean()


def test_review_sends_our_prompt(project: Project) -> None:
    project.api.script(Reply([text("Looks fine.")]))
    run = project.run("-p", "/review 42")
    assert (run.returncode, run.stdout) == (0, "Looks fine.\n"), run.stderr
    texts = [b["text"] for b in project.api.requests[0].body["messages"][-1]["content"]
             if b["type"] == "text"]
    assert any("<command-name>/review</command-name>" in t for t in texts)
    assert any("gh pr diff" in t and t.endswith("The user added: 42") for t in texts)


def test_rename_writes_the_title(project: Project) -> None:
    run = project.run("-p", "/rename bug hunt", "--session-id",
                      "0f0e0d0c-0b0a-4909-8807-060504030201")
    assert (run.returncode, run.stdout) == (0, "Session renamed to: bug hunt\n"), run.stderr
    [path] = (project.config / "projects").rglob("0f0e0d0c-*.jsonl")
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert {"type": "custom-title", "customTitle": "bug hunt",
            "sessionId": "0f0e0d0c-0b0a-4909-8807-060504030201"} in lines


def test_a_renamed_session_is_listed_under_its_name(project: Project) -> None:
    from cc.session.listing import list_sessions

    session = "0f0e0d0c-0b0a-4909-8807-060504030201"
    project.api.script(Reply([text("Hi.")]))
    assert project.run("-p", "hello", "--session-id", session).returncode == 0
    run = project.run("-r", session, "-p", "/rename bug hunt")
    assert (run.returncode, run.stdout) == (0, "Session renamed to: bug hunt\n"), run.stderr
    [listed] = list_sessions(project.root, project.config)
    assert (listed.session_id, listed.summary, listed.first_prompt) == (session, "bug hunt",
                                                                       "hello")
