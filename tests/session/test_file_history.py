"""The checkpoint store: backups beside the transcript, rewinds, reloading, damage."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from cc.models.messages import UserMessage
from cc.session.file_history.store import NO_CHECKPOINT, FileHistory, history_folder
from cc.session.transcript import TranscriptWriter


def writer_at(tmp_path: Path, cwd: Path) -> TranscriptWriter:
    return TranscriptWriter(tmp_path / "t.jsonl", session_id="s1", cwd=cwd, version="0",
                            fsync=False)


def objects(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def start(tmp_path: Path) -> tuple[Path, Path, TranscriptWriter, FileHistory]:
    cwd = tmp_path / "proj"
    cwd.mkdir()
    folder = history_folder(tmp_path / "config", "s1")
    writer = writer_at(tmp_path, cwd)
    return cwd, folder, writer, FileHistory(folder, cwd, writer.record_meta)


async def test_a_rewind_deletes_a_new_file_and_restores_an_edited_one(tmp_path: Path) -> None:
    cwd, folder, writer, history = start(tmp_path)
    old, new = cwd / "old.txt", cwd / "sub" / "new.txt"
    old.write_text("one\n")
    await history.before_prompt("p1")
    await history.before_write([new, old])
    new.parent.mkdir()
    new.write_text("fresh\n")
    old.write_text("two\n")
    await history.before_write([old])  # a second change in the turn: no second backup

    plan = await history.plan("p1")
    assert not isinstance(plan, str)
    assert sorted(plan.files) == sorted([str(new), str(old)])
    assert (plan.insertions, plan.deletions) == (1, 2)
    done = await history.rewind("p1")
    assert not isinstance(done, str)
    assert not new.exists()
    assert old.read_text() == "one\n"
    name = hashlib.sha256(str(old).encode()).hexdigest()[:16] + "@v1"
    assert (folder / name).read_text() == "one\n"
    lines = objects(writer.path)
    assert [line["type"] for line in lines] == ["file-history-snapshot", "file-history-delta",
                                               "file-history-delta"]
    assert lines[0]["messageId"] == lines[0]["snapshot"]["messageId"] == "p1"
    assert lines[1]["trackingPath"] == "sub/new.txt"
    assert lines[1]["backup"]["backupFileName"] is None
    assert lines[2]["backup"] == {"backupFileName": name, "version": 1,
                                  "backupTime": lines[2]["backup"]["backupTime"],
                                  "realParentDir": str(cwd.resolve())}


async def test_each_prompt_snapshots_the_tracked_files(tmp_path: Path) -> None:
    cwd, folder, writer, history = start(tmp_path)
    a, b = cwd / "a.txt", cwd / "b.txt"
    a.write_text("a1\n")
    b.write_text("b1\n")
    await history.before_prompt("p1")
    await history.before_write([a, b])
    a.write_text("a2\n")
    await history.before_prompt("p2")
    await history.before_write([a])  # held by p2's snapshot already
    a.write_text("a3\n")
    b.write_text("b3\n")  # changed by something untracked (a shell command)

    snap = objects(writer.path)[-1]
    assert snap["type"] == "file-history-snapshot"
    backups = snap["snapshot"]["trackedFileBackups"]
    assert backups["a.txt"]["version"] == 2  # changed since v1: a new backup
    assert backups["b.txt"]["version"] == 1  # as v1 has it: kept
    assert await history.turn_changes("p1") == [("a.txt", 1, 1)]
    assert await history.turn_changes("p2") == [("a.txt", 1, 1), ("b.txt", 1, 1)]  # to now
    assert await history.turn_changes("nope") == []
    assert not isinstance(await history.rewind("p2"), str)
    assert (a.read_text(), b.read_text()) == ("a2\n", "b1\n")
    assert not isinstance(await history.rewind("p1"), str)
    assert (a.read_text(), b.read_text()) == ("a1\n", "b1\n")
    assert sorted(p.name for p in folder.iterdir())[0].endswith("@v1")


async def test_the_history_survives_a_restart(tmp_path: Path) -> None:
    cwd, folder, writer, history = start(tmp_path)
    made = cwd / "made.txt"
    await history.before_prompt("p1")
    await history.before_write([made])
    made.write_text("x\n")
    writer.close()

    again, warnings = FileHistory.load(folder, cwd, objects(writer.path))
    assert warnings == []
    assert again.has("p1") and again.tracked == ["made.txt"]
    assert not isinstance(await again.rewind("p1"), str)
    assert not made.exists()


async def test_a_damaged_line_is_skipped_and_said(tmp_path: Path) -> None:
    cwd, folder, _writer, _history = start(tmp_path)
    lines = [
        {"type": "file-history-snapshot", "messageId": "p1",
         "snapshot": {"messageId": "p1", "trackedFileBackups": {}, "timestamp": "t"}},
        {"type": "file-history-delta", "snapshotMessageId": "p1", "trackingPath": "a.txt",
         "backup": {"version": "not a number"}},
        {"type": "file-history-delta", "snapshotMessageId": "gone", "trackingPath": "b.txt",
         "backup": {"backupFileName": None, "version": 1}},
    ]
    history, warnings = FileHistory.load(folder, cwd, lines)
    assert len(warnings) == 2
    assert "file-history-delta line (entry 2) is damaged" in warnings[0]
    assert "not on file (gone)" in warnings[1]
    assert history.has("p1") and history.tracked == []


async def test_a_missing_backup_changes_nothing(tmp_path: Path) -> None:
    cwd, folder, _writer, history = start(tmp_path)
    a, b = cwd / "a.txt", cwd / "b.txt"
    a.write_text("a1\n")
    b.write_text("b1\n")
    await history.before_prompt("p1")
    await history.before_write([a, b])
    a.write_text("a2\n")
    b.write_text("b2\n")
    (folder / (hashlib.sha256(str(b).encode()).hexdigest()[:16] + "@v1")).unlink()

    outcome = await history.rewind("p1")
    assert isinstance(outcome, str) and "b.txt" in outcome and "nothing was changed" in outcome
    assert (a.read_text(), b.read_text()) == ("a2\n", "b2\n")
    assert await history.rewind("nope") == NO_CHECKPOINT


async def test_a_write_before_any_prompt_is_not_tracked(tmp_path: Path) -> None:
    cwd, folder, writer, history = start(tmp_path)
    await history.before_write([cwd / "a.txt"])
    assert history.tracked == [] and not writer.path.exists() and not folder.exists()


def test_the_conversation_is_cut_on_file(tmp_path: Path) -> None:
    writer = writer_at(tmp_path, tmp_path)
    first, second = UserMessage.text("one"), UserMessage.text("two")
    writer.sync([first, second])
    writer.branch_from([first])
    third = UserMessage.text("three")
    writer.sync([first, third])
    lines = objects(writer.path)
    assert lines[-1]["parentUuid"] == first.uuid
    writer.branch_from([])
    writer.sync([UserMessage.text("four")])
    assert objects(writer.path)[-1]["parentUuid"] is None


async def test_an_updated_snapshot_replaces_the_one_before(tmp_path: Path) -> None:
    """Older Claude Code wrote a file's first backup as the whole snapshot again."""
    cwd, folder, _writer, _history = start(tmp_path)
    backup = {"backupFileName": None, "version": 1, "backupTime": "t", "realParentDir": "/"}
    lines = [
        {"type": "file-history-snapshot", "messageId": "p1", "isSnapshotUpdate": False,
         "snapshot": {"messageId": "p1", "trackedFileBackups": {}, "timestamp": "t"}},
        {"type": "file-history-snapshot", "messageId": "p1", "isSnapshotUpdate": True,
         "snapshot": {"messageId": "p1", "trackedFileBackups": {"a.txt": backup},
                      "timestamp": "t"}},
    ]
    history, warnings = FileHistory.load(folder, cwd, lines)
    assert warnings == [] and len(history.snapshots) == 1 and history.tracked == ["a.txt"]
    (cwd / "a.txt").write_text("made later\n")
    assert not isinstance(await history.rewind("p1"), str)
    assert not (cwd / "a.txt").exists()


async def test_an_unreadable_file_is_a_message_not_a_crash(tmp_path: Path) -> None:
    cwd, _folder, _writer, history = start(tmp_path)
    a = cwd / "a.txt"
    a.write_text("a1\n")
    await history.before_prompt("p1")
    await history.before_write([a])
    a.unlink()
    a.mkdir()  # a folder where the file was: it cannot be compared, nor written back
    (a / "inside").write_text("kept\n")
    outcome = await history.rewind("p1")
    assert isinstance(outcome, str) and "a.txt" in outcome
    assert (a / "inside").read_text() == "kept\n"
