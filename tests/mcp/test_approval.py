"""The answer about a project's new MCP servers, kept as Claude Code keeps it."""

from __future__ import annotations

import json
from pathlib import Path

from cc.config.settings import load_settings
from cc.mcp.approval import ServerAnswer, record
from cc.mcp.config import approval


def local(tmp_path: Path) -> Path:
    return tmp_path / ".claude" / "settings.local.json"


def test_an_answer_is_written_as_claude_code_writes_it(tmp_path: Path) -> None:
    path = local(tmp_path)
    assert record(path, ServerAnswer(approved=("demo", "broken"), refused=("other",))) is None
    assert json.loads(path.read_text()) == {"enabledMcpjsonServers": ["demo", "broken"],
                                            "disabledMcpjsonServers": ["other"]}
    settings = load_settings(tmp_path, tmp_path / "config")
    assert [approval(n, settings.get) for n in ("demo", "broken", "other", "new")] == [
        True, True, False, None]


def test_using_every_later_server_too(tmp_path: Path) -> None:
    path = local(tmp_path)
    assert record(path, ServerAnswer(approved=("demo",), all_later=True)) is None
    assert json.loads(path.read_text()) == {"enabledMcpjsonServers": ["demo"],
                                            "enableAllProjectMcpServers": True}
    settings = load_settings(tmp_path, tmp_path / "config")
    assert approval("added-later", settings.get) is True


def test_other_keys_stay_and_a_name_changes_lists(tmp_path: Path) -> None:
    path = local(tmp_path)
    path.parent.mkdir()
    path.write_text(json.dumps({"permissions": {"allow": ["Bash(ls)"]},
                                "disabledMcpjsonServers": ["demo", "old"]}))
    assert record(path, ServerAnswer(approved=("demo",))) is None
    assert json.loads(path.read_text()) == {
        "permissions": {"allow": ["Bash(ls)"]}, "disabledMcpjsonServers": ["old"],
        "enabledMcpjsonServers": ["demo"]}


def test_a_file_that_does_not_parse_is_left_alone(tmp_path: Path) -> None:
    path = local(tmp_path)
    path.parent.mkdir()
    path.write_text("{not json")
    warning = record(path, ServerAnswer.refuse_all(["demo"]))
    assert warning is not None and "invalid JSON" in warning and "this session only" in warning
    assert path.read_text() == "{not json"
