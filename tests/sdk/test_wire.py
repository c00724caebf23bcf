"""The stream-json wire spoken by hand (no SDK): what the SDKs rely on without testing
it, such as a bad line, an unknown request, `shouldQuery: false`, replayed messages and
stdin ending during a turn."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from tests.conftest import REPO_ROOT
from tests.fakeapi import FakeAPI, Reply, text


def start(tmp_path: Path, api: FakeAPI, *flags: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE"))}
    env.update(ANTHROPIC_BASE_URL=api.base_url, ANTHROPIC_API_KEY="test-key",
               CLAUDE_CONFIG_DIR=str(tmp_path / "config"), HOME=str(tmp_path),
               PYTHONPATH=str(REPO_ROOT), CC_DISABLE_MEMORY_EXTRACTION="1")
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    return subprocess.Popen(
        [sys.executable, "-m", "cc", "--output-format", "stream-json", "--verbose",
         "--input-format", "stream-json", *flags], cwd=project, env=env, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def send(proc: subprocess.Popen[str], message: dict[str, Any] | str) -> None:
    assert proc.stdin is not None
    proc.stdin.write((message if isinstance(message, str) else json.dumps(message)) + "\n")
    proc.stdin.flush()


def user(content: Any, **more: Any) -> dict[str, Any]:
    return {"type": "user", "message": {"role": "user", "content": content},
            "parent_tool_use_id": None, "session_id": "", **more}


def records(proc: subprocess.Popen[str]) -> list[dict[str, Any]]:
    """Every record, once cc has ended (its stdin closed by the test)."""
    assert proc.stdout is not None and proc.stderr is not None
    with proc.stdout, proc.stderr:
        out = proc.stdout.read()
        proc.stderr.read()
    proc.wait(timeout=120)
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def test_bad_lines_and_unknown_requests_leave_the_session_reading(tmp_path: Path,
                                                                  fake_api: FakeAPI) -> None:
    fake_api.script(Reply([text("still here")]))
    proc = start(tmp_path, fake_api, "--replay-user-messages")
    send(proc, "this is not json")
    send(proc, {"type": "mystery"})
    send(proc, {"type": "control_request", "request_id": "r1",
                "request": {"subtype": "teleport"}})
    send(proc, user("remember: the code word is plum", shouldQuery=False))
    send(proc, user([{"type": "text", "text": "what now?"}], uuid="u-1"))
    assert proc.stdin is not None
    proc.stdin.close()
    lines = records(proc)
    assert proc.returncode == 0
    [error] = [r for r in lines if r["type"] == "control_response"]
    assert error["response"] == {"subtype": "error", "request_id": "r1",
                                 "error": "Unsupported control request subtype: teleport",
                                 "error_code": "unsupported_request"}
    problems = [r["content"] for r in lines if r.get("subtype") == "informational"]
    assert len(problems) == 2 and "not JSON" in problems[0] and "mystery" in problems[1]
    replays = [r for r in lines if r["type"] == "user" and r.get("isReplay")]
    assert [r["uuid"] for r in replays][-1] == "u-1"
    [result] = [r for r in lines if r["type"] == "result"]  # shouldQuery false: no turn
    assert result["result"] == "still here"
    [body] = fake_api.bodies
    assert "plum" in json.dumps(body["messages"])  # it joined the conversation
    fake_api.assert_clean()


def test_stdin_ending_during_a_turn_finishes_it(tmp_path: Path, fake_api: FakeAPI) -> None:
    release = threading.Event()
    fake_api.script(Reply([text("slow "), text("answer")], hold_after_block={0: release.is_set}))
    proc = start(tmp_path, fake_api)
    send(proc, user("take your time"))
    assert proc.stdin is not None
    proc.stdin.close()  # EOF while the answer is still streaming
    release.set()
    lines = records(proc)
    assert proc.returncode == 0
    [result] = [r for r in lines if r["type"] == "result"]
    assert result["subtype"] == "success" and result["result"] == "slow answer"
    fake_api.assert_clean()
