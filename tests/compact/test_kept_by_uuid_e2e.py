"""cc's compactions keep the latest exchanges by naming their transcript lines on the
boundary (`compactMetadata.preservedSegment` / `preservedMessages`, as Claude Code does),
not by writing them again; `-c` rebuilds the same conversation the live session had."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.compact.test_compaction_e2e import (
    NEAR_THE_WINDOW,
    SUMMARY,
    main_requests,
    notes,
    reading_turns,
    summary_route,
)
from tests.conftest import Project
from tests.e2e.test_compacted_resume import plain, prompt
from tests.fakeapi import Reply, text, tool_use

SECOND_SUMMARY = "<analysis>again</analysis>\n<summary>All three notes were read; the user " \
                 "asked for note 1 again.</summary>"


def transcript(project: Project) -> list[dict[str, Any]]:
    (path,) = project.config.glob("projects/*/*.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines()]


def boundaries(lines: list[dict[str, Any]]) -> list[int]:
    return [i for i, line in enumerate(lines) if line.get("subtype") == "compact_boundary"]


def answer(said: str) -> dict[str, Any]:
    return {"role": "assistant", "content": [{"type": "text", "text": said}]}


def compact_while_reading(project: Project) -> tuple[Any, list[Path]]:
    """A first session that compacts before its fourth request, keeping notes 2 and 3."""
    api = project.api
    paths = notes(project)
    api.script(*reading_turns(paths, high_at=2), Reply("All three notes are read."))
    summary_route(api, Reply(SUMMARY))
    run = project.run("-p", "read the three notes", "--output-format", "stream-json",
                      "--verbose")
    assert run.returncode == 0, run.stderr + run.stdout
    return run, paths


def test_a_compacted_session_resumes_with_its_kept_round(project: Project) -> None:
    run, _ = compact_while_reading(project)
    after = plain(main_requests(project.api)[3]["messages"])  # the live request after it
    assert "Reading note 3." in json.dumps(after)

    lines = transcript(project)
    (mark,) = boundaries(lines)
    meta = lines[mark]["compactMetadata"]
    kept = meta["preservedMessages"]["uuids"]
    before = [line["uuid"] for line in lines[:mark]]
    assert kept == before[-len(kept):]  # the latest lines, named where they are
    assert meta["preservedSegment"] == {"headUuid": kept[0], "tailUuid": kept[-1],
                                        "anchorUuid": lines[mark + 1]["uuid"]}
    assert lines[mark + 1]["isCompactSummary"] is True
    # ... and not written again after the summary
    assert len({line["uuid"] for line in lines}) == len(lines)
    blocks = [b for line in lines if isinstance(line.get("message", {}).get("content"), list)
              for b in line["message"]["content"]]
    assert sum(b.get("text") == "Reading note 3." for b in blocks) == 1
    assert sum(b["type"] == "tool_result" and "note number 3" in json.dumps(b)
               for b in blocks) == 1

    # The stream-json boundary says the same, and its anchor is the summary record.
    records = run.records()
    (record,) = [r for r in records if r.get("subtype") == "compact_boundary"]
    assert record["uuid"] == lines[mark]["uuid"]
    assert record["compact_metadata"]["preserved_segment"] == {
        "head_uuid": kept[0], "anchor_uuid": lines[mark + 1]["uuid"], "tail_uuid": kept[-1]}
    assert record["compact_metadata"]["preserved_messages"]["uuids"] == kept
    summary_record = records[records.index(record) + 1]
    assert summary_record["isCompactSummary"] is True
    assert summary_record["uuid"] == lines[mark + 1]["uuid"]

    project.api.script(Reply("Still here."))
    again = project.run("-c", "-p", "anything else?")
    assert again.returncode == 0, again.stderr
    assert "Warning" not in again.stderr
    resumed = plain(project.api.requests[-1].body["messages"])
    assert resumed == [*after, answer("All three notes are read."), prompt("anything else?")]
    project.api.assert_clean()


def test_compacting_twice_then_resuming(project: Project) -> None:
    """The second compaction keeps note 3's round, which the first kept too (so its lines
    are before the first boundary), and the exchanges after the first."""
    _, paths = compact_while_reading(project)
    api = project.api
    api.script(Reply([text("Reading note 1 again."), tool_use("Read", {"file_path": str(
        paths[0])})], usage=NEAR_THE_WINDOW), Reply("Note 1 says note number 1."))
    second = summary_route(api, Reply(SECOND_SUMMARY))
    run = project.run("-c", "-p", "and note 1 again?")
    assert run.returncode == 0, run.stderr
    assert len(second.requests) == 1
    after = plain(main_requests(api)[-1]["messages"])
    assert "All three notes were read; the user asked for note 1 again." in json.dumps(after[0])
    assert "Reading note 3." in json.dumps(after) and "Reading note 2." not in json.dumps(after)

    lines = transcript(project)
    first, last = boundaries(lines)
    kept = lines[last]["compactMetadata"]["preservedMessages"]["uuids"]
    early = {line["uuid"] for line in lines[:first]}
    between = {line["uuid"] for line in lines[first:last]}
    assert kept[0] in early and kept[-1] in between
    assert len({line["uuid"] for line in lines}) == len(lines)

    api.script(Reply("Done."))
    again = project.run("-c", "-p", "done?")
    assert again.returncode == 0, again.stderr
    assert "Warning" not in again.stderr
    resumed = plain(api.requests[-1].body["messages"])
    assert resumed == [*after, answer("Note 1 says note number 1."), prompt("done?")]
    api.assert_clean()
