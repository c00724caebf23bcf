"""Partial compactions that name their kept messages by uuid: reading Claude Code's and
cc's, writing cc's, and the transcripts cc wrote before (kept messages written again)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cc.models.content_blocks import TextBlock, ToolUseBlock
from cc.models.messages import (
    AssistantMessage,
    CompactBoundaryMessage,
    Message,
    UserMessage,
    normalize_messages_for_api,
)
from cc.session.loader import load_session
from cc.session.resume import resume_writer
from tests.session.conftest import FIXTURES, MakeWriter, read_lines, write_lines

#: Claude Code 2.1.328's form: a /compact that kept the last round (lines 9-13) by uuid.
CLAUDE_CODE = FIXTURES / "claude-code-compacted-preserved.jsonl"
#: What cc wrote before it named kept messages: they follow the summary again.
CC_OLD_FORM = FIXTURES / "cc-compacted-old-form.jsonl"


def u(n: int) -> str:
    return f"c0ffee00-0000-4000-8000-{n:012d}"


def fixture_lines() -> list[dict[str, Any]]:
    return read_lines(CLAUDE_CODE)


def line(lines: list[dict[str, Any]], uuid: str) -> dict[str, Any]:
    return next(x for x in lines if x.get("uuid") == uuid)


def texts(messages: list[Message]) -> list[str]:
    """Each message's text (tool calls as `tool:<id>`, results as `result:<id>`)."""
    out = []
    for message in messages:
        if isinstance(message, CompactBoundaryMessage):
            out.append("SUMMARY")
            continue
        parts = []
        for block in message.content:
            if isinstance(block, TextBlock):
                parts.append(block.text)
            elif isinstance(block, ToolUseBlock):
                parts.append(f"tool:{block.id}")
            else:
                parts.append(f"result:{getattr(block, 'tool_use_id', '?')}")
        out.append(" | ".join(parts))
    return out


KEPT_ROUND = [
    "now add div",
    "Adding div after mul. | tool:toolu_03",
    "result:toolu_03",
    "Added div; dividing by zero raises ZeroDivisionError.",
]
AFTER = [
    "<local-command-caveat>A local command ran here; what follows is its record, for "
    "context.</local-command-caveat>",
    "<command-name>/compact</command-name>\n            <command-message>compact"
    "</command-message>\n            <command-args></command-args>",
    "<local-command-stdout>Compacted</local-command-stdout>",
    "write a test for div",
    "Wrote test_div in test_calc.py.",
]


def api_ok(messages: list[Message]) -> None:
    from tests.fakeapi import validate

    api = normalize_messages_for_api([*messages, UserMessage.text("next")])
    assert validate({"model": "m", "max_tokens": 1, "messages": api}) == []


# -- reading Claude Code's form -----------------------------------------------------------


def test_the_kept_round_follows_the_summary() -> None:
    loaded = load_session(CLAUDE_CODE)
    assert loaded.warnings == []
    assert texts(loaded.messages) == ["SUMMARY", *KEPT_ROUND, *AFTER]
    boundary = loaded.messages[0]
    assert isinstance(boundary, CompactBoundaryMessage)
    assert boundary.summary.startswith("Earlier in this session (summary)")
    assert (boundary.uuid, boundary.summary_uuid) == (u(14), u(15))
    assert loaded.last_uuid == u(22)
    api_ok(loaded.messages)


def test_kept_assistant_usage_is_zeroed() -> None:
    """Its 990,000 input tokens described the context before the compaction."""
    loaded = load_session(CLAUDE_CODE)
    kept = [m for m in loaded.messages if isinstance(m, AssistantMessage)][1]
    assert kept.text.startswith("Added div")
    assert kept.usage["input_tokens"] == 0 and kept.usage["service_tier"] == "standard"
    last = loaded.messages[-1]
    assert isinstance(last, AssistantMessage) and last.usage["input_tokens"] == 6100


def test_lines_after_the_summary_may_chain_from_the_last_kept_one(tmp_path: Path) -> None:
    lines = fixture_lines()
    line(lines, u(16))["parentUuid"] = u(13)  # the tail, not the summary
    loaded = load_session(write_lines(tmp_path / "s.jsonl", lines))
    assert loaded.warnings == []
    assert texts(loaded.messages) == ["SUMMARY", *KEPT_ROUND, *AFTER]


def test_nothing_after_the_summary_ends_with_the_kept_round(tmp_path: Path) -> None:
    lines = fixture_lines()
    cut = lines.index(line(lines, u(15))) + 1
    loaded = load_session(write_lines(tmp_path / "s.jsonl", lines[:cut]))
    assert loaded.warnings == []
    assert texts(loaded.messages) == ["SUMMARY", *KEPT_ROUND]
    assert loaded.last_uuid == u(13)  # the next line chains from the kept tail


def test_without_the_list_the_segment_is_walked_from_tail_to_head(tmp_path: Path) -> None:
    lines = fixture_lines()
    del line(lines, u(14))["compactMetadata"]["preservedMessages"]
    loaded = load_session(write_lines(tmp_path / "s.jsonl", lines))
    assert loaded.warnings == []
    assert texts(loaded.messages) == ["SUMMARY", *KEPT_ROUND, *AFTER]


def test_kept_lines_missing_from_the_file_are_reported(tmp_path: Path) -> None:
    lines = [x for x in fixture_lines() if x.get("uuid") != u(9)]  # "now add div" is lost
    loaded = load_session(write_lines(tmp_path / "s.jsonl", lines))
    assert texts(loaded.messages) == ["SUMMARY", *KEPT_ROUND[1:], *AFTER]
    boundary_line = 1 + next(i for i, x in enumerate(lines) if x.get("uuid") == u(14))
    assert (f"The compaction at line {boundary_line} of the transcript: 1 line(s) it kept "
            "verbatim are not in the transcript; the conversation resumes without them "
            "(4 found).") in loaded.warnings
    api_ok(loaded.messages)


def test_a_named_line_after_the_boundary_is_not_missing(tmp_path: Path) -> None:
    lines = fixture_lines()
    line(lines, u(14))["compactMetadata"]["preservedMessages"]["uuids"].append(u(16))
    loaded = load_session(write_lines(tmp_path / "s.jsonl", lines))
    assert loaded.warnings == []
    assert texts(loaded.messages) == ["SUMMARY", *KEPT_ROUND, *AFTER]


def test_a_broken_walk_keeps_what_it_found(tmp_path: Path) -> None:
    lines = [x for x in fixture_lines() if x.get("uuid") != u(11)]  # the tool call is lost
    del line(lines, u(14))["compactMetadata"]["preservedMessages"]
    loaded = load_session(write_lines(tmp_path / "s.jsonl", lines))
    assert any("could not all be found" in w and "(2 found)" in w for w in loaded.warnings)
    # the result whose call is lost goes (reported); the rest of the conversation stays
    assert texts(loaded.messages) == ["SUMMARY", KEPT_ROUND[3], *AFTER]
    assert "1 tool result(s) answering no tool call were dropped." in loaded.warnings


def test_a_lost_summary_reads_on_through_the_logical_parent(tmp_path: Path) -> None:
    lines = [x for x in fixture_lines() if x.get("uuid") != u(15)]
    loaded = load_session(write_lines(tmp_path / "s.jsonl", lines))
    assert any("no summary" in w for w in loaded.warnings)
    assert "add a mul function" in texts(loaded.messages)
    assert "Added div; dividing by zero raises ZeroDivisionError." in texts(loaded.messages)


def test_compacted_twice_keeps_what_the_second_kept(tmp_path: Path) -> None:
    """The second compaction keeps the first one's tail (before the first boundary) and
    the round after it (between the boundaries)."""
    lines = fixture_lines()
    second = [u(13), u(16), u(17), u(18), u(19), u(20), u(21)]
    base = {k: v for k, v in line(lines, u(14)).items() if k not in ("uuid", "parentUuid")}
    boundary = base | {
        "parentUuid": None, "uuid": u(30), "logicalParentUuid": u(22),
        "compactMetadata": {"trigger": "auto", "preTokens": 980000,
                            "preservedSegment": {"headUuid": second[0], "anchorUuid": u(31),
                                                 "tailUuid": second[-1]},
                            "preservedMessages": {"anchorUuid": u(31), "uuids": second,
                                                  "allUuids": second}}}
    summary = line(lines, u(15)) | {"uuid": u(31), "parentUuid": u(30),
                                    "message": {"role": "user", "content": "Second summary."}}
    prompt = line(lines, u(20)) | {"uuid": u(32), "parentUuid": u(31),
                                   "message": {"role": "user", "content": "and a docstring"}}
    lines += [boundary, summary, prompt]
    loaded = load_session(write_lines(tmp_path / "s.jsonl", lines))
    assert loaded.warnings == []
    assert texts(loaded.messages) == ["SUMMARY", KEPT_ROUND[3], *AFTER, "and a docstring"]
    first = loaded.messages[0]
    assert isinstance(first, CompactBoundaryMessage) and first.summary == "Second summary."
    api_ok(loaded.messages)


# -- cc's transcripts: the old form, and the new one ---------------------------------------


def test_the_old_form_still_resumes() -> None:
    """Before: kept messages written again, under new uuids, after the summary."""
    loaded = load_session(CC_OLD_FORM)
    assert loaded.warnings == []
    got = texts(loaded.messages)
    assert got[0] == "SUMMARY" and got[-1] == "All three notes are read."
    assert got[1:4] == ["Reading note 2. | tool:toolu_0002", "result:toolu_0002",
                        "Reading note 3. | tool:toolu_0003"]
    assert not any("note 1" in t for t in got)
    metadata = read_lines(CC_OLD_FORM)[10]["compactMetadata"]
    assert "preservedSegment" not in metadata  # what made it the old form
    api_ok(loaded.messages)


def _round(n: int) -> list[Message]:
    return [UserMessage.text(f"question {n}"),
            AssistantMessage([TextBlock(f"answer {n}")], usage={"input_tokens": 900_000})]


def _compact(messages: list[Message], keep: int, writer: Any, summary: str) -> list[Message]:
    """What the compactor does to the conversation and the transcript."""
    kept = messages[-keep:]
    boundary = CompactBoundaryMessage(summary, preserved=writer.lines_of(kept))
    writer.sync([boundary, *kept])
    return [boundary, *kept]


def test_cc_names_kept_messages_instead_of_writing_them_again(
    transcript: Path, make_writer: MakeWriter
) -> None:
    messages = [*_round(1), *_round(2), *_round(3)]
    with make_writer(transcript) as writer:
        writer.sync(messages)
        messages = _compact(messages, 2, writer, "Rounds 1 and 2.")
        messages += [UserMessage.text("question 4")]
        writer.sync(messages)
    lines = read_lines(transcript)
    assert len(lines) == 6 + 2 + 1  # the kept round is on file once
    assert len({x["uuid"] for x in lines}) == len(lines)
    boundary, summary, prompt = lines[6:]
    meta = boundary["compactMetadata"]
    assert meta["preservedSegment"] == {"headUuid": lines[4]["uuid"],
                                        "anchorUuid": summary["uuid"],
                                        "tailUuid": lines[5]["uuid"]}
    assert meta["preservedMessages"]["uuids"] == [lines[4]["uuid"], lines[5]["uuid"]]
    assert boundary["parentUuid"] is None and boundary["logicalParentUuid"] == lines[5]["uuid"]
    assert summary["parentUuid"] == boundary["uuid"] and prompt["parentUuid"] == summary["uuid"]
    loaded = load_session(transcript)
    assert texts(loaded.messages) == ["SUMMARY", "question 3", "answer 3", "question 4"]


def test_cc_compacting_twice_across_a_resume(transcript: Path, make_writer: MakeWriter) -> None:
    """The second compaction names lines of the first session (kept by the first one)
    and of the resumed one: the writer learns a loaded message's lines from the loader."""
    messages = [*_round(1), *_round(2), *_round(3)]
    with make_writer(transcript) as writer:
        writer.sync(messages)
        _compact(messages, 2, writer, "Rounds 1 and 2.")
    loaded = load_session(transcript)
    with resume_writer(loaded, cwd=transcript.parent, version="0.1.0", fsync=False) as writer:
        messages = [*loaded.messages, *_round(4)]
        writer.sync(messages)
        messages = _compact(messages, 3, writer, "Rounds 1 to 3.")
        writer.sync([*messages, UserMessage.text("question 5")])
    again = load_session(transcript)
    assert again.warnings == []
    assert texts(again.messages) == ["SUMMARY", "answer 3", "question 4", "answer 4",
                                     "question 5"]
    assert again.messages[0].summary == "Rounds 1 to 3."  # type: ignore[union-attr]
    lines = read_lines(transcript)
    assert len({x["uuid"] for x in lines}) == len(lines)
    second = [x for x in lines if x.get("subtype") == "compact_boundary"][1]
    kept = second["compactMetadata"]["preservedMessages"]["uuids"]
    first_boundary = next(i for i, x in enumerate(lines) if x.get("subtype") == "compact_boundary")
    assert [x["uuid"] for x in lines[:first_boundary]].index(kept[0]) == 5  # answer 3


def test_a_fork_of_a_compacted_session_writes_the_kept_messages_again(
    tmp_path: Path, make_writer: MakeWriter
) -> None:
    """A fork's file has nothing before its boundary to refer to: the old form."""
    from cc.session.resume import fork_session

    loaded = load_session(CLAUDE_CODE)
    fork = tmp_path / "fork.jsonl"
    with make_writer(fork) as writer:
        fork_session(loaded, writer)
    lines = read_lines(fork)
    assert "preservedSegment" not in lines[0]["compactMetadata"]
    again = load_session(fork)
    assert again.warnings == []
    assert texts(again.messages) == ["SUMMARY", *KEPT_ROUND, *AFTER]


def test_an_unreadable_preserved_list_is_walked(tmp_path: Path) -> None:
    lines = fixture_lines()
    line(lines, u(14))["compactMetadata"]["preservedMessages"]["uuids"] = "not a list"
    loaded = load_session(write_lines(tmp_path / "s.jsonl", lines))
    assert loaded.warnings == []
    assert texts(loaded.messages) == ["SUMMARY", *KEPT_ROUND, *AFTER]


def test_fixture_is_claude_code_shaped() -> None:
    """The fixture keeps to the shapes of reference/phase2_interface.md §2.4."""
    lines = fixture_lines()
    boundary = line(lines, u(14))
    assert boundary["parentUuid"] is None and boundary["logicalParentUuid"] == u(13)
    meta = boundary["compactMetadata"]
    assert meta["preservedSegment"]["anchorUuid"] == meta["preservedMessages"]["anchorUuid"]
    summary = line(lines, u(15))
    assert summary["parentUuid"] == u(14) and summary["uuid"] == meta["preservedSegment"][
        "anchorUuid"]
    assert summary["isCompactSummary"] is True and summary["isVisibleInTranscriptOnly"] is True
    assert json.dumps(lines).count('"uuid": "%s"' % u(13)) == 1  # kept lines are not rewritten
