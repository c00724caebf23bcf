"""`prompt` and `http` hooks end to end: `python -m cc -p` against the fake API, with a
real local HTTP server for the http hook."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Project
from tests.fakeapi import Hang, Reply, last_user_text, text, tool_use

STREAM = ("--output-format", "stream-json", "--verbose")


def _settings(project: Project, hooks: dict[str, Any]) -> None:
    folder = project.root / ".claude"
    folder.mkdir(exist_ok=True)
    (folder / "settings.json").write_text(json.dumps({"hooks": hooks}), encoding="utf-8")


def _judged(body: dict[str, Any]) -> bool:
    return "Judge this call" in json.dumps(body.get("messages", []))


def _tool_results(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [b for r in records if r.get("type") == "user"
            for b in r["message"]["content"] if b.get("type") == "tool_result"]


def test_a_prompt_hook_blocks_a_call_and_ends_the_turn(project: Project) -> None:
    marker = project.root / "ran"
    batch = project.root / "batch"
    _settings(project, {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "prompt", "prompt": "Judge this call: $ARGUMENTS"}]}],
        "PostToolBatch": [{"hooks": [{"type": "command", "command": f"touch {batch}"}]}]})
    side = project.api.route(_judged, Reply([text('{"ok": false, "reason": "no touching"}')]),
                             name="side")
    project.api.script(Reply([tool_use("Bash", {"command": f"touch {marker}"}, id="t1")]),
                       Reply([text("never asked")]))
    run = project.run("-p", "go", "--allowedTools", "Bash", *STREAM)
    assert not marker.exists()
    # The side request: the hook's prompt with the input JSON in place of $ARGUMENTS,
    # no tools, and our judging instructions as the system prompt.
    (asked,) = side.requests
    prompt = last_user_text(asked.body)
    assert prompt.startswith("Judge this call: {")
    sent = json.loads(prompt.removeprefix("Judge this call: "))
    assert sent["hook_event_name"] == "PreToolUse" and sent["tool_use_id"] == "t1"
    assert sent["tool_input"]["command"] == f"touch {marker}"
    assert asked.body.get("tools", []) == []
    assert '{"ok": false' in asked.body["system"][-1]["text"]
    assert "format" not in asked.body.get("output_config", {})  # another endpoint: plain
    (result,) = _tool_results(run.records())
    assert result["is_error"] is True
    assert "[Judge this call: $ARGUMENTS]: no touching" in json.dumps(result["content"])
    # As Claude Code does, the block ends the turn: the model is not asked again, and
    # the result is a success with no text, ended by a hook.
    assert len([r for r in project.api.requests if r.route is None]) == 1
    final = run.records()[-1]
    assert run.returncode == 0, run.stderr
    assert (final["subtype"], final["is_error"], final["result"], final["terminal_reason"]) \
        == ("success", False, "", "hook_stopped")
    assert not batch.exists()  # the turn ended before the batch's hooks, as in Claude Code
    assert project.api.violations == []


def test_a_prompt_hook_that_allows_and_continue_on_block(project: Project) -> None:
    _settings(project, {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "prompt", "prompt": "Judge this call: $ARGUMENTS", "continueOnBlock": True}]}]})
    side = project.api.route(
        _judged, Reply([text('```json\n{"ok": true, "reason": "fine"}\n```')]),
        Reply([text('{"ok": false, "reason": "not this one"}')]), name="side")
    project.env["CC_API_DIALECT"] = "full"  # as to Anthropic's API
    project.api.script(Reply([tool_use("Bash", {"command": "echo first"}, id="t1")]),
                       Reply([tool_use("Bash", {"command": "echo second"}, id="t2")]),
                       Reply([text("done")]))
    run = project.run("-p", "go", "--allowedTools", "Bash", *STREAM)
    assert run.returncode == 0, run.stderr
    first, second = _tool_results(run.records())
    assert not first.get("is_error") and "first" in json.dumps(first["content"])
    assert second["is_error"] is True and "not this one" in json.dumps(second["content"])
    assert run.records()[-1]["result"] == "done"
    # Anthropic's API is asked for the verdict's shape, as Claude Code asks it.
    fmt = side.requests[0].body["output_config"]["format"]
    assert fmt["type"] == "json_schema" and fmt["schema"]["required"] == ["ok", "reason"]
    assert "thinking" not in side.requests[0].body


def test_a_prompt_hook_whose_model_fails_or_rambles_blocks_nothing(project: Project) -> None:
    _settings(project, {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "prompt", "prompt": "Judge this call: $ARGUMENTS"}]}]})
    project.api.route(_judged, Reply([text("I think it is probably fine")]), name="side")
    project.api.script(Reply([tool_use("Bash", {"command": "echo ran"}, id="t1")]),
                       Reply([text("done")]))
    run = project.run("-p", "go", "--allowedTools", "Bash", *STREAM)
    assert run.returncode == 0, run.stderr
    (result,) = _tool_results(run.records())
    assert not result.get("is_error") and "ran" in json.dumps(result["content"])


@dataclass
class HookServer:
    url: str
    received: list[dict[str, Any]] = field(default_factory=list)
    #: (status, body) answers in order; the last one repeats.
    answers: list[tuple[int, str]] = field(default_factory=list)


@pytest.fixture
def hook_server() -> Iterator[HookServer]:
    state = HookServer("")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers.get("content-length", 0)))
            state.received.append({"path": self.path, "headers": dict(self.headers),
                                   "body": json.loads(body)})
            status, answer = state.answers.pop(0) if len(state.answers) > 1 \
                else state.answers[0]
            data = answer.encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_an_http_hook_gets_the_input_and_its_answer_is_the_output(
        project: Project, hook_server: HookServer) -> None:
    deny = {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                   "permissionDecision": "deny",
                                   "permissionDecisionReason": "the server says no"}}
    hook_server.answers = [(200, json.dumps(deny))]
    _settings(project, {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "http", "url": hook_server.url, "allowedEnvVars": ["HOOK_TOKEN"],
         "headers": {"Authorization": "Bearer $HOOK_TOKEN", "X-Secret": "${OTHER_SECRET}"}}]}]})
    project.env.update(HOOK_TOKEN="tok-123", OTHER_SECRET="do-not-send")
    marker = project.root / "ran"
    project.api.script(Reply([tool_use("Bash", {"command": f"touch {marker}"}, id="t1")]),
                       Reply([text("done")]))
    run = project.run("-p", "go", "--allowedTools", "Bash", "--include-hook-events", *STREAM)
    assert run.returncode == 0, run.stderr
    assert not marker.exists()
    (got,) = hook_server.received
    assert got["path"] == "/hook"
    assert got["body"]["hook_event_name"] == "PreToolUse"
    assert got["body"]["tool_input"]["command"] == f"touch {marker}"
    assert got["headers"]["Authorization"] == "Bearer tok-123"
    assert got["headers"]["X-Secret"] == ""
    (result,) = _tool_results(run.records())
    assert result["is_error"] is True and "the server says no" in json.dumps(result["content"])
    # stream-json reports the HTTP status as the exit code, the body as stdout.
    (said,) = [r for r in run.records() if r.get("subtype") == "hook_response"
               and r["hook_event"] == "PreToolUse"]
    assert (said["exit_code"], said["outcome"]) == (200, "success")
    assert json.loads(said["stdout"]) == deny


def test_an_http_hook_that_fails_or_is_unreachable_blocks_nothing(
        project: Project, hook_server: HookServer, tmp_path: Path) -> None:
    hook_server.answers = [(500, "boom")]
    _settings(project, {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "http", "url": hook_server.url},
        {"type": "http", "url": "http://127.0.0.1:9/refused", "timeout": 5}]}]})
    project.api.script(Reply([tool_use("Bash", {"command": "echo ran"}, id="t1")]),
                       Reply([text("done")]))
    run = project.run("-p", "go", "--allowedTools", "Bash", "--include-hook-events", *STREAM)
    assert run.returncode == 0, run.stderr
    (result,) = _tool_results(run.records())
    assert not result.get("is_error") and "ran" in json.dumps(result["content"])
    said = sorted((r.get("exit_code"), r["outcome"]) for r in run.records()
                  if r.get("subtype") == "hook_response" and r["hook_event"] == "PreToolUse")
    assert said == [(1, "error"), (500, "error")]
    assert len(hook_server.received) == 1


def test_an_async_hook_does_not_hold_the_turn_and_its_context_comes_later(
        project: Project) -> None:
    release, finished = project.root / "release", project.root / "finished"
    # The hook waits for a file that only the next tool call creates: if the turn waited
    # for it, it would time out and say nothing.
    script = project.root / "slow.sh"
    script.write_text(
        "#!/bin/bash\ncat > /dev/null\n"
        f"[ -f {finished} ] && exit 0\necho $$ > {finished}\n"
        f"for i in $(seq 600); do [ -f {release} ] && break; sleep 0.05; done\n"
        "echo '{\"systemMessage\": \"async says\", \"hookSpecificOutput\": "
        "{\"hookEventName\": \"PostToolUse\", \"additionalContext\": "
        "\"the async hook is done\"}}'\n", encoding="utf-8")
    script.chmod(0o755)
    _settings(project, {"PostToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": str(script), "async": True, "timeout": 60}]}]})
    # The next call lets the hook go and waits until it has ended.
    wait = (f"touch {release}; pid=$(cat {finished}); "
            "for i in $(seq 600); do kill -0 $pid 2>/dev/null || break; sleep 0.05; done")
    project.api.script(Reply([tool_use("Bash", {"command": "echo one"}, id="t1")]),
                       Reply([tool_use("Bash", {"command": wait}, id="t2")]),
                       Reply([text("done")]), Reply([text("spare")]))
    run = project.run("-p", "go", "--allowedTools", "Bash", *STREAM)
    assert run.returncode == 0, run.stderr
    second, third = (json.dumps(r.body["messages"]) for r in project.api.requests[1:3])
    assert "the async hook is done" not in second
    assert "async says\\nthe async hook is done" in third


def test_a_stop_prompt_hook_judges_the_conversation_and_can_keep_the_turn_going(
        project: Project) -> None:
    _settings(project, {"Stop": [{"hooks": [{"type": "prompt", "prompt": "All tests pass?"}]}]})
    judge = project.api.route(
        lambda b: "Condition: All tests pass?" in last_user_text(b),
        Reply([text('{"ok": false, "reason": "run the tests first"}')]),
        Reply([text('{"ok": true, "reason": "they pass"}')]), name="judge")
    project.api.script(Reply([text("I am done")]), Reply([text("ran them, all green")]))
    run = project.run("-p", "go", *STREAM)
    assert run.returncode == 0, run.stderr
    assert run.records()[-1]["result"] == "ran them, all green"
    first, second = judge.requests
    # The judge reads the conversation, then the condition with the input JSON.
    roles = [m["role"] for m in first.body["messages"]]
    assert roles == ["user", "assistant", "user"]
    assert "I am done" in json.dumps(first.body["messages"][1])
    asked = last_user_text(first.body)
    assert "Condition: All tests pass?\n\nARGUMENTS: {" in asked
    assert '"hook_event_name":"Stop"' in asked
    # Its reason went to the model, which went on.
    sent = json.dumps(project.api.requests[-2].body["messages"])
    assert "[All tests pass?]: run the tests first" in sent
    assert '"stop_hook_active":true' in last_user_text(second.body)
    assert project.api.violations == []


def test_a_running_hook_reports_its_output_so_far(project: Project) -> None:
    # The hook prints, waits past one progress tick, prints again.
    _settings(project, {"PreToolUse": [{"hooks": [{"type": "command", "command":
        "echo line1; echo err1 >&2; sleep 1.6; echo line2"}]}]})
    project.api.script(Reply([tool_use("Bash", {"command": "echo hi"}, id="t1")]),
                       Reply([text("done")]))
    run = project.run("-p", "go", "--allowedTools", "Bash", "--include-hook-events", *STREAM)
    assert run.returncode == 0, run.stderr
    notes = [r for r in run.records() if r.get("hook_event") == "PreToolUse"]
    kinds = [r["subtype"] for r in notes]
    assert kinds[0] == "hook_started" and kinds[-1] == "hook_response"
    progress = [r for r in notes if r["subtype"] == "hook_progress"]
    assert progress and progress[0]["stdout"].startswith("line1\n")
    assert progress[0]["stderr"] == "err1\n" and progress[0]["output"].startswith("line1\n")
    assert {r["hook_id"] for r in notes} == {notes[0]["hook_id"]}
    assert notes[-1]["stdout"] == "line1\nline2\n"


def test_a_prompt_hook_whose_model_hangs_times_out_and_blocks_nothing(project: Project) -> None:
    _settings(project, {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "prompt", "prompt": "Judge this call: $ARGUMENTS", "timeout": 1}]}]})
    project.api.route(_judged, Hang(60), name="side")
    project.api.script(Reply([tool_use("Bash", {"command": "echo ran"}, id="t1")]),
                       Reply([text("done")]))
    run = project.run("-p", "go", "--allowedTools", "Bash", *STREAM)
    assert run.returncode == 0, run.stderr
    (result,) = _tool_results(run.records())
    assert not result.get("is_error") and "ran" in json.dumps(result["content"])
    assert run.records()[-1]["result"] == "done"
