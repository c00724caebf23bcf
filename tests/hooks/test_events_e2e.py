"""Events fired where Claude Code fires them, seen end to end (`python -m cc -p`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import Project
from tests.fakeapi import Fault, Reply, text, tool_use

STREAM = ("--output-format", "stream-json", "--verbose")


def _dumping(project: Project, *events: str, extra: dict[str, Any] | None = None) -> Path:
    """Settings whose hooks save each input to `<dump>/<event>.<n>.json`."""
    dump = project.root.parent / "dump"
    dump.mkdir()
    script = project.root.parent / "dump.sh"
    script.write_text(f'#!/bin/bash\nf=$(mktemp {dump}/"$1".XXXXXX)\ncat > "$f"\n',
                      encoding="utf-8")
    script.chmod(0o755)
    hooks: dict[str, Any] = {e: [{"hooks": [{"type": "command", "command": f"{script} {e}"}]}]
                             for e in events}
    for event, groups in (extra or {}).items():
        hooks.setdefault(event, []).extend(groups)
    (project.root / ".claude").mkdir(exist_ok=True)
    (project.root / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    return dump


def _inputs(dump: Path, event: str) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted(dump.glob(f"{event}.*"),
                                                       key=lambda p: p.stat().st_mtime_ns)]


def test_tool_events_carry_claude_codes_fields_and_a_batch_follows(project: Project) -> None:
    batch_says = {"hookSpecificOutput": {"hookEventName": "PostToolBatch",
                                         "additionalContext": "both calls seen"}}
    dump = _dumping(project, "UserPromptSubmit", "PostToolUse", "PostToolUseFailure",
                    "PostToolBatch", "Stop", "MessageDisplay", extra={"PostToolBatch": [{"hooks": [
                        {"type": "command", "command": f"echo '{json.dumps(batch_says)}'"}]}]})
    project.api.script(Reply([tool_use("Bash", {"command": "echo hi"}, id="t1"),
                              tool_use("Bash", {"command": "exit 3"}, id="t2")]),
                       Reply([text("done")]))
    run = project.run("-p", "go", "--allowedTools", "Bash", *STREAM)
    assert run.returncode == 0, run.stderr
    (prompt,) = _inputs(dump, "UserPromptSubmit")
    prompt_id = prompt["prompt_id"]
    (post,) = _inputs(dump, "PostToolUse")
    assert post["prompt_id"] == prompt_id and isinstance(post["duration_ms"], int)
    assert list(post)[-2:] == ["tool_use_id", "duration_ms"]
    (failed,) = _inputs(dump, "PostToolUseFailure")
    assert (failed["tool_use_id"], failed["is_interrupt"]) == ("t2", False)
    assert failed["error"].startswith("Exit code 3") and "duration_ms" in failed
    (batch,) = _inputs(dump, "PostToolBatch")
    assert batch["prompt_id"] == prompt_id and batch["permission_mode"] == "default"
    calls = batch["tool_calls"]
    assert [(c["tool_name"], c["tool_use_id"]) for c in calls] == [("Bash", "t1"), ("Bash", "t2")]
    assert calls[0]["tool_input"] == {"command": "echo hi"}
    assert calls[0]["tool_response"].strip() == "hi"
    assert calls[1]["tool_response"].startswith("Exit code 3")
    # The batch's context reaches the model with the next request.
    sent = json.dumps(project.api.requests[1].body["messages"])
    assert "PostToolBatch hook additional context: both calls seen" in sent
    (stop,) = _inputs(dump, "Stop")
    assert (stop["background_tasks"], stop["session_crons"]) == ([], [])
    assert stop["prompt_id"] == prompt_id
    # Only the message with text is displayed (the one of calls alone is not).
    (shown,) = _inputs(dump, "MessageDisplay")
    assert "permission_mode" not in shown and shown["prompt_id"] == prompt_id
    assert (shown["index"], shown["final"], shown["delta"]) == (0, True, "done")
    assert shown["turn_id"] and shown["message_id"] and shown["turn_id"] != prompt_id
    assert project.api.violations == []


def test_a_turn_ending_on_an_api_error_fires_stop_failure(project: Project) -> None:
    dump = _dumping(project, "Stop")
    settings = json.loads((project.root / ".claude" / "settings.json").read_text())
    script = project.root.parent / "dump.sh"
    settings["hooks"]["StopFailure"] = [
        {"matcher": "invalid_request", "hooks": [{"type": "command",
                                                  "command": f"{script} StopFailure"}]},
        {"matcher": "rate_limit", "hooks": [{"type": "command",
                                             "command": f"{script} NotThisOne"}]}]
    (project.root / ".claude" / "settings.json").write_text(json.dumps(settings))
    project.api.script(Fault(400, "invalid_request_error", "bad thing happened"))
    run = project.run("-p", "go", *STREAM)
    assert run.returncode == 1
    (failure,) = _inputs(dump, "StopFailure")
    assert failure["hook_event_name"] == "StopFailure" and "permission_mode" not in failure
    assert failure["error"] == "invalid_request"
    assert "bad thing happened" in failure["last_assistant_message"]
    assert _inputs(dump, "Stop") == [] and _inputs(dump, "NotThisOne") == []


def _answering(project: Project, event: str, answer: dict[str, Any]) -> None:
    """Settings whose one `event` hook (for Write) logs its inputs (`_answers`) and
    prints `answer`."""
    log = project.root.parent / f"{event}.log"
    script = project.root.parent / f"{event}.sh"
    script.write_text(f"#!/bin/bash\ncat >> {log}\necho >> {log}\n"
                      f"echo '{json.dumps(answer)}'\n", encoding="utf-8")
    script.chmod(0o755)
    (project.root / ".claude").mkdir(exist_ok=True)
    (project.root / ".claude" / "settings.json").write_text(json.dumps(
        {"hooks": {event: [{"matcher": "Write", "hooks": [
            {"type": "command", "command": str(script)}]}]}}))


def _answers(project: Project, event: str) -> list[dict[str, Any]]:
    log = project.root.parent / f"{event}.log"
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


def test_a_permission_request_hook_allows_what_would_be_asked(project: Project) -> None:
    allow = {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {
        "behavior": "allow", "updatedPermissions": [
            {"type": "addRules", "rules": [{"toolName": "Write"}], "behavior": "allow",
             "destination": "session"}]}}}
    _answering(project, "PermissionRequest", allow)
    a, b = project.root / "a.txt", project.root / "b.txt"
    project.api.script(Reply([tool_use("Write", {"file_path": str(a), "content": "A"}, id="t1")]),
                       Reply([tool_use("Write", {"file_path": str(b), "content": "B"}, id="t2")]),
                       Reply([text("done")]))
    run = project.run("-p", "go", *STREAM)
    assert run.returncode == 0, run.stderr
    assert a.read_text() == "A" and b.read_text() == "B"
    # Asked once: the rule it added for the session allows the second call.
    (asked,) = _answers(project, "PermissionRequest")
    assert asked["hook_event_name"] == "PermissionRequest" and asked["tool_name"] == "Write"
    assert asked["tool_input"] == {"file_path": str(a), "content": "A"}
    assert "tool_use_id" not in asked and isinstance(asked["permission_suggestions"], list)
    assert asked["permission_mode"] == "default"
    # Not saved: the destination was the session.
    assert not (project.root / ".claude" / "settings.local.json").exists()


def test_a_permission_request_hook_denies_with_its_message(project: Project) -> None:
    deny = {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {
        "behavior": "deny", "message": "writes are reviewed by hand"}}}
    _answering(project, "PermissionRequest", deny)
    a = project.root / "a.txt"
    project.api.script(Reply([tool_use("Write", {"file_path": str(a), "content": "A"}, id="t1")]),
                       Reply([text("done")]))
    run = project.run("-p", "go", *STREAM)
    assert run.returncode == 0, run.stderr
    assert not a.exists()
    results = [b for r in run.records() if r.get("type") == "user"
               for b in r["message"]["content"] if b.get("type") == "tool_result"]
    assert "writes are reviewed by hand" in json.dumps(results)
    # Allowed calls are never asked about.
    project.api.script(Reply([tool_use("Read", {"file_path": str(project.root / ".claude"
                                                                 / "settings.json")})]),
                       Reply([text("done")]))
    assert project.run("-p", "go", *STREAM).returncode == 0
    assert len(_answers(project, "PermissionRequest")) == 1


def test_instructions_loaded_and_cwd_changed(project: Project) -> None:
    (project.config / "CLAUDE.md").write_text("mine\n")
    (project.root / "CLAUDE.md").write_text("ours\n")
    (project.root / "CLAUDE.local.md").write_text("local\n")
    (project.root / "sub").mkdir()
    dump = _dumping(project, "InstructionsLoaded", "CwdChanged", "PostToolUse")
    project.api.script(Reply([tool_use("Bash", {"command": "cd sub"}, id="t1")]),
                       Reply([tool_use("Bash", {"command": "pwd"}, id="t2")]),
                       Reply([text("done")]))
    run = project.run("-p", "go", "--allowedTools", "Bash", *STREAM)
    assert run.returncode == 0, run.stderr
    loaded = sorted((i["memory_type"], i["file_path"], i["load_reason"])
                    for i in _inputs(dump, "InstructionsLoaded"))
    assert loaded == [("Local", str(project.root / "CLAUDE.local.md"), "session_start"),
                      ("Project", str(project.root / "CLAUDE.md"), "session_start"),
                      ("User", str(project.config / "CLAUDE.md"), "session_start")]
    first = _inputs(dump, "InstructionsLoaded")[0]
    assert "permission_mode" not in first and "prompt_id" not in first
    (moved,) = _inputs(dump, "CwdChanged")
    sub = str(project.root / "sub")
    assert (moved["old_cwd"], moved["new_cwd"], moved["cwd"]) == (str(project.root), sub, sub)
    assert "permission_mode" not in moved
    # Later events say where the shell is now.
    assert [p["cwd"] for p in _inputs(dump, "PostToolUse")] == [sub, sub]


def test_no_instructions_loaded_without_claude_md_or_with_a_replaced_prompt(
        project: Project) -> None:
    (project.root / "CLAUDE.md").write_text("ours\n")
    dump = _dumping(project, "InstructionsLoaded")
    project.api.script(Reply([text("done")]))
    run = project.run("-p", "go", "--system-prompt", "be brief", *STREAM)
    assert run.returncode == 0, run.stderr
    assert _inputs(dump, "InstructionsLoaded") == []


def test_an_excluded_claude_md_loads_no_instructions(project: Project) -> None:
    """InstructionsLoaded names the files the prompt holds: not one `claudeMdExcludes`
    leaves out."""
    (project.config / "CLAUDE.md").write_text("mine\n")
    (project.root / "CLAUDE.md").write_text("ours\n")
    dump = _dumping(project, "InstructionsLoaded")
    settings = json.loads((project.root / ".claude" / "settings.json").read_text())
    settings["claudeMdExcludes"] = [str(project.root / "CLAUDE.md")]
    (project.root / ".claude" / "settings.json").write_text(json.dumps(settings))
    project.api.script(Reply([text("done")]))
    run = project.run("-p", "go", *STREAM)
    assert run.returncode == 0, run.stderr
    assert [i["file_path"] for i in _inputs(dump, "InstructionsLoaded")] == [
        str(project.config / "CLAUDE.md")]
    assert "ours" not in json.dumps(project.api.bodies[-1]["system"])


def test_file_changed_fires_for_watched_files(project: Project) -> None:
    data, gone, ini = (project.root / n for n in ("data.json", "gone.txt", "app.ini"))
    data.write_text("{}")
    gone.write_text("x")
    start = {"hookSpecificOutput": {"hookEventName": "SessionStart",
                                    "watchPaths": [str(data), str(gone)]}}
    dump = _dumping(project, extra={"SessionStart": [{"hooks": [
        {"type": "command", "command": f"echo '{json.dumps(start)}'"}]}]})
    script = project.root.parent / "dump.sh"
    settings = json.loads((project.root / ".claude" / "settings.json").read_text())
    # One group names a file in the cwd (so it is watched), one takes every change.
    settings["hooks"]["FileChanged"] = [
        {"matcher": "app.ini", "hooks": [{"type": "command", "command": f"{script} FileChanged"}]},
        {"hooks": [{"type": "command", "command": f"{script} FileChanged"}]}]
    (project.root / ".claude" / "settings.json").write_text(json.dumps(settings))
    # The call changes the files, then waits (with a deadline) until three events came.
    change = (f"echo 1 > {data}; echo 2 > {ini}; rm {gone}; for i in $(seq 600); do "
              f"[ $(ls {dump} | grep -c FileChanged) -ge 3 ] && break; sleep 0.05; done")
    project.api.script(Reply([tool_use("Bash", {"command": change}, id="t1")]),
                       Reply([text("done")]))
    run = project.run("-p", "go", "--allowedTools", "Bash", *STREAM)
    assert run.returncode == 0, run.stderr
    seen = sorted((i["event"], i["file_path"]) for i in _inputs(dump, "FileChanged"))
    assert seen == [("add", str(ini)), ("change", str(data)), ("unlink", str(gone))]
    assert "permission_mode" not in _inputs(dump, "FileChanged")[0]


def test_continue_false_lets_the_call_run_then_ends_the_turn(project: Project) -> None:
    halt = json.dumps({"continue": False, "stopReason": "halt here"})
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "settings.json").write_text(json.dumps({"hooks": {
        "PreToolUse": [{"hooks": [{"type": "command", "command": f"echo '{halt}'"}]}]}}))
    marker = project.root / "ran"
    project.api.script(Reply([tool_use("Bash", {"command": f"touch {marker}"}, id="t1")]),
                       Reply([text("never asked")]))
    run = project.run("-p", "go", "--allowedTools", "Bash", *STREAM)
    assert run.returncode == 0, run.stderr
    assert marker.exists()  # as in Claude Code 2.1.332: the call itself runs
    assert len(project.api.requests) == 1
    final = run.records()[-1]
    assert (final["is_error"], final["result"], final["terminal_reason"]) == (
        False, "", "hook_stopped")


def test_config_change_fires_when_a_settings_file_changes(project: Project) -> None:
    dump = _dumping(project, "ConfigChange")
    local = project.root / ".claude" / "settings.local.json"
    # The call writes the local settings, then waits (with a deadline) for the hook.
    change = (f"echo '{{\"model\": \"sonnet\"}}' > {local}; for i in $(seq 600); do "
              f"ls {dump} | grep -q ConfigChange && break; sleep 0.05; done")
    project.api.script(Reply([tool_use("Bash", {"command": change}, id="t1")]),
                       Reply([text("done")]))
    run = project.run("-p", "go", "--allowedTools", "Bash", "--permission-mode",
                      "bypassPermissions", *STREAM)
    assert run.returncode == 0, run.stderr
    assert json.loads(local.read_text()) == {"model": "sonnet"}, run.stdout[-2000:]
    (changed,) = _inputs(dump, "ConfigChange")
    assert (changed["source"], changed["file_path"]) == ("local_settings", str(local))
    assert changed["hook_event_name"] == "ConfigChange"


def test_an_sdk_session_reports_hooks_too(project: Project) -> None:
    _dumping(project, "SessionStart", "UserPromptSubmit", "PreToolUse", "Stop")
    for _ in range(2):
        project.api.script(Reply([tool_use("Bash", {"command": "echo hi"})]),
                           Reply([text("done")]))
    line = json.dumps({"type": "user", "message": {"role": "user", "content": "go"},
                       "parent_tool_use_id": None, "session_id": ""}) + "\n"

    def kinds(*flags: str) -> list[str]:
        run = project.run("--input-format", "stream-json", "--allowedTools", "Bash", *STREAM,
                          *flags, stdin=line)
        assert run.returncode == 0, run.stderr
        return [f"{r['subtype']}:{r.get('hook_name', '')}" for r in run.records()
                if r["type"] == "system" and r["subtype"].startswith("hook_")]

    # As Claude Code's: SessionStart's always, every event's with the flag.
    assert kinds() == ["hook_started:SessionStart:startup", "hook_response:SessionStart:startup"]
    assert kinds("--include-hook-events") == [
        "hook_started:SessionStart:startup", "hook_response:SessionStart:startup",
        "hook_started:UserPromptSubmit", "hook_response:UserPromptSubmit",
        "hook_started:PreToolUse:Bash", "hook_response:PreToolUse:Bash",
        "hook_started:Stop", "hook_response:Stop"]
