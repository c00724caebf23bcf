"""Loading transcripts: Claude Code's files, compaction, and repair after abrupt ends."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cc.models.content_blocks import TextBlock, ThinkingBlock, ToolResultBlock, ToolUseBlock
from cc.models.messages import (
    AssistantMessage,
    CompactBoundaryMessage,
    Message,
    UserMessage,
    normalize_messages_for_api,
)
from cc.session.lines import INTERRUPTED_TOOL_TEXT
from cc.session.loader import load_session, validate_transcript
from cc.session.resume import fork_session, resume_writer
from cc.session.transcript import TranscriptWriter
from tests.fakeapi import validate
from tests.session.conftest import FIXTURES, MakeWriter, read_lines, write_lines

SAMPLE = FIXTURES / "transcript-lines.jsonl"
SID = "0acb617a-9465-45c5-b2c4-e64473c2c7f7"


def api_ok(messages: list[Message], then: str | None = "next") -> None:
    """The messages (plus a new prompt) are a request the API accepts."""
    if then is not None:
        messages = [*messages, UserMessage.text(then)]
    api = normalize_messages_for_api(messages)
    assert validate({"model": "m", "max_tokens": 1, "messages": api}) == []


def envelope(uuid: str, parent: str | None, **fields: Any) -> dict[str, Any]:
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/p",
        "sessionId": SID,
        "version": "2.1.328",
        "gitBranch": "",
        **fields,
        "uuid": uuid,
        "timestamp": "2026-11-30T04:18:49.229Z",
    }


def user(uuid: str, parent: str | None, content: Any, **extra: Any) -> dict[str, Any]:
    return envelope(
        uuid, parent, type="user", message={"role": "user", "content": content}, **extra
    )


def asst(uuid: str, parent: str | None, mid: str, block: dict[str, Any]) -> dict[str, Any]:
    message = {
        "id": mid,
        "type": "message",
        "role": "assistant",
        "model": "claude-opus-5-5",
        "content": [block],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    return envelope(uuid, parent, type="assistant", message=message)


def tool_use(tid: str, name: str = "Bash", **inp: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": tid, "name": name, "input": inp}


def result(tid: str, text: str = "ok") -> list[dict[str, Any]]:
    return [{"type": "tool_result", "tool_use_id": tid, "content": text}]


# -- Claude Code's own files --------------------------------------------------------------


def test_real_claude_code_transcript_loads() -> None:
    loaded = load_session(SAMPLE)
    kinds = [type(m).__name__ for m in loaded.messages]
    assert kinds == ["UserMessage"] + ["AssistantMessage", "UserMessage"] * 7 + ["AssistantMessage"]
    first_turn = loaded.messages[1]
    assert isinstance(first_turn, AssistantMessage)
    assert first_turn.message_id == "msg_611f5e3a17cd4d9e96d26639"
    assert [type(b).__name__ for b in first_turn.content] == [
        "TextBlock",
        "ToolUseBlock",
        "ToolUseBlock",
        "ToolUseBlock",
    ]
    results = loaded.messages[2]
    assert isinstance(results, UserMessage)
    assert [b.tool_use_id for b in results.content if isinstance(b, ToolResultBlock)] == [
        "toolu_55a9501fc02c4e04b9c3",
        "toolu_6e3e5d42023d445e9c65",
        "toolu_f509d6a68cb24302bf80",
    ]
    assert results.tool_use_result[0]["filenames"] == ["src/main.py", "src/calc.py"]
    assert loaded.messages[-1].content == [TextBlock("All done: mul added and returns 42.")]
    assert loaded.session_id == "transcript-lines"  # the file name is the session id
    assert loaded.last_uuid == "e6721d7e-4673-40ea-aeaf-75921f817ef5"
    assert loaded.killed_tasks == []
    # the sample is an excerpt: four lines' parents are not in it
    assert loaded.warnings == [
        "4 line(s) of the transcript refer to earlier lines that are not in the file; they "
        "were read in file order."
    ]
    api_ok(loaded.messages)


def test_sample_with_the_lines_claude_code_writes_between(tmp_path: Path) -> None:
    """The excerpt's missing parents filled in with attachment and other lines, plus
    lines without a uuid: all skipped, the conversation unchanged."""
    lines = [json.loads(line) for line in SAMPLE.read_text().splitlines()]
    parents = {line["parentUuid"] for line in lines} - {line["uuid"] for line in lines} - {None}
    out: list[dict[str, Any]] = [
        {
            "type": "file-history-snapshot",
            "messageId": "x",
            "snapshot": {},
            "isSnapshotUpdate": False,
        }
    ]
    for line in lines:
        if line["parentUuid"] in parents:
            prev = next(o["uuid"] for o in reversed(out) if "uuid" in o)
            out.append(
                envelope(
                    line["parentUuid"],
                    prev,
                    type="attachment",
                    attachment={"type": "todo", "content": []},
                )
            )
            parents.discard(line["parentUuid"])
        out.append(line)
        out.append(
            {
                "type": "queue-operation",
                "operation": "dequeue",
                "sessionId": SID,
                "timestamp": "2026-11-30T04:18:49.229Z",
            }
        )
    out.append({"type": "api-request", "uuid": "zz", "requestId": "req_1"})  # bookkeeping
    out.append({"type": "future-kind", "uuid": "zy",
                "message": {"role": "user", "content": "lost?"}})  # conversation we can't place
    path = write_lines(tmp_path / f"{SID}.jsonl", out)
    loaded = load_session(path)
    assert loaded.messages == load_session(SAMPLE).messages
    assert loaded.warnings == ["Skipped 1 transcript line(s) of unknown type 'future-kind'."]


def test_compacted_claude_code_transcript_starts_at_the_summary() -> None:
    loaded = load_session(FIXTURES / "compacted.jsonl")
    assert loaded.warnings == []
    boundary, prompt, answer = loaded.messages
    assert isinstance(boundary, CompactBoundaryMessage)
    assert boundary.summary.startswith("This session is being continued")
    assert (boundary.trigger, boundary.pre_tokens) == ("manual", 41234)
    assert boundary.uuid == "00000000-0000-4000-8000-000000000005"
    assert prompt.content == [TextBlock("next question")]
    assert isinstance(answer, AssistantMessage)
    assert answer.content == [
        ThinkingBlock("The user wants the next step.", "c2lnbmF0dXJl"),
        TextBlock("Next answer."),
    ]
    assert loaded.last_uuid == "00000000-0000-4000-8000-000000000011"
    api_ok(loaded.messages)


def test_boundary_without_summary_keeps_the_history(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "s.jsonl",
        [
            user("u1", None, "old"),
            asst("a1", "u1", "msg_1", {"type": "text", "text": "old answer"}),
            envelope(
                "b1",
                None,
                type="system",
                subtype="compact_boundary",
                content="Conversation compacted",
                logicalParentUuid="a1",
                compactMetadata={"trigger": "auto", "preTokens": 5},
            ),
        ],
    )
    loaded = load_session(path)
    assert [m.uuid for m in loaded.messages] == ["u1", "a1"]
    assert any("no summary" in w for w in loaded.warnings)


def test_interleaved_block_lines_merge_into_one_message(tmp_path: Path) -> None:
    """Streaming: a tool finishes before the next block of the same message is written."""
    path = write_lines(
        tmp_path / "s.jsonl",
        [
            user("u1", None, "go"),
            asst("a1", "u1", "msg_1", tool_use("t1", command="ls")),
            user("r1", "a1", result("t1"), toolUseResult={"stdout": "ok"}),
            asst("a2", "a1", "msg_1", tool_use("t2", command="pwd")),
            user("r2", "a2", result("t2", "/p"), toolUseResult={"stdout": "/p"}),
        ],
    )
    loaded = load_session(path)
    assert loaded.warnings == []
    _, call, results = loaded.messages
    assert [b.id for b in call.content] == ["t1", "t2"]
    assert [b.tool_use_id for b in results.content] == ["t1", "t2"]
    assert results.tool_use_result == [{"stdout": "ok"}, {"stdout": "/p"}]
    api_ok(loaded.messages)


def test_rewound_branch_is_left_out(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "s.jsonl",
        [
            user("u1", None, "first"),
            asst("a1", "u1", "msg_1", {"type": "text", "text": "one"}),
            user("u2", "a1", "abandoned question"),
            asst("a2", "u2", "msg_2", {"type": "text", "text": "abandoned answer"}),
            user("u3", "a1", "rewritten question"),
            asst("a3", "u3", "msg_3", {"type": "text", "text": "new answer"}),
        ],
    )
    loaded = load_session(path)
    assert [m.uuid for m in loaded.messages] == ["u1", "a1", "u3", "a3"]
    assert loaded.last_uuid == "a3"


def test_server_and_unknown_blocks_are_kept_as_they_were_written(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "s.jsonl",
        [
            user("u1", None, "search"),
            asst(
                "a1",
                "u1",
                "msg_1",
                {"type": "server_tool_use", "id": "s1", "name": "web_search", "input": {}},
            ),
            asst("a2", "a1", "msg_1", {"type": "text", "text": "Found it."}),
            user("u2", "a2", [{"type": "document", "source": {}}, {"type": "text", "text": "pdf"}]),
            asst("a3", "u2", "msg_2", {"type": "text", "text": "ok"}),
        ],
    )
    loaded = load_session(path)
    assert loaded.warnings == []
    answer = loaded.messages[1]
    assert [b.to_api() for b in answer.content] == [
        {"type": "server_tool_use", "id": "s1", "name": "web_search", "input": {}},
        {"type": "text", "text": "Found it."},
    ]
    assert loaded.messages[2].content[0].to_api() == {"type": "document", "source": {}}
    api_ok(loaded.messages)


def test_sidechain_lines_are_not_the_conversation(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "s.jsonl",
        [
            user("u1", None, "main"),
            asst("a1", "u1", "msg_1", {"type": "text", "text": "main answer"}),
            user("s1", None, "subagent prompt", isSidechain=True),
        ],
    )
    assert [m.uuid for m in load_session(path).messages] == ["u1", "a1"]


def test_a_sub_agents_own_file_reads_as_its_conversation(tmp_path: Path) -> None:
    lines = [
        user("s1", None, "subagent prompt", isSidechain=True),
        {**asst("s2", "s1", "msg_1", {"type": "text", "text": "sub answer"}), "isSidechain": True},
    ]
    data = write_lines(tmp_path / "agent-a1.jsonl", lines).read_bytes().split(b"\n")
    assert validate_transcript(data).messages == []  # not a session's conversation
    assert [m.uuid for m in validate_transcript(data, sidechain=True).messages] == ["s1", "s2"]


# -- repair after an abrupt end ------------------------------------------------------------


def written_session(transcript: Path, make_writer: MakeWriter) -> TranscriptWriter:
    with make_writer(transcript) as writer:
        writer.record(UserMessage.text("list files"))
        writer.record(
            AssistantMessage(
                [ToolUseBlock("toolu_1", "Bash", {"command": "ls"})],
                message_id="msg_1",
                model="m",
                stop_reason="tool_use",
            )
        )
        writer.record_tool_result(
            UserMessage([ToolResultBlock("toolu_1", "a.py")], tool_use_result={"stdout": "a.py"})
        )
        writer.record(
            AssistantMessage(
                [TextBlock("There is a.py. " * 20)],
                message_id="msg_2",
                model="m",
                stop_reason="end_turn",
            )
        )
    return writer


def test_file_cut_mid_line_resumes_and_is_only_appended_to(
    transcript: Path, make_writer: MakeWriter
) -> None:
    written_session(transcript, make_writer)
    whole = transcript.read_bytes()
    cut = whole[: len(whole) - 40]  # in the middle of the last JSON line
    transcript.write_bytes(cut)

    loaded = load_session(transcript)
    assert len(loaded.messages) == 3  # the half-written answer is gone
    assert any("last line" in w and "cut off" in w for w in loaded.warnings)
    assert transcript.read_bytes() == cut + b"\n"  # repaired by appending, prefix unchanged
    api_ok(loaded.messages)

    with make_writer(transcript, parent_uuid=loaded.last_uuid) as writer:
        writer.mark_recorded(loaded.messages)
        writer.record(UserMessage.text("again"))
    assert transcript.read_bytes().startswith(cut + b"\n")
    again = load_session(transcript)
    assert [m.content for m in again.messages][-1] == [TextBlock("again")]
    assert len(again.messages) == 4
    assert any("could not be read" in w for w in again.warnings)  # now a middle line
    assert transcript.read_bytes().startswith(cut + b"\n")


def test_loading_a_whole_file_changes_nothing(transcript: Path, make_writer: MakeWriter) -> None:
    written_session(transcript, make_writer)
    before = transcript.read_bytes()
    load_session(transcript)
    assert transcript.read_bytes() == before


def test_garbage_line_in_the_middle_is_skipped_and_reported(
    transcript: Path, make_writer: MakeWriter
) -> None:
    written_session(transcript, make_writer)
    lines = transcript.read_bytes().split(b"\n")
    lines.insert(2, b"\x00\xffnot json at all {{{")
    lines.insert(3, b"[1, 2, 3]")
    transcript.write_bytes(b"\n".join(lines))
    loaded = load_session(transcript)
    assert len(loaded.messages) == 4
    assert loaded.warnings == [
        "Line 3 of the transcript could not be read; skipped.",
        "Line 4 of the transcript could not be read; skipped.",
    ]
    api_ok(loaded.messages)


def test_unanswered_tool_use_gets_an_interrupted_result(
    transcript: Path, make_writer: MakeWriter
) -> None:
    with make_writer(transcript) as writer:
        writer.record(UserMessage.text("two things"))
        writer.record(
            AssistantMessage(
                [
                    ToolUseBlock("toolu_1", "Bash", {"command": "ls"}),
                    ToolUseBlock("toolu_2", "Bash", {"command": "sleep 100"}),
                ],
                message_id="msg_1",
                model="m",
                stop_reason="tool_use",
            )
        )
        writer.record_tool_result(UserMessage([ToolResultBlock("toolu_1", "a.py")]))
        # killed here: toolu_2 never finished
    loaded = load_session(transcript)
    prompt, call, done, interrupted = loaded.messages
    assert done.content == [ToolResultBlock("toolu_1", "a.py")]
    assert interrupted.content == [ToolResultBlock("toolu_2", INTERRUPTED_TOOL_TEXT, is_error=True)]
    assert any("interrupted" in w for w in loaded.warnings)
    api_ok(loaded.messages)
    api_ok(loaded.messages, then=None)


def test_interrupted_result_goes_right_after_its_call(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "s.jsonl",
        [
            user("u1", None, "go"),
            asst("a1", "u1", "msg_1", tool_use("t1", command="ls")),
            user("u2", "a1", "[Request interrupted by user]", isMeta=True),
            user("u3", "u2", "do something else"),
            asst("a2", "u3", "msg_2", {"type": "text", "text": "ok"}),
        ],
    )
    loaded = load_session(path)
    assert [m.uuid for m in loaded.messages][:2] == ["u1", "a1"]
    assert loaded.messages[2].content[0].tool_use_id == "t1"
    assert [m.uuid for m in loaded.messages][3:] == ["u2", "u3", "a2"]
    api_ok(loaded.messages)


def test_orphan_results_are_dropped(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "s.jsonl",
        [
            user("u1", None, "hi"),
            asst("a1", "u1", "msg_1", {"type": "text", "text": "hello"}),
            user("r1", "a1", result("toolu_gone"), toolUseResult={"stdout": ""}),
            user("u2", "r1", "bye"),
        ],
    )
    loaded = load_session(path)
    assert [m.uuid for m in loaded.messages] == ["u1", "a1", "u2"]
    assert loaded.warnings == ["1 tool result(s) answering no tool call were dropped."]
    api_ok(loaded.messages)


def background_start(task_id: str) -> list[dict[str, Any]]:
    return [
        user("u1", None, "start the server"),
        asst(
            "a1",
            "u1",
            "msg_1",
            tool_use("t1", command="npm run dev", description="Dev server", run_in_background=True),
        ),
        user(
            "r1",
            "a1",
            result("t1", f"Command running in background with ID: {task_id}."),
            toolUseResult={
                "stdout": "",
                "stderr": "",
                "interrupted": False,
                "isImage": False,
                "backgroundTaskId": task_id,
            },
        ),
        asst("a2", "r1", "msg_2", {"type": "text", "text": "Started."}),
    ]


def test_background_task_still_running_is_reported_killed(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "s.jsonl", background_start("b1x2y3z"))
    loaded = load_session(path)
    assert [(t.task_id, t.kind, t.description) for t in loaded.killed_tasks] == [
        ("b1x2y3z", "bash", "Dev server")
    ]
    notice = loaded.messages[-1]
    assert isinstance(notice, UserMessage) and notice.is_meta
    assert '"Dev server" (id b1x2y3z) was killed when the previous session ended' in (
        notice.content[0].text
    )
    assert any("b1x2y3z" in w for w in loaded.warnings)
    api_ok(loaded.messages)


def test_resuming_writes_the_trailing_repairs_once(tmp_path: Path) -> None:
    lines = background_start("b1x2y3z") + [
        asst("a3", "a2", "msg_3", tool_use("t9", command="sleep 100")),  # killed meanwhile
    ]
    path = write_lines(tmp_path / f"{SID}.jsonl", lines)
    loaded = load_session(path)
    assert [type(m).__name__ for m in loaded.repairs] == ["UserMessage", "UserMessage"]
    assert loaded.repairs == loaded.messages[-2:]  # the interrupted result, then the notice
    writer = resume_writer(loaded, cwd=tmp_path, version="0.1.0", fsync=False)
    writer.sync([*loaded.messages, UserMessage.text("go on")])
    writer.close()
    on_file = read_lines(path)
    assert len(on_file) == len(lines) + 3
    assert on_file[-3]["parentUuid"] == "a3"
    assert on_file[-3]["message"]["content"][0]["tool_use_id"] == "t9"
    again = load_session(path)
    assert again.killed_tasks == [] and again.repairs == [] and again.warnings == []
    assert again.messages[:-1] == loaded.messages
    assert again.messages[-1].content == [TextBlock("go on")]


def test_repairs_in_the_middle_are_made_on_every_load(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / f"{SID}.jsonl",
        [
            user("u1", None, "go"),
            asst("a1", "u1", "msg_1", tool_use("t1", command="ls")),
            user("u2", "a1", "something else"),
        ],
    )
    loaded = load_session(path)
    assert len(loaded.repairs) == 1
    before = path.read_bytes()
    resume_writer(loaded, cwd=tmp_path, version="0", fsync=False).close()
    assert path.read_bytes() == before
    assert load_session(path).messages[2].content == loaded.repairs[0].content


def test_background_task_that_ended_is_not_killed(tmp_path: Path) -> None:
    ended_by_output = [
        asst("a3", "a2", "msg_3", tool_use("t2", "TaskOutput", task_id="b1x2y3z")),
        user(
            "r2",
            "a3",
            result("t2", "<status>completed</status>"),
            toolUseResult={
                "retrieval_status": "success",
                "task": {"task_id": "b1x2y3z", "status": "completed"},
            },
        ),
    ]
    ended_by_stop = [
        asst("a3", "a2", "msg_3", tool_use("t2", "TaskStop", task_id="b1x2y3z")),
        user(
            "r2",
            "a3",
            result("t2", "Successfully stopped task"),
            toolUseResult={
                "message": "Successfully stopped task: b1x2y3z",
                "task_id": "b1x2y3z",
                "task_type": "local_bash",
            },
        ),
    ]
    ended_by_notice = [
        user(
            "n1",
            "a2",
            '<system-reminder>\nBackground command "Dev server" (id b1x2y3z) '
            "completed with exit code 0.\n</system-reminder>",
            isMeta=True,
        ),
    ]
    ended_by_claude_code = [
        user(
            "n1",
            "a2",
            "<task-notification>\n<task-id>b1x2y3z</task-id>\n<status>completed"
            "</status>\n</task-notification>",
        ),
    ]
    for i, tail in enumerate(
        [ended_by_output, ended_by_stop, ended_by_notice, ended_by_claude_code]
    ):
        path = write_lines(tmp_path / f"s{i}.jsonl", background_start("b1x2y3z") + tail)
        loaded = load_session(path)
        assert loaded.killed_tasks == [], i
        assert not any("killed" in w for w in loaded.warnings), i


def test_background_agent_still_running_is_reported_killed(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "s.jsonl",
        [
            user("u1", None, "research"),
            asst(
                "a1",
                "u1",
                "msg_1",
                tool_use(
                    "t1", "Agent", description="Find callers", prompt="...", run_in_background=True
                ),
            ),
            user(
                "r1",
                "a1",
                result("t1", "Async agent launched"),
                toolUseResult={"status": "async_launched", "agentId": "a7f3"},
            ),
        ],
    )
    loaded = load_session(path)
    assert [(t.task_id, t.kind) for t in loaded.killed_tasks] == [("a7f3", "agent")]
    assert "Background agent" in loaded.messages[-1].content[0].text


# -- other ---------------------------------------------------------------------------------


def test_validate_transcript_is_pure_on_lines() -> None:
    loaded = validate_transcript(
        [
            json.dumps(user("u1", None, "hi")),
            "",
            json.dumps(asst("a1", "u1", "msg_1", {"type": "text", "text": "yo"})),
        ]
    )
    assert [m.uuid for m in loaded.messages] == ["u1", "a1"]
    assert loaded.session_id == SID and loaded.last_uuid == "a1"
    assert validate_transcript([]).messages == []


def test_empty_and_whitespace_text_blocks_are_dropped(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "s.jsonl",
        [
            user("u1", None, "hi"),
            asst("a1", "u1", "msg_1", {"type": "text", "text": "  \n"}),
            asst("a2", "a1", "msg_1", {"type": "text", "text": "real"}),
        ],
    )
    loaded = load_session(path)
    assert loaded.messages[1].content == [TextBlock("real")]
    api_ok(loaded.messages)


def test_fork_is_resumable_on_its_own(
    tmp_path: Path, transcript: Path, make_writer: MakeWriter
) -> None:
    path = write_lines(tmp_path / f"{SID}.jsonl", background_start("b1x2y3z"))
    loaded = load_session(path)
    before = path.read_bytes()
    fork_path = transcript.with_name("99999999-2222-4333-8444-555555555555.jsonl")
    with make_writer(fork_path) as writer:
        fork_session(loaded, writer)
        writer.sync(loaded.messages)  # nothing new: already in the fork
        writer.record(UserMessage.text("and now?"))
    assert path.read_bytes() == before
    lines = read_lines(fork_path)
    assert lines[0]["forkedFrom"] == {"sessionId": SID, "messageUuid": "u1"}
    assert lines[0]["sessionId"] == fork_path.stem and lines[0]["parentUuid"] is None
    assert "forkedFrom" not in lines[-1]
    path.unlink()
    forked = load_session(fork_path)
    assert forked.messages[:-1] == loaded.messages
    assert forked.killed_tasks == []  # the fork holds the notice
    assert forked.warnings == []
