"""TranscriptWriter: Claude Code's line shape, one line per block/result, round trips."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from cc.identity import AgentInfo
from cc.models.content_blocks import (
    ImageBlock,
    RedactedThinkingBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from cc.models.messages import (
    AssistantMessage,
    CompactBoundaryMessage,
    Message,
    SystemMessage,
    UserMessage,
    normalize_messages_for_api,
)
from cc.session.loader import load_session
from cc.session.transcript import sidechain_fields
from tests.fakeapi import validate
from tests.session.conftest import SESSION_ID, MakeWriter, read_lines
from tests.waiting import wait_for

TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
USAGE = {"input_tokens": 120, "output_tokens": 40, "cache_read_input_tokens": 0}
PNG = {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}


def assistant(*blocks: Any, mid: str, stop: str = "tool_use") -> AssistantMessage:
    return AssistantMessage(
        list(blocks), message_id=mid, model="claude-opus-5-5", stop_reason=stop, usage=dict(USAGE)
    )


def every_kind() -> list[Message]:
    """A conversation using every message kind the writer knows."""
    return [
        UserMessage.text("add a mul function"),
        UserMessage([TextBlock("and look at this"), ImageBlock(PNG)]),
        assistant(
            ThinkingBlock("Need to look first.", "sig-1"),
            TextBlock("Looking."),
            ToolUseBlock("toolu_1", "Glob", {"pattern": "**/*.py"}),
            ToolUseBlock("toolu_2", "Read", {"file_path": "/p/calc.py"}),
            mid="msg_1",
        ),
        UserMessage(
            [ToolResultBlock("toolu_1", "calc.py"), ToolResultBlock("toolu_2", "1\tdef add")],
            tool_use_result=[
                {"filenames": ["calc.py"], "numFiles": 1},
                {"type": "text", "file": {"filePath": "/p/calc.py"}},
            ],
        ),
        assistant(
            RedactedThinkingBlock("opaque"),
            ToolUseBlock("toolu_3", "Bash", {"command": "exit 3"}),
            mid="msg_2",
        ),
        UserMessage(
            [ToolResultBlock("toolu_3", "Exit code 3", is_error=True)],
            tool_use_result="Error: Exit code 3",
        ),
        UserMessage.text("<system-reminder>\nA note.\n</system-reminder>", is_meta=True),
        SystemMessage("Model switched", level="warning", subtype="informational"),
        assistant(TextBlock("Done."), mid="msg_3", stop="end_turn"),
    ]


def test_round_trip_of_every_message_kind(transcript: Path, make_writer: MakeWriter) -> None:
    messages = every_kind()
    with make_writer(transcript) as writer:
        for message in messages:
            writer.record(message)
    loaded = load_session(transcript)
    assert loaded.warnings == []
    assert loaded.messages == messages
    assert loaded.session_id == SESSION_ID
    assert loaded.last_uuid == writer.last_uuid
    api = normalize_messages_for_api(loaded.messages)
    assert api == normalize_messages_for_api(messages)
    assert validate({"model": "m", "max_tokens": 1, "messages": api}) == []


def test_every_line_has_claude_codes_shape(transcript: Path, make_writer: MakeWriter) -> None:
    messages = every_kind()
    with make_writer(transcript, cwd=Path("/work/proj"), version="9.9.9") as writer:
        writer.sync(messages)
    lines = read_lines(transcript)
    check_schema(lines)
    by_type = [line["type"] for line in lines]
    # 2 prompts, 4 assistant blocks, 2 results, 1 more block, 1 result, meta, system, 1 block
    assert by_type == ["user", "user"] + ["assistant"] * 4 + ["user"] * 2 + ["assistant"] * 2 + [
        "user",
        "user",
        "system",
        "assistant",
    ]
    assert lines[0]["message"] == {"role": "user", "content": "add a mul function"}
    assert lines[0]["cwd"] == "/work/proj" and lines[0]["version"] == "9.9.9"
    assert lines[0]["sessionId"] == SESSION_ID
    first_block = lines[2]
    assert first_block["uuid"] == messages[2].uuid
    assert first_block["message"]["content"] == [
        {"type": "thinking", "thinking": "Need to look first.", "signature": "sig-1"}
    ]
    glob_result = lines[6]
    assert glob_result["toolUseResult"] == {"filenames": ["calc.py"], "numFiles": 1}
    assert glob_result["sourceToolAssistantUUID"] == lines[4]["uuid"]
    assert lines[11]["isMeta"] is True
    assert lines[12]["subtype"] == "informational"
    assert lines[12]["content"] == "Model switched" and lines[12]["level"] == "warning"


def check_schema(lines: list[dict[str, Any]]) -> None:
    """Strict check of what cc writes: envelope, message shapes, the unbroken chain."""
    uuids: list[str] = []
    holders: dict[str, str] = {}  # tool_use id -> uuid of its line
    for i, line in enumerate(lines):
        assert isinstance(line["uuid"], str) and line["uuid"] not in uuids
        assert line["isSidechain"] is False and line["userType"] == "external"
        for key in ("cwd", "sessionId", "version", "gitBranch"):
            assert isinstance(line[key], str), key
        assert TIMESTAMP.match(line["timestamp"])
        if line["type"] == "system" and line.get("subtype") == "compact_boundary":
            assert line["parentUuid"] is None
            assert line["logicalParentUuid"] == (uuids[-1] if uuids else None)
            meta = line["compactMetadata"]
            assert set(meta) - {"preservedSegment", "preservedMessages"} == {
                "trigger", "preTokens", "postTokens", "durationMs"}
            if "preservedSegment" in meta:  # kept lines are named, and are on file already
                kept = meta["preservedMessages"]["uuids"]
                assert kept and set(kept) <= set(uuids)
                assert meta["preservedSegment"] == {"headUuid": kept[0], "tailUuid": kept[-1],
                                                    "anchorUuid": lines[i + 1]["uuid"]}
        else:
            assert line["parentUuid"] == (uuids[-1] if uuids else None)
        uuids.append(line["uuid"])
        if line["type"] == "assistant":
            message = line["message"]
            assert set(message) == {
                "id",
                "type",
                "role",
                "model",
                "content",
                "stop_reason",
                "stop_sequence",
                "usage",
            }
            assert message["type"] == "message" and message["role"] == "assistant"
            assert message["id"].startswith("msg_") and len(message["content"]) == 1
            for block in message["content"]:
                if block["type"] == "tool_use":
                    holders[block["id"]] = line["uuid"]
        elif line["type"] == "user":
            assert set(line["message"]) == {"role", "content"}
            assert line["message"]["role"] == "user"
            content = line["message"]["content"]
            assert isinstance(content, (str, list))
            results = [
                b for b in content if isinstance(content, list) and b["type"] == "tool_result"
            ]
            if results:
                assert len(content) == 1, "one tool_result per line"
                assert line["sourceToolAssistantUUID"] == holders[results[0]["tool_use_id"]]
                assert "toolUseResult" in line
        elif line["type"] == "system":
            assert isinstance(line["subtype"], str) and isinstance(line["content"], str)
            assert line["level"] in ("info", "warning", "error")
        else:
            raise AssertionError(f"unexpected line type {line['type']}")


def test_assistant_blocks_share_the_message_id(transcript: Path, make_writer: MakeWriter) -> None:
    with make_writer(transcript) as writer:
        writer.record(UserMessage.text("hi"))
        writer.record(
            AssistantMessage(
                [TextBlock("a"), TextBlock("b"), TextBlock("c")], model="claude-opus-5-5"
            )
        )
    blocks = [line for line in read_lines(transcript) if line["type"] == "assistant"]
    assert len(blocks) == 3
    assert len({line["message"]["id"] for line in blocks}) == 1
    assert [line["message"]["content"][0]["text"] for line in blocks] == ["a", "b", "c"]
    check_schema(read_lines(transcript))


def test_results_recorded_one_by_one_are_not_written_twice(
    transcript: Path, make_writer: MakeWriter
) -> None:
    call = assistant(
        ToolUseBlock("toolu_a", "Read", {"file_path": "/a"}),
        ToolUseBlock("toolu_b", "Read", {"file_path": "/b"}),
        mid="msg_1",
    )
    single_b = UserMessage([ToolResultBlock("toolu_b", "B")], tool_use_result={"file": "b"})
    single_a = UserMessage([ToolResultBlock("toolu_a", "A")], tool_use_result={"file": "a"})
    combined = UserMessage(
        [ToolResultBlock("toolu_a", "A"), ToolResultBlock("toolu_b", "B")],
        tool_use_result=[{"file": "a"}, {"file": "b"}],
    )
    with make_writer(transcript) as writer:
        writer.record(UserMessage.text("read both"))
        writer.record(call)
        writer.record_tool_result(single_b)  # b finished first
        writer.record_tool_result(single_a)
        writer.record(combined)
        writer.sync([combined])
    lines = read_lines(transcript)
    check_schema(lines)
    results = [line["message"]["content"][0]["tool_use_id"] for line in lines[3:]]
    assert results == ["toolu_b", "toolu_a"]
    loaded = load_session(transcript).messages
    assert loaded[2].content == [ToolResultBlock("toolu_b", "B"), ToolResultBlock("toolu_a", "A")]
    assert loaded[2].tool_use_result == [{"file": "b"}, {"file": "a"}]


def test_a_result_before_its_tool_use_waits_for_it(
    transcript: Path, make_writer: MakeWriter
) -> None:
    """A tool may finish while the model is still streaming the message that called it."""
    call = assistant(
        ToolUseBlock("toolu_a", "Glob", {"pattern": "*"}), TextBlock("Let me see."), mid="msg_1"
    )
    early = UserMessage([ToolResultBlock("toolu_a", "x.py")], tool_use_result={"numFiles": 1})
    with make_writer(transcript) as writer:
        writer.record(UserMessage.text("go"))
        writer.record_tool_result(early)
        assert len(read_lines(transcript)) == 1
        writer.record(call)
    lines = read_lines(transcript)
    check_schema(lines)
    assert [line["type"] for line in lines] == ["user", "assistant", "assistant", "user"]
    assert lines[3]["sourceToolAssistantUUID"] == lines[1]["uuid"]


def test_a_result_whose_tool_use_never_came_is_dropped_at_close(
    transcript: Path, make_writer: MakeWriter
) -> None:
    with make_writer(transcript) as writer:
        writer.record(UserMessage.text("go"))
        writer.record_tool_result(UserMessage([ToolResultBlock("toolu_x", "late")]))
    assert len(read_lines(transcript)) == 1


def test_the_file_appears_with_the_first_line(transcript: Path, make_writer: MakeWriter) -> None:
    writer = make_writer(transcript)
    assert not transcript.exists()
    writer.record(UserMessage.text("hello"))
    writer.close()
    assert transcript.exists()
    assert oct(transcript.stat().st_mode & 0o777) == "0o600"


def test_resumed_writer_chains_onto_the_loaded_conversation(
    transcript: Path, make_writer: MakeWriter
) -> None:
    first = [UserMessage.text("one"), assistant(TextBlock("1"), mid="msg_1", stop="end_turn")]
    with make_writer(transcript) as writer:
        writer.sync(first)
    loaded = load_session(transcript)
    more = UserMessage.text("two")
    with make_writer(transcript, parent_uuid=loaded.last_uuid) as writer:
        writer.mark_recorded(loaded.messages)
        writer.sync([*loaded.messages, more])  # only `more` is new
    lines = read_lines(transcript)
    check_schema(lines)
    assert len(lines) == 3
    assert load_session(transcript).messages == [*first, more]


def test_a_teammates_lines_say_who_and_load_like_any_other(
    transcript: Path, make_writer: MakeWriter
) -> None:
    messages = every_kind()
    with make_writer(transcript) as writer:
        writer.sync(messages[:4])  # 8 lines: two prompts, four blocks, two results
        who = AgentInfo("a0123456789abcdef", "general-purpose", "docs", "toolu_1",
                        name="alpha", team="docs")
        writer.extra = {k: v for k, v in sidechain_fields(who).items()
                        if k in ("teamName", "agentName")}  # (the schema check is a main file's)
        writer.sync(messages[4:])
    lines = read_lines(transcript)
    check_schema(lines)
    assert not any("teamName" in line or "agentName" in line for line in lines[:8])
    assert len(lines) > 8 and all(
        (line["teamName"], line["agentName"]) == ("docs", "alpha") for line in lines[8:])
    assert sidechain_fields(who) == {"isSidechain": True, "agentId": "a0123456789abcdef",
                                     "teamName": "docs", "agentName": "alpha"}
    loaded = load_session(transcript)
    assert loaded.warnings == [] and loaded.messages == messages
    assert sidechain_fields(AgentInfo("a1", "Explore", "d", "t", name="solo")) == {
        "isSidechain": True, "agentId": "a1", "agentName": "solo"}  # a named agent, no team


def test_compact_boundary_lines(transcript: Path, make_writer: MakeWriter) -> None:
    with make_writer(transcript) as writer:
        writer.record(UserMessage.text("old"))
        writer.record(assistant(TextBlock("old answer"), mid="msg_1", stop="end_turn"))
        boundary = writer.record_compact_boundary("Summary of before.", "manual", 1234)
        kept = UserMessage.text("kept prompt")
        writer.sync([boundary, kept])
    lines = read_lines(transcript)
    check_schema(lines)
    system, summary = lines[2], lines[3]
    assert system["subtype"] == "compact_boundary" and system["content"] == "Conversation compacted"
    assert system["compactMetadata"] == {"trigger": "manual", "preTokens": 1234, "postTokens": 0,
                                         "durationMs": 0}
    assert system["uuid"] == boundary.uuid
    assert summary["isCompactSummary"] is True and summary["parentUuid"] == system["uuid"]
    assert summary["message"] == {"role": "user", "content": "Summary of before."}
    loaded = load_session(transcript)
    assert loaded.messages == [
        CompactBoundaryMessage("Summary of before.", "manual", 1234, uuid=boundary.uuid),
        kept,
    ]


def test_messages_kept_across_a_compaction_are_written_again(
    transcript: Path, make_writer: MakeWriter
) -> None:
    recent = UserMessage.text("recent prompt")
    with make_writer(transcript) as writer:
        writer.sync([UserMessage.text("old"), recent])
        boundary = writer.record_compact_boundary("Summary.", "auto", 99)
        writer.sync([boundary, recent])
    assert load_session(transcript).messages == [
        CompactBoundaryMessage("Summary.", "auto", 99, uuid=boundary.uuid),
        recent,
    ]


def test_git_branch_is_read_from_head(tmp_path: Path, make_writer: MakeWriter) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".git" / "HEAD").write_text("ref: refs/heads/feature/x\n")
    (repo / "src").mkdir()
    path = tmp_path / f"{SESSION_ID}.jsonl"
    with make_writer(path, cwd=repo / "src") as writer:
        writer.record(UserMessage.text("a"))
        (repo / ".git" / "HEAD").write_text("0123456789abcdef0123456789abcdef01234567\n")
        writer.record(UserMessage.text("b"))
    assert [line["gitBranch"] for line in read_lines(path)] == ["feature/x", "HEAD"]
    other = tmp_path / "no-repo"
    other.mkdir()
    path2 = tmp_path / "x.jsonl"
    with make_writer(path2, cwd=other) as writer:
        writer.record(UserMessage.text("a"))
    assert read_lines(path2)[0]["gitBranch"] == ""


def test_a_torn_last_line_is_not_continued(transcript: Path, make_writer: MakeWriter) -> None:
    """Another process died mid-line: our line must start on a line of its own."""
    transcript.parent.mkdir(parents=True)
    transcript.write_bytes(b'{"type":"user","mess')
    with make_writer(transcript) as writer:
        writer.record(UserMessage.text("fresh"))
    data = transcript.read_bytes()
    assert data.startswith(b'{"type":"user","mess\n{')
    assert json.loads(data.split(b"\n")[1])["message"]["content"] == "fresh"


def test_lone_surrogates_are_escaped(transcript: Path, make_writer: MakeWriter) -> None:
    with make_writer(transcript) as writer:
        writer.record(UserMessage.text("bad \udcff byte"))
    assert load_session(transcript).messages[0].content == [TextBlock("bad \udcff byte")]


def test_fsync_per_write(transcript: Path, make_writer: MakeWriter, monkeypatch: Any) -> None:
    calls: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append(fd), real(fd))[1])
    with make_writer(transcript, fsync=True) as writer:
        writer.record(UserMessage.text("a"))
        wait_for(lambda: calls, what="the first fsync")  # begun: the next write needs its own
        writer.record(assistant(TextBlock("x"), TextBlock("y"), mid="msg_1", stop="end_turn"))
    assert len(calls) == 2  # one write (and one fsync) per message, however many lines
    with make_writer(transcript, fsync=False, parent_uuid=writer.last_uuid) as writer:
        writer.record(UserMessage.text("b"))
    assert len(calls) == 2



def test_a_write_does_not_wait_for_its_fsync(transcript: Path, make_writer: MakeWriter,
                                             monkeypatch: Any) -> None:
    """The line is on file when record() returns, while the disk is still busy with it
    (the event loop must not stall on it); close() waits for the fsync."""
    release = threading.Event()
    synced: list[int] = []

    def slow_fsync(fd: int) -> None:
        assert release.wait(10)
        synced.append(fd)

    monkeypatch.setattr(os, "fsync", slow_fsync)
    writer = make_writer(transcript, fsync=True)
    writer.record(UserMessage.text("a"))
    assert b'"content":"a"' in transcript.read_bytes() and synced == []
    release.set()
    writer.close()
    assert len(synced) == 1


def test_writes_made_while_an_fsync_waits_to_begin_share_it(
        transcript: Path, make_writer: MakeWriter, monkeypatch: Any) -> None:
    """Every write is followed by an fsync that began after it: one under way when a
    write comes does not count, one still waiting to begin does."""
    began = threading.Event()
    release = threading.Event()
    sizes: list[int] = []  # the file's size as each fsync began

    def slow_fsync(fd: int) -> None:
        sizes.append(os.fstat(fd).st_size)
        began.set()
        assert release.wait(10)

    monkeypatch.setattr(os, "fsync", slow_fsync)
    writer = make_writer(transcript, fsync=True)
    writer.record(UserMessage.text("a"))
    assert began.wait(10)  # under way: the writes below need another
    writer.record(UserMessage.text("b"))
    writer.record(UserMessage.text("c"))
    release.set()
    writer.close()
    assert len(sizes) == 2 and sizes[-1] == transcript.stat().st_size


def test_a_failed_fsync_is_raised(transcript: Path, make_writer: MakeWriter,
                                  monkeypatch: Any) -> None:
    def broken(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", broken)
    writer = make_writer(transcript, fsync=True)
    writer.record(UserMessage.text("a"))
    with pytest.raises(OSError, match="Input/output error"):
        writer.close()


WRITER_SCRIPT = """
import sys
import threading
from pathlib import Path
from cc.models.messages import UserMessage
from cc.session.transcript import TranscriptWriter
path, tag = Path(sys.argv[1]), sys.argv[2]
w = TranscriptWriter(path, session_id=path.stem, cwd=Path("/"), version="0", fsync=False)
for i in range(500):
    w.record(UserMessage.text(f"{tag}-{i} " + tag * 6000))
w.close()
"""


def test_two_processes_appending_never_interleave(transcript: Path) -> None:
    transcript.parent.mkdir(parents=True)
    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(repo)}
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER_SCRIPT, str(transcript), tag], env=env)
        for tag in ("A", "B")
    ]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    lines = read_lines(transcript)  # every line parses
    assert len(lines) == 1000
    for tag in ("A", "B"):
        mine = [line for line in lines if line["message"]["content"].startswith(tag + "-")]
        assert [int(line["message"]["content"].split()[0][2:]) for line in mine] == list(range(500))
        # each writer's own parentUuid chain is unbroken
        assert all(b["parentUuid"] == a["uuid"] for a, b in zip(mine, mine[1:]))
