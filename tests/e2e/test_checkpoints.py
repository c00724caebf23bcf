"""Checkpoints end to end: `python -m cc` backs files up before its tools change them,
records the snapshots in the transcript, and a later process (a restart) rewinds them
through the SDK's `rewind_files` request."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from tests.conftest import Project
from tests.fakeapi import Reply, text, tool_use

ENABLE = {"CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING": "true"}
DEADLINE_S = 60.0


class Wire:
    """cc speaking stream-json, read line by line on a thread."""

    def __init__(self, project: Project, *flags: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cc", "--output-format", "stream-json", "--verbose",
             "--input-format", "stream-json", *flags], cwd=project.root,
            env=project.base_env(), text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE)
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


def first_turn(project: Project) -> tuple[str, Path, Path]:
    """A prompt that creates one file and edits another; (session id, new, edited)."""
    new, edited = project.root / "new.txt", project.root / "edited.txt"
    edited.write_text("bee one\n")
    project.api.script(
        Reply([tool_use("Read", {"file_path": str(edited)})]),
        Reply([tool_use("Write", {"file_path": str(new), "content": "alpha\n"}),
               tool_use("Edit", {"file_path": str(edited), "old_string": "one",
                                 "new_string": "two"})]),
        Reply([text("done")]),
    )
    run = project.run("-p", "make the changes", "--output-format", "json",
                      "--allowedTools", "Read,Write,Edit")
    assert run.returncode == 0, run.stderr
    assert new.read_text() == "alpha\n" and edited.read_text() == "bee two\n"
    return run.json()["session_id"], new, edited


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

    wire = Wire(project, "--resume", session_id)  # a new process: the history is reloaded
    dry = wire.control("d1", subtype="rewind_files", user_message_id=prompt["uuid"],
                       dry_run=True)
    assert dry["subtype"] == "success"
    assert sorted(dry["response"]["filesChanged"]) == sorted([str(new), str(edited)])
    assert (dry["response"]["insertions"], dry["response"]["deletions"]) == (1, 2)
    assert new.exists()  # a dry run touches nothing
    done = wire.control("r1", subtype="rewind_files", user_message_id=prompt["uuid"])
    assert done["response"] == {"canRewind": True, "skippedLinks": 0}
    assert not new.exists() and edited.read_text() == "bee one\n"
    unknown = wire.control("r2", subtype="rewind_files", user_message_id="nope")
    assert unknown["subtype"] == "error"
    assert unknown["error"] == "No file checkpoint found for this message."
    assert wire.close()[0] == 0
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
