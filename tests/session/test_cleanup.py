"""Start-up retention of transcripts (`cleanupPeriodDays`)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from cc.session.cleanup import cleanup_transcripts

DAY = 86400
OLD_ID = "11111111-0000-4000-8000-000000000000"
RECENT_ID = "22222222-0000-4000-8000-000000000000"
CURRENT_ID = "33333333-0000-4000-8000-000000000000"


def aged(path: Path, days: float, text: str = "{}\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        path.write_text(text)
    stamp = time.time() - days * DAY
    os.utime(path, (stamp, stamp))
    return path


def layout(config: Path) -> dict[str, Path]:
    project = config / "projects" / "-home-u-proj"
    paths = {
        "old": aged(project / f"{OLD_ID}.jsonl", 40),
        "old_dir_file": aged(project / OLD_ID / "subagents" / "agent-a1.jsonl", 40),
        "recent": aged(project / f"{RECENT_ID}.jsonl", 10),
        "current": aged(project / f"{CURRENT_ID}.jsonl", 90),
        "memory": aged(project / "memory" / "MEMORY.md", 400),
        "memory_jsonl": aged(project / "memory" / "notes.jsonl", 400),
        "history": aged(config / "history.jsonl", 400),
        "other_project_old": aged(config / "projects" / "-srv-x" / f"{RECENT_ID}.jsonl", 31),
        "old_checkpoint": aged(config / "file-history" / OLD_ID / "0123456789abcdef@v1", 40),
        "current_checkpoint": aged(config / "file-history" / CURRENT_ID / "0123@v1", 90),
    }
    return paths


def test_old_transcripts_go_current_and_recent_stay(tmp_path: Path) -> None:
    config = tmp_path / "cfg"
    paths = layout(config)
    deleted, warnings = cleanup_transcripts(config, 30, keep=paths["current"])
    assert (deleted, warnings) == (2, [])
    gone = {"old", "old_dir_file", "other_project_old", "old_checkpoint"}
    for name, path in paths.items():
        assert path.exists() == (name not in gone), name
    assert not (paths["old"].parent / OLD_ID).exists()
    assert not (config / "file-history" / OLD_ID).exists()  # the session's checkpoints


def test_default_period_is_30_days(tmp_path: Path) -> None:
    config = tmp_path / "cfg"
    paths = layout(config)
    assert cleanup_transcripts(config, None, keep=None) == (3, [])
    assert paths["recent"].exists() and not paths["current"].exists()
    assert paths["memory"].exists() and paths["history"].exists()


def test_zero_is_a_validation_error_and_ignored(tmp_path: Path) -> None:
    config = tmp_path / "cfg"
    paths = layout(config)
    deleted, warnings = cleanup_transcripts(config, 0, keep=paths["current"])
    assert deleted == 2  # the default 30 days applied, not "delete everything"
    assert paths["recent"].exists()
    assert len(warnings) == 1 and "cleanupPeriodDays" in warnings[0]
    for bad in (-3, "7", 2.5, True):
        _, warnings = cleanup_transcripts(config, bad, keep=None)  # type: ignore[arg-type]
        assert len(warnings) == 1


def test_shorter_period(tmp_path: Path) -> None:
    config = tmp_path / "cfg"
    paths = layout(config)
    assert cleanup_transcripts(config, 5, keep=paths["current"])[0] == 3
    assert not paths["recent"].exists()
    assert paths["current"].exists() and paths["memory_jsonl"].exists()


def test_no_projects_folder(tmp_path: Path) -> None:
    assert cleanup_transcripts(tmp_path / "nothing", 30, keep=None) == (0, [])
