"""Sessions end to end: transcripts on disk, -c/-r resume, and kill -9 at bad moments."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

from tests.conftest import Project
from tests.fakeapi import Hang, Reply, text, tool_use
from tests.waiting import wait_for


def transcripts(project: Project) -> list[Path]:
    return sorted((project.config / "projects").glob("*/*.jsonl"))


def start(project: Project, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cc", *args], cwd=project.root, env=project.base_env(),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def kill(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)


def texts_of(message: dict) -> list[str]:
    content = message["content"]
    if isinstance(content, str):
        return [content]
    return [b.get("text", "") for b in content if b["type"] == "text"]


def test_transcript_lines_and_continue(project: Project) -> None:
    readme = project.root / "README.md"
    readme.write_text("hello\n")
    project.api.script(
        Reply([text("Reading."), tool_use("Read", {"file_path": str(readme)})]),
        Reply([text("It says hello.")]),
        Reply([text("You asked about the README.")]),
    )
    first = project.run("-p", "what does README.md say?", "--output-format", "json")
    assert first.returncode == 0, first.stderr
    session_id = first.json()["session_id"]
    [path] = transcripts(project)
    assert path.name == f"{session_id}.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    # (the first prompt is followed by the environment, for Claude Code's resume)
    assert [line["type"] for line in lines] == ["user", "attachment", "assistant",
                                               "assistant", "user", "assistant"]
    assert lines[1]["attachment"]["type"] == "environment"
    lines = [line for line in lines if line["type"] != "attachment"]
    lines[1]["parentUuid"] = lines[0]["uuid"]  # (it hangs off the attachment)
    assert lines[0]["parentUuid"] is None
    for before, after in zip(lines, lines[1:], strict=False):
        assert after["parentUuid"] == before["uuid"]
    assert lines[1]["message"]["id"] == lines[2]["message"]["id"]
    assert lines[3]["toolUseResult"]["type"] == "text"
    for line in lines:
        assert line["sessionId"] == session_id
        assert line["cwd"] == str(project.root)
        for key in ("uuid", "timestamp", "version", "isSidechain", "message"):
            assert key in line

    again = project.run("-c", "-p", "what did I ask?", "--output-format", "json")
    assert again.returncode == 0, again.stderr
    assert again.json()["session_id"] == session_id
    body = project.api.bodies[2]
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user", "assistant",
                                                     "user"]
    assert texts_of(body["messages"][-1]) == ["what did I ask?"]
    project.api.assert_clean()
    assert len(transcripts(project)) == 1


def test_resume_by_id_fork_and_unknown_id(project: Project) -> None:
    project.api.script(Reply("one"), Reply("two"), Reply("three"))
    first = project.run("-p", "first", "--output-format", "json")
    sid = first.json()["session_id"]
    [original_path] = transcripts(project)
    original = original_path.read_bytes()
    fork = project.run("-r", sid, "--fork-session", "-p", "second", "--output-format", "json")
    assert fork.returncode == 0, fork.stderr
    fork_id = fork.json()["session_id"]
    assert fork_id != sid
    assert original_path.read_bytes() == original  # the old session is untouched
    assert {p.stem for p in transcripts(project)} == {sid, fork_id}
    assert texts_of(project.api.bodies[1]["messages"][0]) == ["first"]
    missing = project.run("-r", "00000000-0000-0000-0000-000000000000", "-p", "x")
    assert missing.returncode == 1
    assert "No conversation found with session ID" in missing.stderr
    nothing = project.run("-p", "x", "--no-session-persistence")
    assert nothing.returncode == 0
    assert len(transcripts(project)) == 2


def test_kill_during_the_tool_then_continue(project: Project) -> None:
    log = project.root / "runs.log"
    project.api.script(
        Reply([tool_use("Bash", {"command": f"echo run >> {log}; sleep 30"})]),
    )
    proc = start(project, "-p", "go", "--permission-mode", "bypassPermissions")
    wait_for(lambda: log.exists() and "run" in log.read_text())
    kill(proc)
    project.api.script(Reply([text("resumed")]))
    again = project.run("-c", "-p", "continue", "--output-format", "json")
    assert again.returncode == 0, again.stderr
    assert again.json()["result"] == "resumed"
    messages = project.api.bodies[-1]["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    assert texts_of(messages[0]) == ["go"]
    assert messages[1]["content"][0]["type"] == "tool_use"
    results = [b for b in messages[2]["content"] if b["type"] == "tool_result"]
    assert len(results) == 1 and results[0]["is_error"] is True
    assert "continue" in texts_of(messages[2])
    assert log.read_text() == "run\n"  # the tool did not run twice
    project.api.assert_clean()


def test_kill_during_streaming_then_continue(project: Project) -> None:
    # the stream stalls after its first event (until the fake stops at the end)
    project.api.script(Reply([text("a slow answer " * 20)], chunk_delay=3600))
    proc = start(project, "-p", "first question")
    wait_for(lambda: project.api.sent_at("message_start"), what="the stream starting")
    kill(proc)
    project.api.script(Reply([text("ok")]))
    again = project.run("-c", "-p", "continue", "--output-format", "json")
    assert again.returncode == 0, again.stderr
    messages = project.api.bodies[-1]["messages"]
    assert [m["role"] for m in messages] == ["user"]
    assert texts_of(messages[0]) == ["first question", "continue"]
    project.api.assert_clean()


def test_kill_between_requests_keeps_the_tool_result(project: Project) -> None:
    log = project.root / "runs.log"
    project.api.script(
        Reply([tool_use("Bash", {"command": f"echo run >> {log}; echo done"})]),
        Hang(30),
    )
    proc = start(project, "-p", "go", "--permission-mode", "bypassPermissions")
    wait_for(lambda: len(project.api.requests) == 2)
    kill(proc)
    project.api.script(Reply([text("finished")]))
    again = project.run("-c", "-p", "continue", "--output-format", "json")
    assert again.returncode == 0, again.stderr
    messages = project.api.bodies[-1]["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    result = next(b for b in messages[2]["content"] if b["type"] == "tool_result")
    assert result["content"] == "done" and not result.get("is_error")
    assert log.read_text() == "run\n"
    project.api.assert_clean()


def test_a_file_cut_mid_line_and_a_garbage_line_both_resume(project: Project) -> None:
    project.api.script(Reply("one"), Reply("two"))
    assert project.run("-p", "first").returncode == 0
    assert project.run("-c", "-p", "second").returncode == 0
    [path] = transcripts(project)
    data = path.read_bytes()
    lines = data.splitlines(keepends=True)
    broken = lines[0] + b"{this is not json\n" + b"".join(lines[1:])
    broken = broken[:-25]  # the last line cut in the middle
    path.write_bytes(broken)
    project.api.script(Reply("three"))
    again = project.run("-c", "-p", "third")
    assert again.returncode == 0, again.stderr
    assert "Warning" in again.stderr
    assert path.read_bytes().startswith(broken)  # only ever appended to
    messages = project.api.bodies[-1]["messages"]
    assert texts_of(messages[0]) == ["first"]
    assert texts_of(messages[-1])[-1] == "third"
    project.api.assert_clean()
