"""Mailboxes and team files on real disk: shapes, exactly-once delivery, and many
writers at once (threads and processes) losing nothing and corrupting nothing."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from cc.team.config import LEAD, Member, TeamFiles
from cc.team.mailbox import Mailbox, inbox_path
from tests.conftest import REPO_ROOT


def test_a_letter_has_the_documented_shape(tmp_path: Path) -> None:
    box = Mailbox(inbox_path(tmp_path / "team", "team-lead"))
    box.send("researcher", "found it in src/a.py", summary="found it")
    [raw] = json.loads(box.path.read_text())
    assert set(raw) == {"from", "text", "summary", "timestamp", "read"}
    assert raw["from"] == "researcher" and raw["read"] is False
    assert raw["timestamp"].endswith("Z")


def test_receive_takes_the_unread_once(tmp_path: Path) -> None:
    box = Mailbox(inbox_path(tmp_path, "lead"))
    box.send("a", "one")
    box.send("b", "two")
    assert [x.text for x in box.receive()] == ["one", "two"]
    assert box.receive() == []
    box.send("a", "three")
    assert [x.text for x in box.receive()] == ["three"]
    assert [x.read for x in box.all()] == [True, True, True]  # kept, marked read


def test_a_corrupt_inbox_is_kept_aside_not_lost(tmp_path: Path) -> None:
    path = inbox_path(tmp_path, "lead")
    path.parent.mkdir(parents=True)
    path.write_text("[{\"from\": \"a\", \"text\": \"half")
    Mailbox(path).send("b", "new")
    assert path.with_name(path.name + ".corrupt").read_text().startswith("[{")
    assert [x.text for x in Mailbox(path).all()] == ["new"]


WRITER = """
import sys
sys.path.insert(0, {root!r})
from cc.team.mailbox import Mailbox
box = Mailbox(__import__("pathlib").Path({path!r}))
for i in range({count}):
    box.send({name!r}, f"{name} message {{i}}")
"""


def test_fifty_sends_from_five_writers_lose_nothing(tmp_path: Path) -> None:
    path = inbox_path(tmp_path / "team", "team-lead")
    per_writer = 10
    procs = [subprocess.Popen([sys.executable, "-c", WRITER.format(
        root=str(REPO_ROOT), path=str(path), count=per_writer, name=f"proc{i}")])
        for i in range(2)]
    box = Mailbox(path)

    def write(name: str) -> None:
        for i in range(per_writer):
            box.send(name, f"{name} message {i}")

    threads = [threading.Thread(target=write, args=(f"thread{i}",)) for i in range(3)]
    received = []
    for thread in threads:
        thread.start()
    received += box.receive()  # a reader in the middle of it all
    for thread in threads:
        thread.join()
    for proc in procs:
        assert proc.wait(timeout=60) == 0
    received += box.receive()
    texts = sorted(x.text for x in received)
    expected = sorted(f"{w} message {i}" for w in ("proc0", "proc1", "thread0", "thread1",
                                                    "thread2") for i in range(per_writer))
    assert texts == expected  # all 50, each once
    stored = json.loads(path.read_text())  # the file is whole JSON
    assert len(stored) == 50 and all(m["read"] for m in stored)
    for writer in ("proc0", "thread1"):  # each writer's letters in the order sent
        mine = [m["text"] for m in stored if m["from"] == writer]
        assert mine == [f"{writer} message {i}" for i in range(per_writer)]


def test_a_team_config_records_members(tmp_path: Path) -> None:
    files = TeamFiles(tmp_path, "refactor")
    config = files.create("split the parser", "claude-opus-5-5")
    assert [m.name for m in config.members] == [LEAD]
    with pytest.raises(ValueError, match="exists already"):
        files.create("again", "m")
    files.upsert(Member("researcher", "general-purpose", "claude-opus-5-5", agent_id="a1"))
    raw = json.loads(files.config_path.read_text())
    assert raw["name"] == "refactor" and raw["description"] == "split the parser"
    assert raw["members"][1] == {"name": "researcher", "agentType": "general-purpose",
                                 "model": "claude-opus-5-5", "status": "active",
                                 "agentId": "a1"}
    loaded = files.load()
    assert loaded is not None and [m.name for m in loaded.active] == ["researcher"]
    files.set_status("researcher", "idle")
    loaded = files.load()
    assert loaded is not None and loaded.active == []
    with pytest.raises(ValueError):
        TeamFiles(tmp_path, "../escape")


def _write_lead_pid(files: TeamFiles, pid: int) -> None:
    raw = json.loads(files.config_path.read_text())
    raw["leadPid"] = pid
    files.config_path.write_text(json.dumps(raw))


def test_a_team_left_by_an_ended_session_starts_afresh(tmp_path: Path) -> None:
    files = TeamFiles(tmp_path, "docs")
    files.create("first", "m", "session-1")
    Mailbox(inbox_path(files.dir, "alpha")).send(LEAD, "old letter")
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)
    _write_lead_pid(files, int(ended.stdout))  # its leader's process is gone
    config = files.create("second", "m", "session-2")
    assert config.description == "second" and [m.name for m in config.members] == [LEAD]
    raw = json.loads(files.config_path.read_text())
    assert raw["leadSessionId"] == "session-2" and isinstance(raw["leadPid"], int)
    assert not inbox_path(files.dir, "alpha").exists()  # the old letters went with it


def test_a_team_led_by_a_live_process_is_not_taken_over(tmp_path: Path) -> None:
    files = TeamFiles(tmp_path, "docs")
    files.create("first", "m", "session-1")
    leader = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                              stdin=subprocess.PIPE)
    try:
        _write_lead_pid(files, leader.pid)
        with pytest.raises(ValueError, match="exists already"):
            files.create("second", "m", "session-2")
    finally:
        leader.communicate(b"")
    loaded = files.load()
    assert loaded is not None and loaded.description == "first"
