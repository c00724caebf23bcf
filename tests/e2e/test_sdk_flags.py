"""The flags the official Agent SDK puts on cc's command line, end to end."""

from __future__ import annotations

import json

from tests.conftest import Project
from tests.fakeapi import Fault, Reply, text, tool_use

STREAM = ("--output-format", "stream-json", "--verbose")


def test_fallback_model_record_and_text_mode_line(project: Project) -> None:
    project.api.script(*[Fault(529) for _ in range(3)], Reply([text("from sonnet")]))
    run = project.run("-p", "hi", "--fallback-model", "sonnet", *STREAM)
    assert run.returncode == 0, run.stderr
    records = run.records()
    kinds = [r["type"] if r["type"] != "system" else r["subtype"] for r in records]
    assert kinds == ["init", "api_retry", "api_retry", "model_fallback", "assistant", "result"]
    moved = records[3]
    assert {k: moved[k] for k in ("trigger", "original_model", "fallback_model")} == {
        "trigger": "overloaded", "original_model": "claude-opus-5-5",
        "fallback_model": "claude-sonnet-5-5"}
    assert set(moved) == {"type", "subtype", "uuid", "trigger", "original_model",
                          "fallback_model", "content", "session_id"}
    assert records[-1]["result"] == "from sonnet"
    assert list(records[-1]["modelUsage"]) == ["claude-sonnet-5-5"]

    project.api.script(Fault(500), Reply([text("from haiku")]))
    run = project.run("-p", "hi", "--fallback-model", "haiku")
    assert run.returncode == 0
    assert run.stdout == "from haiku\n"
    assert "claude-haiku-5-5" in run.stderr


def test_thinking_effort_task_budget_and_betas_reach_the_request(project: Project) -> None:
    project.env["CC_API_DIALECT"] = "full"  # (as to Anthropic's API)
    project.api.script(Reply([text("ok")]))
    run = project.run("-p", "hi", "--thinking", "adaptive", "--thinking-display", "summarized",
                      "--effort", "max", "--task-budget", "20000",
                      "--betas", "context-1m-2025-08-07", *STREAM)
    assert run.returncode == 0, run.stderr
    sent = project.api.requests[-1]
    assert sent.body["thinking"] == {"type": "adaptive", "display": "summarized"}
    assert sent.body["output_config"] == {"effort": "max",
                                          "task_budget": {"type": "tokens", "total": 20000}}
    assert {"context-1m-2025-08-07", "effort-2025-11-24", "task-budgets-2026-03-13"} <= set(
        sent.headers["anthropic-beta"].split(","))
    assert run.records()[0]["betas"] == ["context-1m-2025-08-07"]
    project.api.assert_clean()


def test_thinking_disabled_wins_over_the_environment_and_odd_values_are_warned_of(
        project: Project) -> None:
    project.env.update(MAX_THINKING_TOKENS="4096", CC_API_DIALECT="full")
    project.api.script(Reply([text("ok")]), Reply([text("ok")]))
    run = project.run("-p", "hi", "--thinking", "disabled", "--effort", "hard",
                      "--betas", "made-up-2099-01-01", *STREAM)
    assert run.returncode == 0, run.stderr
    body = project.api.requests[-1].body
    assert "thinking" not in body and body["output_config"] == {"effort": "medium"}
    assert "made-up" not in project.api.requests[-1].headers["anthropic-beta"]
    assert "--effort 'hard'" in run.stderr and "made-up-2099-01-01" in run.stderr
    assert "betas" not in run.records()[0]
    run = project.run("-p", "hi", "--max-thinking-tokens", "2048")
    assert project.api.requests[-1].body["thinking"] == {"type": "enabled", "budget_tokens": 2048,
                                                          "display": "omitted"}


def test_invalid_values_of_the_thinking_flags_are_refused(project: Project) -> None:
    for args in (("--thinking", "lots"), ("--thinking-display", "loud"),
                 ("--task-budget", "0"), ("--max-thinking-tokens", "many")):
        run = project.run("-p", "hi", *args)
        assert run.returncode == 1 and args[0] in run.stderr, args
    assert project.api.bodies == []


def _hooks(project: Project) -> None:
    settings = project.root / ".claude" / "settings.json"
    settings.parent.mkdir(exist_ok=True)
    command = {"type": "command"}
    settings.write_text(json.dumps({"hooks": {
        "SessionStart": [{"hooks": [{**command, "command": "echo started"}]}],
        "UserPromptSubmit": [{"hooks": [{**command, "command": "echo context"}]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [
            {**command, "command": "echo out; echo err >&2"},
            {**command, "command": "exit 2"},
            {**command, "command": "sleep 30", "timeout": 1}]}],
        "Stop": [{"hooks": [{**command, "command": "true"}]}],
        "SessionEnd": [{"hooks": [{**command, "command": "true"}]}],
    }}))


def _kinds(records: list[dict]) -> list[str]:
    return [r["type"] if r["type"] != "system" else
            r["subtype"] + (f":{r['hook_name']}" if "hook_name" in r else "") for r in records]


def test_hook_events_with_the_flag_and_session_start_always(project: Project) -> None:
    _hooks(project)
    project.api.script(Reply([tool_use("Bash", {"command": "echo hi"})]), Reply([text("done")]))
    run = project.run("-p", "go", "--allowedTools", "Bash", "--include-hook-events", *STREAM)
    assert run.returncode == 0, run.stderr
    records = run.records()
    kinds = _kinds(records)
    # As Claude Code orders them: the start's and the prompt's hooks before system/init,
    # the Stop hooks after the last answer, nothing after the result (SessionEnd's unsaid).
    assert kinds[:5] == ["hook_started:SessionStart:startup",
                         "hook_response:SessionStart:startup",
                         "hook_started:UserPromptSubmit", "hook_response:UserPromptSubmit",
                         "init"]
    assert kinds[-4:] == ["assistant", "hook_started:Stop", "hook_response:Stop", "result"]
    pre = [r for r in records if r.get("hook_event") == "PreToolUse"]
    assert len(pre) == 6 and len({r["hook_id"] for r in pre}) == 3
    answers = {r["hook_id"]: r for r in pre if r["subtype"] == "hook_response"}
    assert sorted((r["outcome"], r.get("exit_code")) for r in answers.values()) == [
        ("cancelled", None), ("error", 2), ("success", 0)]
    said = next(r for r in answers.values() if r["outcome"] == "success")
    assert (said["stdout"], said["stderr"], said["output"]) == ("out\n", "err\n", "out\nerr\n")
    assert set(said) == {"type", "subtype", "hook_id", "hook_name", "hook_event", "output",
                         "stdout", "stderr", "exit_code", "outcome", "uuid", "session_id"}
    started = next(r for r in pre if r["subtype"] == "hook_started")
    assert set(started) == {"type", "subtype", "hook_id", "hook_name", "hook_event", "uuid",
                            "session_id"}

    project.api.script(Reply([text("done")]))
    run = project.run("-p", "go", *STREAM)
    assert _kinds(run.records()) == ["hook_started:SessionStart:startup",
                                     "hook_response:SessionStart:startup", "init", "assistant",
                                     "result"]


def test_plugin_dirs_are_accepted_said_once_and_reported_as_not_loaded(project: Project) -> None:
    (project.root / "plugins").mkdir()
    project.api.script(Reply([text("ok")]))
    run = project.run("-p", "hi", "--plugin-dir", "plugins", "--plugin-dir", "/no/such/dir",
                      "--debug-to-stderr", *STREAM)
    assert run.returncode == 0, run.stderr
    assert run.stderr.count("--plugin-dir") == 1 and "/no/such/dir" in run.stderr
    init = run.records()[0]
    assert init["plugins"] == []
    assert init["plugin_errors"] == [
        {"plugin": "inline[0]", "type": "not-supported", "message": "cc does not load plugins yet",
         "path": str(project.root / "plugins")},
        {"plugin": "inline[1]", "type": "path-not-found",
         "message": "/no/such/dir does not exist", "path": "/no/such/dir"}]


def test_unknown_flags_still_fail_loudly(project: Project) -> None:
    for args in (("--no-such-flag",), ("--max-turn", "1"), ("--fallback", "sonnet")):
        run = project.run("-p", "hi", *args)
        assert run.returncode == 1, args
        assert args[0] in run.stderr
    assert project.api.bodies == []


def test_session_mirror_frames_carry_every_transcript_line(project: Project) -> None:
    (project.root / "f.txt").write_text("x")
    project.api.script(Reply([tool_use("Read", {"file_path": str(project.root / "f.txt")})]),
                       Reply([text("read")]))
    run = project.run("-p", "read f.txt", "--session-mirror", *STREAM)
    assert run.returncode == 0, run.stderr
    frames = [r for r in run.records() if r["type"] == "transcript_mirror"]
    [path] = project.config.glob("projects/*/*.jsonl")
    assert {f["filePath"] for f in frames} == {str(path)}
    assert all(set(f) == {"type", "filePath", "entries"} for f in frames)
    on_file = [json.loads(line) for line in path.read_text().splitlines()]
    assert [e for f in frames for e in f["entries"]] == on_file
    assert run.records()[-1]["type"] == "result"

    project.api.script(Reply([text("quiet")]), Reply([text("quiet")]))
    plain = project.run("-p", "hi", *STREAM)
    assert not any(r["type"] == "transcript_mirror" for r in plain.records())
    text_mode = project.run("-p", "hi", "--session-mirror")
    assert text_mode.stdout == "quiet\n"
