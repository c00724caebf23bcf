"""SIGINT/SIGTERM in print mode: what was shown is kept, the result is written, the process ends.

Each test waits on something the run itself shows (a streamed event on stdout, a
file a command made) before sending the signal, never on the clock.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import time
from typing import Any

from tests.conftest import Project
from tests.e2e.test_sessions import start, texts_of, transcripts
from tests.fakeapi import Reply, text, tool_use
from tests.processes import alive
from tests.waiting import wait_for

STREAM = ("-p", "go", "--output-format", "stream-json", "--verbose")


class Lines:
    """stdout of a running cc, read as JSON records while it runs."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self.records: list[dict[str, Any]] = []
        self._buffer = ""

    def until(self, wanted: Any, timeout: float = 30.0) -> None:
        """Read until a record satisfies `wanted` (or fail after a generous deadline)."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while not any(wanted(r) for r in self.records):
            left = deadline - time.monotonic()
            assert left > 0, f"no such record in time; saw {self.records}"
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 65536).decode()
                assert chunk, f"cc ended early; saw {self.records}"
                self._buffer += chunk
                *lines, self._buffer = self._buffer.split("\n")
                self.records += [json.loads(x) for x in lines if x.startswith("{")]

    def finish(self, timeout: float = 30.0) -> int:
        out, _ = self.proc.communicate(timeout=timeout)
        self._buffer += out
        self.records += [json.loads(x) for x in self._buffer.split("\n") if x.startswith("{")]
        return self.proc.returncode


def text_delta(record: dict[str, Any]) -> bool:
    event = record.get("event") or {}
    return record.get("type") == "stream_event" and event.get("delta", {}).get("type") == "text_delta"


def transcript_lines(project: Project) -> list[dict[str, Any]]:
    (path,) = transcripts(project)
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_sigint_while_an_answer_streams_keeps_the_text_and_writes_the_result(
    project: Project,
) -> None:
    answer = "The answer begins here, goes on, and on, and would go on for a long time."
    # Events: message_start, ping, block start, delta 1, delta 2, then a 60 s stall.
    project.api.script(Reply([text(answer)], pause_after_event={4: 60.0}))
    proc = start(project, *STREAM, "--include-partial-messages")
    out = Lines(proc)
    out.until(lambda r: sum(map(text_delta, out.records)) >= 2)
    shown = "".join(r["event"]["delta"]["text"] for r in out.records if text_delta(r))
    proc.send_signal(signal.SIGINT)
    assert out.finish() == 0  # as Claude Code: the result record says what happened
    result = out.records[-1]
    assert result["type"] == "result"
    assert (result["subtype"], result["is_error"]) == ("error_during_execution", True)
    assert result["terminal_reason"] == "aborted_streaming" and "result" not in result
    partial = [r for r in out.records if r["type"] == "assistant"]
    assert [r["message"]["content"] for r in partial] == [[{"type": "text", "text": shown}]]
    assert partial[0]["aborted"] is True

    lines = transcript_lines(project)
    kept = [x for x in lines if x.get("type") == "assistant"]
    assert [x["message"]["content"][0]["text"] for x in kept] == [shown]
    assert kept[0]["isAbortedMidStream"] is True
    assert texts_of(lines[-1]["message"]) == ["[Request interrupted by user]"]

    # The conversation goes on from what was shown.
    project.api.script(Reply("picked up"))
    run = project.run("-c", "-p", "carry on")
    assert run.returncode == 0, run.stderr
    sent = json.dumps(project.api.bodies[-1]["messages"])
    assert shown in sent and "[Request interrupted by user]" in sent
    project.api.assert_clean()


def test_sigint_while_a_tool_runs_stops_it_and_ends_promptly(project: Project) -> None:
    started, pid_file = project.root / "started", project.root / "pid"
    command = f"echo $$ > {pid_file}; touch {started}; sleep 60"
    project.api.script(Reply([tool_use("Bash", {"command": command})]))
    proc = start(project, *STREAM, "--permission-mode", "bypassPermissions")
    wait_for(started.exists)
    proc.send_signal(signal.SIGINT)
    out = Lines(proc)
    assert out.finish() == 0
    result = out.records[-1]
    assert result["terminal_reason"] == "aborted_tools" and result["is_error"] is True
    wait_for(lambda: not alive(int(pid_file.read_text())))


def test_sigint_while_a_hook_hangs_still_ends_with_a_result(project: Project) -> None:
    marker = project.root / "hook-started"
    hook = f"trap '' INT TERM; touch {marker}; sleep 60"
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": hook}]}]}
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    project.api.script(Reply([tool_use("Bash", {"command": "echo never"})]))
    proc = start(project, *STREAM, "--permission-mode", "bypassPermissions")
    wait_for(marker.exists)
    proc.send_signal(signal.SIGINT)
    out = Lines(proc)
    assert out.finish(timeout=60) == 0  # bounded: the shutdown does not wait on the hook
    assert out.records[-1]["type"] == "result"
    assert out.records[-1]["subtype"] == "error_during_execution"


def test_sigterm_exits_143_with_the_result_written(project: Project) -> None:
    started = project.root / "started"
    project.api.script(Reply([tool_use("Bash", {"command": f"touch {started}; sleep 60"})]))
    proc = start(project, "-p", "go", "--output-format", "json",
                 "--permission-mode", "bypassPermissions")
    wait_for(started.exists)
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 143
    assert json.loads(out)["terminal_reason"] == "aborted_tools"


def test_text_mode_prints_execution_error_after_an_interrupt(project: Project) -> None:
    started = project.root / "started"
    project.api.script(Reply([tool_use("Bash", {"command": f"touch {started}; sleep 60"})]))
    proc = start(project, "-p", "go", "--permission-mode", "bypassPermissions")
    wait_for(started.exists)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    assert out.strip() == "Execution error"


