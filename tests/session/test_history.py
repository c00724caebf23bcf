"""The prompt history file: append, load per project, bad lines skipped."""

from __future__ import annotations

import json
import time
from pathlib import Path

from cc.session.history import append_history, history_path, load_history


def test_append_writes_claude_code_line_shape(tmp_path: Path) -> None:
    before = int(time.time() * 1000)
    append_history(tmp_path / "cfg", "fix the login bug", "/abs/project", "sid-1")
    lines = history_path(tmp_path / "cfg").read_text().splitlines()
    assert len(lines) == 1
    entry = json.loads(lines[0])
    assert entry["display"] == "fix the login bug"
    assert entry["pastedContents"] == {}
    assert entry["project"] == "/abs/project"
    assert entry["sessionId"] == "sid-1"
    assert before <= entry["timestamp"] <= int(time.time() * 1000)


def test_load_is_per_project_newest_last(tmp_path: Path) -> None:
    append_history(tmp_path, "one", "/p/a", "s")
    append_history(tmp_path, "other project", "/p/b", "s")
    append_history(tmp_path, "two\nlines", Path("/p/a"), None)
    assert load_history(tmp_path, "/p/a") == ["one", "two\nlines"]
    assert load_history(tmp_path, Path("/p/b")) == ["other project"]
    assert load_history(tmp_path, "/p/none") == []


def test_malformed_lines_are_skipped(tmp_path: Path) -> None:
    append_history(tmp_path, "good", "/p", "s")
    with history_path(tmp_path).open("a") as f:
        f.write("{not json /p\n")
        f.write('["/p"]\n')
        f.write(json.dumps({"display": 3, "project": "/p"}) + "\n")
        f.write(json.dumps({"display": "no session id", "project": "/p", "timestamp": 1}) + "\n")
        f.write('{"display": "cut off", "project": "/p"')  # a half-written last line
    append_history(tmp_path, "after", "/p", "s")
    assert load_history(tmp_path, "/p") == ["good", "no session id", "after"]


def test_missing_file_and_blank_prompts(tmp_path: Path) -> None:
    assert load_history(tmp_path / "absent", "/p") == []
    append_history(tmp_path, "   ", "/p", "s")
    assert not history_path(tmp_path).exists()


def test_limit_keeps_the_newest(tmp_path: Path) -> None:
    for i in range(5):
        append_history(tmp_path, f"p{i}", "/p", "s")
    assert load_history(tmp_path, "/p", limit=2) == ["p3", "p4"]


def test_paths_needing_json_escapes(tmp_path: Path) -> None:
    odd = '/p/with "quote" and ünïcode'
    append_history(tmp_path, "hi", odd, "s")
    assert load_history(tmp_path, odd) == ["hi"]
