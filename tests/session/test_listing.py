"""Finding sessions: newest for -c, the picker's list, one by id."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from cc.models.content_blocks import TextBlock, ToolResultBlock, ToolUseBlock
from cc.models.messages import AssistantMessage, UserMessage
from cc.session.listing import find_latest_session, find_session_by_id, list_sessions
from cc.session.loader import load_session
from cc.session.paths import project_dir, session_path
from tests.session.conftest import FIXTURES, MakeWriter

IDS = [f"{i}{i}{i}{i}{i}{i}{i}{i}-0000-4000-8000-000000000000" for i in range(1, 5)]


def make_session(
    make_writer: MakeWriter, cwd: Path, config: Path, sid: str, prompt: str, age: float
) -> Path:
    path = session_path(cwd, config, sid)
    with make_writer(path, cwd=cwd) as writer:
        writer.record(UserMessage.text("<system-reminder>setup</system-reminder>", is_meta=True))
        writer.record(UserMessage.text(prompt))
        writer.record(
            AssistantMessage(
                [TextBlock("Let me look."), ToolUseBlock("toolu_1", "Read", {"file_path": "/x"})],
                message_id="msg_" + sid[:4],
                model="m",
            )
        )
        writer.record(UserMessage([ToolResultBlock("toolu_1", "x")]))
        writer.record(
            AssistantMessage([TextBlock("Done.")], message_id="msg_b" + sid[:4], model="m")
        )
    stamp = 1_700_000_000 - age
    os.utime(path, (stamp, stamp))
    return path


def test_find_latest_and_list(tmp_path: Path, make_writer: MakeWriter) -> None:
    cwd, config = tmp_path / "proj", tmp_path / "cfg"
    cwd.mkdir()
    old = make_session(make_writer, cwd, config, IDS[0], "first task", age=300)
    new = make_session(make_writer, cwd, config, IDS[1], "second\ntask", age=10)
    mid = make_session(make_writer, cwd, config, IDS[2], "x" * 300, age=100)
    folder = project_dir(cwd, config)
    (folder / "notes.jsonl").write_text('{"type":"user"}\n')  # not a session id
    (folder / f"{IDS[3]}.jsonl").write_text("")  # empty
    elsewhere = tmp_path / "other"
    elsewhere.mkdir()
    make_session(make_writer, elsewhere, config, "99999999-0000-4000-8000-000000000000", "x", 0)

    assert find_latest_session(cwd, config) == new
    infos = list_sessions(cwd, config)
    assert [i.path for i in infos] == [new, mid, old]
    assert infos[0].session_id == IDS[1]
    assert infos[0].first_prompt == "second task"  # one line; the meta line is not a prompt
    assert infos[1].first_prompt == "x" * 200 + "…"
    assert infos[0].message_count == 3  # the prompt and two assistant messages
    assert infos[0].summary is None
    assert infos[0].modified.timestamp() == 1_700_000_000 - 10
    assert [i.path for i in list_sessions(cwd, config, limit=2)] == [new, mid]


def test_list_reads_titles_and_skips_sidechains(tmp_path: Path, make_writer: MakeWriter) -> None:
    cwd, config = tmp_path / "proj", tmp_path / "cfg"
    cwd.mkdir()
    path = make_session(make_writer, cwd, config, IDS[0], "task", age=50)
    with path.open("a") as f:
        f.write(json.dumps({"type": "custom-title", "customTitle": 'old "name"'}) + "\n")
        f.write(json.dumps({"type": "custom-title", "customTitle": "Better name"}) + "\n")
    side = session_path(cwd, config, IDS[1])
    side.write_text(
        json.dumps(
            {
                "type": "user",
                "isSidechain": True,
                "uuid": "s",
                "message": {"role": "user", "content": "sub"},
            }
        )
        + "\n"
    )
    os.utime(side, (1_700_000_000, 1_700_000_000))
    infos = list_sessions(cwd, config)
    assert [i.session_id for i in infos] == [IDS[0]]
    assert infos[0].summary == "Better name"
    assert find_latest_session(cwd, config) == path


def test_summary_line_titles_the_session(tmp_path: Path, make_writer: MakeWriter) -> None:
    cwd, config = tmp_path / "proj", tmp_path / "cfg"
    cwd.mkdir()
    path = session_path(cwd, config, IDS[0])
    with make_writer(path, cwd=cwd) as writer:
        writer.record(UserMessage.text("fix the login bug"))
        writer.record_summary("Login bug fix")
        writer.record(UserMessage.text("more"))
    (info,) = list_sessions(cwd, config)
    assert info.summary == "Login bug fix"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[1] == {"type": "summary", "summary": "Login bug fix", "leafUuid": lines[0]["uuid"]}
    assert lines[2]["parentUuid"] == lines[0]["uuid"]  # not part of the chain
    assert len(load_session(path).messages) == 2


def test_claude_code_files_are_listed(tmp_path: Path) -> None:
    cwd, config = tmp_path / "calc", tmp_path / "cfg"
    cwd.mkdir()
    folder = project_dir(cwd, config)
    folder.mkdir(parents=True)
    target = folder / "0acb617a-9465-45c5-b2c4-e64473c2c7f7.jsonl"
    shutil.copy(FIXTURES / "transcript-lines.jsonl", target)
    compacted = folder / "5b0c7a51-3f0e-4d7e-9a43-2f4a8f1c9e01.jsonl"
    shutil.copy(FIXTURES / "compacted.jsonl", compacted)
    os.utime(compacted, (1_600_000_000, 1_600_000_000))
    sample, older = list_sessions(cwd, config)
    assert sample.first_prompt == "add mul"
    assert sample.message_count == 1 + 8  # one prompt, eight assistant messages
    assert older.summary == "mul and more"
    assert older.first_prompt == "add mul"


def test_nothing_here(tmp_path: Path) -> None:
    assert find_latest_session(tmp_path, tmp_path / "cfg") is None
    assert list_sessions(tmp_path, tmp_path / "cfg") == []


def test_find_session_by_id(tmp_path: Path, make_writer: MakeWriter) -> None:
    config = tmp_path / "cfg"
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    mine = make_session(make_writer, here, config, IDS[0], "a", 0)
    theirs = make_session(make_writer, there, config, IDS[1], "b", 0)
    assert find_session_by_id(config, IDS[0], here) == mine
    assert find_session_by_id(config, IDS[1], here) == theirs  # other projects searched too
    assert find_session_by_id(config, IDS[2], here) is None
    assert find_session_by_id(config, "../../etc/passwd", here) is None
