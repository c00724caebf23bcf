"""Hooks end to end: real hook scripts configured in settings, run by `python -m cc -p`."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import Project
from tests.fakeapi import Reply, text, tool_use


def configure(project: Project, hooks: dict) -> None:
    settings = project.root / ".claude" / "settings.json"
    settings.parent.mkdir(exist_ok=True)
    settings.write_text(json.dumps({"hooks": hooks}))


def script(path: Path, body: str) -> str:
    path.write_text("#!/usr/bin/env bash\n" + body)
    path.chmod(0o755)
    return str(path)


def test_pre_tool_use_exit_2_blocks_an_edit(project: Project) -> None:
    target = project.root / "a.txt"
    target.write_text("old\n")
    seen = project.root / "hook-input.json"
    guard = script(project.root / "guard.sh",
                   f'cat > {seen}\necho "edits to a.txt are frozen" >&2\nexit 2\n')
    configure(project, {"PreToolUse": [{"matcher": "Edit|Write",
                                        "hooks": [{"type": "command", "command": guard}]}]})
    project.api.script(
        Reply([tool_use("Read", {"file_path": str(target)})]),
        Reply([tool_use("Edit", {"file_path": str(target), "old_string": "old",
                                 "new_string": "new"})]),
        Reply([text("The hook blocked me.")]),
    )
    run = project.run("-p", "edit it", "--permission-mode", "acceptEdits")
    assert run.returncode == 0, run.stderr
    assert target.read_text() == "old\n"
    result = project.api.bodies[2]["messages"][-1]["content"][0]
    assert result["is_error"] is True
    assert "edits to a.txt are frozen" in result["content"]
    payload = json.loads(seen.read_text())
    assert payload["hook_event_name"] == "PreToolUse"
    assert payload["tool_name"] == "Edit"
    assert payload["tool_input"]["new_string"] == "new"
    assert payload["cwd"] == str(project.root)
    assert len(payload["session_id"]) == 36
    transcript = Path(payload["transcript_path"])
    assert transcript.exists() and transcript.suffix == ".jsonl"


def test_prompt_and_session_hooks_add_context(project: Project) -> None:
    start = script(project.root / "start.sh", 'echo "branch policy: main is protected"\n')
    prompt = script(project.root / "prompt.sh",
                    'echo \'{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", '
                    '"additionalContext": "ticket ABC-123"}}\'\n')
    configure(project, {
        "SessionStart": [{"hooks": [{"type": "command", "command": start}]}],
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": prompt}]}],
    })
    project.api.script(Reply([text("noted")]))
    run = project.run("-p", "hello")
    assert run.returncode == 0, run.stderr
    sent = json.dumps(project.api.bodies[0]["messages"])
    assert "branch policy: main is protected" in sent
    assert "ticket ABC-123" in sent
    assert "hello" in sent
    project.api.assert_clean()


def test_user_prompt_submit_exit_2_blocks_the_prompt(project: Project) -> None:
    block = script(project.root / "block.sh", 'echo "no secrets in prompts" >&2\nexit 2\n')
    configure(project, {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": block}]}]})
    run = project.run("-p", "my password is hunter2", "--output-format", "json")
    assert project.api.bodies == []
    # As Claude Code 2.1.332 reports it: not an error (exit 0), the reason as the result.
    assert run.returncode == 0 and run.json()["is_error"] is False
    assert run.json()["result"] == (f"UserPromptSubmit operation blocked by hook:\n[{block}]: "
                                    "no secrets in prompts\n\n\nOriginal prompt: my password "
                                    "is hunter2")


def test_stop_hook_keeps_the_turn_going_once(project: Project) -> None:
    marker = project.root / "stopped-once"
    stop = script(project.root / "stop.sh",
                  f'if [ ! -e {marker} ]; then touch {marker}; '
                  'echo "run the tests first" >&2; exit 2; fi\nexit 0\n')
    configure(project, {"Stop": [{"hooks": [{"type": "command", "command": stop}]}]})
    project.api.script(Reply([text("done")]), Reply([text("tests pass, done")]))
    run = project.run("-p", "finish", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    assert run.json()["result"] == "tests pass, done"
    last = json.dumps(project.api.bodies[1]["messages"][-1])
    assert "run the tests first" in last
    project.api.assert_clean()


def test_a_hanging_hook_is_passed(project: Project) -> None:
    hang = script(project.root / "hang.sh", "sleep 30\n")
    configure(project, {"PreToolUse": [{"matcher": "Read",
                                        "hooks": [{"type": "command", "command": hang,
                                                   "timeout": 1}]}]})
    readme = project.root / "README.md"
    readme.write_text("hi\n")
    project.api.script(Reply([tool_use("Read", {"file_path": str(readme)})]),
                       Reply([text("read it")]))
    run = project.run("-p", "read", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    result = project.api.bodies[1]["messages"][-1]["content"][0]
    assert result["content"].startswith("1\thi")
