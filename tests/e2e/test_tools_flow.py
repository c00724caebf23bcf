"""The six base tools end to end: a scripted model works on a real project through `-p`."""

from __future__ import annotations

import json

from tests.conftest import Project
from tests.fakeapi import Reply, text, tool_use

CALC = "def add(a, b):\n    return a - b\n"


def test_glob_grep_read_edit_write_bash(project: Project) -> None:
    src = project.root / "src"
    src.mkdir()
    calc = src / "calc.py"
    calc.write_text(CALC)
    (src / "notes.txt").write_text("nothing to see\n")
    main_py = project.root / "main.py"
    project.api.script(
        Reply([
            text("Let me look around."),
            tool_use("Glob", {"pattern": "**/*.py"}),
            tool_use("Grep", {"pattern": "def add", "output_mode": "content"}),
            tool_use("Read", {"file_path": str(calc)}),
        ]),
        Reply([tool_use("Edit", {"file_path": str(calc), "old_string": "a - b",
                                 "new_string": "a + b"})]),
        Reply([tool_use("Write", {"file_path": str(main_py),
                                  "content": "from src.calc import add\nprint(add(2, 3))\n"})]),
        Reply([tool_use("Bash", {"command": "python main.py", "description": "Run main"})]),
        Reply([text("Fixed: add now returns 5 for 2 + 3.")]),
    )
    run = project.run("-p", "fix add", "--output-format", "json",
                      "--permission-mode", "bypassPermissions")
    assert run.returncode == 0, run.stderr + run.stdout
    result = run.json()
    assert result["result"] == "Fixed: add now returns 5 for 2 + 3."
    assert result["num_turns"] == 5
    assert calc.read_text() == "def add(a, b):\n    return a + b\n"
    assert main_py.read_text() == "from src.calc import add\nprint(add(2, 3))\n"
    project.api.assert_clean()

    bodies = project.api.bodies
    first_results = bodies[1]["messages"][2]["content"]
    assert [r["type"] for r in first_results] == ["tool_result"] * 3
    assert not any(r.get("is_error") for r in first_results)
    glob_out, grep_out, read_out = (r["content"] for r in first_results)
    assert str(calc) in glob_out and "notes.txt" not in glob_out
    assert f"{calc}:1:def add(a, b):" in grep_out
    assert read_out.startswith("1\tdef add(a, b):")
    edit_result = bodies[2]["messages"][-1]["content"][0]
    assert edit_result["content"] == f"The file {calc} has been updated successfully."
    write_result = bodies[3]["messages"][-1]["content"][0]
    assert write_result["content"] == f"File created successfully at: {main_py}"
    bash_result = bodies[4]["messages"][-1]["content"][0]
    assert bash_result["content"] == "5"
    assert not bash_result.get("is_error")


def test_edit_is_denied_in_default_print_mode(project: Project) -> None:
    target = project.root / "a.txt"
    target.write_text("old\n")
    project.api.script(
        Reply([tool_use("Read", {"file_path": str(target)})]),
        Reply([tool_use("Edit", {"file_path": str(target), "old_string": "old",
                                 "new_string": "new"})]),
        Reply([text("I could not edit it.")]),
    )
    run = project.run("-p", "edit it", "--output-format", "json")
    assert run.returncode == 0
    assert target.read_text() == "old\n"
    denials = run.json()["permission_denials"]
    assert [d["tool_name"] for d in denials] == ["Edit"]
    assert denials[0]["tool_input"]["new_string"] == "new"
    refused = project.api.bodies[2]["messages"][-1]["content"][0]
    assert refused["is_error"] is True


def test_a_tool_starts_while_the_model_is_still_streaming(project: Project) -> None:
    marker = project.root / "started"
    readme = project.root / "README.md"
    readme.write_text("hi\n")
    hooks = {"PreToolUse": [{"matcher": "Read",
                             "hooks": [{"type": "command", "command": f"touch {marker}"}]}]}
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    project.api.script(
        # the message goes on only once the Read has started (its PreToolUse hook
        # touches the marker): it is whole once the next block begins, and a Read held
        # until message_stop would stall it
        Reply([tool_use("Read", {"file_path": str(readme)}), text("still talking"),
               text("and talking")], hold_after_block={1: marker.exists}),
        Reply([text("done")]),
    )
    run = project.run("-p", "go")
    assert run.returncode == 0, run.stderr
    assert marker.exists()
    project.api.assert_clean()  # the hold ended because the marker appeared, not by expiry


def test_a_writing_tool_waits_for_the_message_to_end(project: Project) -> None:
    marker = project.root / "written"
    project.api.script(
        # the command writes the time it ran (CLOCK_REALTIME, like the fake's `sent`)
        Reply([tool_use("Bash", {"command": f"date +%s.%N > {marker}"}), text("still talking")],
              pause_after_block={0: 0.5}),
        Reply([text("done")]),
    )
    run = project.run("-p", "go", "--permission-mode", "bypassPermissions")
    assert run.returncode == 0, run.stderr
    # Held until the message ended: had the output cap cut the message, a call cut
    # short in its input must never run.
    ran_at = float(marker.read_text())
    ended_at = project.api.sent_at("message_stop")
    assert ended_at is not None and ran_at > ended_at


def test_failed_bash_cancels_its_siblings(project: Project) -> None:
    project.api.script(
        Reply([
            tool_use("Bash", {"command": "exit 3"}),
            tool_use("Bash", {"command": "touch should-not-exist"}),
        ]),
        Reply([text("ok")]),
    )
    run = project.run("-p", "go", "--permission-mode", "bypassPermissions")
    assert run.returncode == 0, run.stderr
    assert not (project.root / "should-not-exist").exists()
    first, second = project.api.bodies[1]["messages"][-1]["content"]
    assert first["is_error"] and "Exit code 3" in first["content"]
    assert second["is_error"] and "Cancelled" in second["content"]


def test_background_command_notice_reaches_the_model(project: Project) -> None:
    project.api.script(
        Reply([tool_use("Bash", {"command": "echo $$ > bg.pid", "run_in_background": True})]),
        # returns once the background command is gone (reaped: its watcher has seen it end)
        Reply([tool_use("Bash", {"command": "until [ -s bg.pid ] && ! kill -0 $(cat bg.pid) "
                                            "2>/dev/null; do sleep 0.01; done"})]),
        Reply([text("done")]),
    )
    run = project.run("-p", "go", "--permission-mode", "bypassPermissions")
    assert run.returncode == 0, run.stderr
    started = project.api.bodies[1]["messages"][-1]["content"][0]["content"]
    assert "Command running in background with ID:" in started
    last_user = project.api.bodies[2]["messages"][-1]["content"]
    texts = [b.get("text", "") for b in last_user if b["type"] == "text"]
    assert any("exit code 0" in t for t in texts), last_user
    project.api.assert_clean()


def test_a_large_bash_output_is_saved_beside_the_transcript(project: Project) -> None:
    command = "seq 1 40000"  # 228,894 characters
    project.api.script(Reply([tool_use("Bash", {"command": command}, id="toolu_big")]),
                       Reply([text("seen")]))
    run = project.run("-p", "go", "--permission-mode", "bypassPermissions",
                      "--output-format", "json")
    assert run.returncode == 0, run.stderr
    session = run.json()["session_id"]
    (transcript,) = (project.config / "projects").glob(f"*/{session}.jsonl")
    saved = transcript.with_suffix("") / "tool-results" / "toolu_big.txt"
    assert saved.read_text() == "".join(f"{i}\n" for i in range(1, 40001))
    sent = project.api.bodies[1]["messages"][-1]["content"][0]["content"]
    assert sent.startswith("1\n2\n") and f"The full output is saved at {saved} -" in sent
    lines = [json.loads(line) for line in transcript.read_text().splitlines()]
    results = [ln["toolUseResult"] for ln in lines if "toolUseResult" in ln]
    assert results[0]["persistedOutputPath"] == str(saved)
    project.api.assert_clean()
