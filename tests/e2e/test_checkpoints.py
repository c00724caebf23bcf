"""Checkpoints end to end: `python -m cc` backs files up before its tools change them,
records the snapshots in the transcript, and a later process (a restart) rewinds them
through the SDK's `rewind_files` request.

The last two tests cross over with Claude Code itself (opt-in: CC_CLAUDE_BIN names its
`claude` executable): each rewinds the checkpoints the other kept.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Project
from tests.fakeapi import Reply, text, tool_use

ENABLE = {"CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING": "true"}
CLAUDE = os.environ.get("CC_CLAUDE_BIN")
CLAUDE_ENV = {"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_TELEMETRY": "1",
              "DISABLE_AUTOUPDATER": "1"}
needs_claude = pytest.mark.skipif(not CLAUDE, reason="opt-in: set CC_CLAUDE_BIN to Claude "
                                  "Code's claude executable to run this")
DEADLINE_S = 60.0


class Wire:
    """cc speaking stream-json, read line by line on a thread."""

    def __init__(self, project: Project, *flags: str, program: str | None = None) -> None:
        argv = [program] if program else [sys.executable, "-m", "cc"]
        self.proc = subprocess.Popen(
            [*argv, "-p", "--output-format", "stream-json", "--verbose",
             "--input-format", "stream-json", *flags], cwd=project.root,
            env={**project.base_env(), **CLAUDE_ENV}, text=True, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: queue.Queue[dict[str, Any]] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith("{"):
                self.lines.put(json.loads(line))

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def control(self, request_id: str, **request: Any) -> dict[str, Any]:
        self.send({"type": "control_request", "request_id": request_id, "request": request})
        while True:
            record = self.lines.get(timeout=DEADLINE_S)
            if record["type"] == "control_response" and \
                    record["response"]["request_id"] == request_id:
                return record["response"]

    def close(self) -> tuple[int, str]:
        """Stdin closed: cc ends; its exit status and what it said on stderr."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        assert self.proc.stderr is not None
        self.proc.stdin.close()
        code = self.proc.wait(timeout=DEADLINE_S)
        self._reader.join(timeout=DEADLINE_S)
        with self.proc.stdout, self.proc.stderr:
            return code, self.proc.stderr.read()


def transcript(project: Project, session_id: str) -> list[dict[str, Any]]:
    [path] = (project.config / "projects").glob(f"*/{session_id}.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines()]


def first_turn(project: Project, program: str | None = None) -> tuple[str, Path, Path]:
    """A prompt that creates one file and edits another, by cc (or `program`); (session
    id, new, edited)."""
    new, edited = project.root / "new.txt", project.root / "edited.txt"
    edited.write_text("bee one\n")
    project.api.script(
        Reply([tool_use("Read", {"file_path": str(edited)})]),
        Reply([tool_use("Write", {"file_path": str(new), "content": "alpha\n"}),
               tool_use("Edit", {"file_path": str(edited), "old_string": "one",
                                 "new_string": "two"})]),
        Reply([text("done")]),
    )
    args = ("-p", "make the changes", "--output-format", "json",
            "--allowedTools", "Read,Write,Edit")
    if program is None:
        run = project.run(*args)
        returncode, stdout, stderr = run.returncode, run.stdout, run.stderr
    else:
        done = subprocess.run([program, *args], cwd=project.root,
                              env={**project.base_env(), **CLAUDE_ENV}, capture_output=True,
                              text=True, stdin=subprocess.DEVNULL, timeout=DEADLINE_S * 2)
        returncode, stdout, stderr = done.returncode, done.stdout, done.stderr
    assert returncode == 0, stderr
    assert new.read_text() == "alpha\n" and edited.read_text() == "bee two\n"
    return json.loads(stdout)["session_id"], new, edited


def rewind_in(project: Project, session_id: str, new: Path, edited: Path,
              program: str | None = None) -> None:
    """`program` (cc by default) resumes the session and rewinds its first prompt."""
    lines = transcript(project, session_id)
    prompt = next(line["uuid"] for line in lines if line["type"] == "user")
    wire = Wire(project, "--resume", session_id, program=program)
    dry = wire.control("d1", subtype="rewind_files", user_message_id=prompt, dry_run=True)
    assert dry["response"] == {"canRewind": True, "filesChanged": [str(new), str(edited)],
                               "insertions": 1, "deletions": 2}
    done = wire.control("r1", subtype="rewind_files", user_message_id=prompt)
    assert done["response"] == {"canRewind": True, "skippedLinks": 0}
    assert not new.exists() and edited.read_text() == "bee one\n"
    unknown = wire.control("r2", subtype="rewind_files", user_message_id="nope")
    assert unknown["subtype"] == "error"
    assert unknown["error"] == "No file checkpoint found for this message."
    assert wire.close()[0] == 0


def test_changes_are_snapshotted_and_rewound_after_a_restart(project: Project) -> None:
    project.env.update(ENABLE)
    session_id, new, edited = first_turn(project)
    lines = transcript(project, session_id)
    prompt = next(line for line in lines if line["type"] == "user")
    snapshots = [line for line in lines if line["type"] == "file-history-snapshot"]
    deltas = [line for line in lines if line["type"] == "file-history-delta"]
    assert [s["messageId"] for s in snapshots] == [prompt["uuid"]]
    assert {d["trackingPath"]: d["backup"]["backupFileName"] is None for d in deltas} == \
        {"new.txt": True, "edited.txt": False}
    folder = project.config / "file-history" / session_id
    [backup] = folder.iterdir()
    assert backup.name.endswith("@v1") and backup.read_text() == "bee one\n"
    rewind_in(project, session_id, new, edited)  # a new process: the history is reloaded
    project.api.assert_clean()


def test_print_mode_keeps_no_checkpoints_unless_asked(project: Project) -> None:
    session_id, _new, _edited = first_turn(project)
    assert not (project.config / "file-history").exists()
    kinds = {line["type"] for line in transcript(project, session_id)}
    assert not kinds & {"file-history-snapshot", "file-history-delta"}
    wire = Wire(project, "--resume", session_id)
    refused = wire.control("r1", subtype="rewind_files", user_message_id="x")
    assert refused["subtype"] == "error" and "not enabled" in refused["error"]
    assert wire.close()[0] == 0


def test_a_sub_agent_s_write_is_tracked_with_its_session(project: Project) -> None:
    project.env.update(ENABLE)
    made = project.root / "by_agent.txt"
    project.api.script(
        Reply([tool_use("Agent", {"description": "Make a file",
                                  "prompt": "TASK-W: write by_agent.txt"})]),
        Reply([text("The agent made it.")]),
    )
    project.api.route("TASK-W", Reply([tool_use("Write", {"file_path": str(made),
                                                         "content": "hi\n"})]),
                      Reply("Written."))
    run = project.run("-p", "delegate", "--output-format", "json",
                      "--allowedTools", "Write,Agent")
    assert run.returncode == 0, run.stderr
    assert made.read_text() == "hi\n"
    lines = transcript(project, run.json()["session_id"])
    prompt = next(line for line in lines if line["type"] == "user")
    [delta] = [line for line in lines if line["type"] == "file-history-delta"]
    assert delta["snapshotMessageId"] == prompt["uuid"]
    assert delta["trackingPath"] == "by_agent.txt" and delta["backup"]["backupFileName"] is None
    project.api.assert_clean()


@needs_claude
def test_claude_code_rewinds_the_checkpoints_cc_kept(project: Project) -> None:
    project.env.update(ENABLE)
    session_id, new, edited = first_turn(project)
    rewind_in(project, session_id, new, edited, program=CLAUDE)


@needs_claude
def test_cc_rewinds_the_checkpoints_claude_code_kept(project: Project) -> None:
    project.env.update(ENABLE)
    assert CLAUDE is not None
    session_id, new, edited = first_turn(project, program=CLAUDE)
    rewind_in(project, session_id, new, edited)
