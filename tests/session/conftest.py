from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from cc.session.transcript import TranscriptWriter

FIXTURES = Path(__file__).parent / "fixtures"
SESSION_ID = "11111111-2222-4333-8444-555555555555"

MakeWriter = Callable[..., TranscriptWriter]


def fixed_clock() -> Callable[[], datetime]:
    ticks = itertools.count()
    start = datetime(2026, 1, 2, 3, 4, 5, 678000, tzinfo=UTC)
    return lambda: start + timedelta(milliseconds=next(ticks))


@pytest.fixture
def transcript(tmp_path: Path) -> Path:
    return tmp_path / "config" / "projects" / "-work" / f"{SESSION_ID}.jsonl"


@pytest.fixture
def make_writer(tmp_path: Path) -> MakeWriter:
    def make(path: Path, **kw: Any) -> TranscriptWriter:
        kw.setdefault("session_id", path.stem)
        kw.setdefault("cwd", tmp_path)
        kw.setdefault("version", "0.1.0")
        kw.setdefault("fsync", False)
        kw.setdefault("clock", fixed_clock())
        return TranscriptWriter(path, **kw)

    return make


def read_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def write_lines(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path
