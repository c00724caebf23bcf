"""The prompt history, `<config>/history.jsonl`: one line per prompt typed, any project.

    {"display": "fix the login bug", "pastedContents": {}, "timestamp": 1768716900646,
     "project": "/abs/project", "sessionId": "<uuid>"}

`timestamp` is epoch milliseconds. Claude Code reads it for up-arrow recall; so do we.
Each line is written with one `O_APPEND` write, so concurrent sessions never interleave
halves of lines. Lines that do not parse are skipped when reading.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

HISTORY_FILE = "history.jsonl"
#: How many of a project's prompts recall offers (the newest ones).
MAX_RECALLED = 1000


def history_path(config_dir: Path) -> Path:
    return config_dir / HISTORY_FILE


def append_history(
    config_dir: Path,
    display: str,
    project: Path | str,
    session_id: str | None,
    pasted_contents: dict[str, Any] | None = None,
) -> None:
    """Add one prompt to the history (best effort: an unwritable file is not an error)."""
    if not display.strip():
        return
    entry: dict[str, Any] = {
        "display": display,
        "pastedContents": pasted_contents or {},
        "timestamp": int(time.time() * 1000),
        "project": str(project),
    }
    if session_id:
        entry["sessionId"] = session_id
    line = (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8")
    try:
        config_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(history_path(config_dir), os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
    except OSError:
        return
    try:
        if _ends_mid_line(fd):  # a crashed writer left half a line: do not join it
            line = b"\n" + line
        os.write(fd, line)
    except OSError:
        pass
    finally:
        os.close(fd)


def _ends_mid_line(fd: int) -> bool:
    size = os.fstat(fd).st_size
    return size > 0 and os.pread(fd, 1, size - 1) != b"\n"


def load_history(config_dir: Path, project: Path | str, limit: int = MAX_RECALLED) -> list[str]:
    """This project's prompts, oldest first and newest last (at most `limit`)."""
    try:
        raw = history_path(config_dir).read_bytes()
    except OSError:
        return []
    wanted = str(project)
    # A cheap filter before parsing, when the path needs no escaping inside JSON.
    plain = json.dumps(wanted, ensure_ascii=False)[1:-1] == wanted
    out: list[str] = []
    for line in raw.decode("utf-8", errors="replace").splitlines():
        if plain and wanted not in line:
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if not isinstance(entry, dict) or entry.get("project") != wanted:
            continue
        display = entry.get("display")
        if isinstance(display, str) and display.strip():
            out.append(display)
    return out[-limit:] if limit else out
