"""Compaction end to end: `python -m cc -p` against the fake API, with scripted usage
figures putting the conversation near the window. The summary request is recognised by
our instruction's opening words, and scripted on its own route."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import Project
from tests.fakeapi import FakeAPI, Fault, Reply, text, tool_use

#: In every summary request (the start of cc/prompts/compact/instruction.md).
ASKS_FOR_SUMMARY = "the conversation above is about to be replaced by a summary"
#: Far past the threshold of the default model's 1M window (1,000,000 - 33,000).
NEAR_THE_WINDOW = {"input_tokens": 990_000}
SUMMARY = "<analysis>went over it</analysis>\n<summary>The user asked to read three notes; " \
          "two were read.</summary>"


def summary_route(api: FakeAPI, *answers: Any) -> Any:
    return api.route(lambda body: ASKS_FOR_SUMMARY in json.dumps(body["messages"][-1]),
                     *answers, name="summary")


def notes(project: Project) -> list[Path]:
    paths = []
    for i in range(1, 4):
        path = project.root / f"note{i}.txt"
        path.write_text(f"note number {i}\n")
        paths.append(path)
    return paths


def reading_turns(paths: list[Path], *, high_at: int) -> list[Reply]:
    """One Read per note, the reply to the `high_at`-th reporting a near-full context."""
    turns = []
    for i, path in enumerate(paths):
        usage = NEAR_THE_WINDOW if i == high_at else None
        turns.append(Reply([text(f"Reading note {i + 1}."),
                            tool_use("Read", {"file_path": str(path)})], usage=usage))
    return turns


def main_requests(api: FakeAPI) -> list[dict[str, Any]]:
    return [r.body for r in api.requests if r.route is None]


def test_a_context_near_the_window_compacts_before_the_next_request(project: Project) -> None:
    api = project.api
    paths = notes(project)
    api.script(*reading_turns(paths, high_at=2), Reply("All three notes are read."))
    summary = summary_route(api, Reply(SUMMARY))
    run = project.run("-p", "read the three notes", "--output-format", "stream-json",
                      "--verbose")
    assert run.returncode == 0, run.stderr + run.stdout
    api.assert_clean()
    assert len(summary.requests) == 1
    main = main_requests(api)
    assert len(main) == 4
    asked = summary.requests[0].body
    # The summary request is the main request plus the instruction: same cache prefix.
    before = main[2]
    assert json.dumps(asked["system"]) == json.dumps(before["system"])
    assert json.dumps(asked["tools"]) == json.dumps(before["tools"])
    assert asked["model"] == before["model"] and asked["max_tokens"] == before["max_tokens"]
    assert json.dumps(asked["messages"][:len(before["messages"]) - 1]) == json.dumps(
        before["messages"][:-1])
    # After it: the summary first, then the recent exchanges verbatim, then the files.
    after = main[3]["messages"]
    first = json.dumps(after[0])
    assert "This session continues an earlier conversation" in first
    assert "The user asked to read three notes; two were read." in first
    assert "<analysis>" not in first and "read the three notes" not in first
    sent = json.dumps(after)
    assert "Reading note 3." in sent and "Reading note 2." in sent
    assert "Reading note 1." not in sent
    assert "note number 3" in sent  # the re-read file (and the kept result)
    records = run.records()
    boundary = [r for r in records if r.get("subtype") == "compact_boundary"]
    assert len(boundary) == 1 and boundary[0]["compact_metadata"]["trigger"] == "auto"
    assert boundary[0]["compact_metadata"]["pre_tokens"] >= 990_000
    assert records[-1]["result"] == "All three notes are read."

    # The transcript has the boundary and the summary; -c goes on from there.
    (path,) = project.config.glob("projects/*/*.jsonl")
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    marks = [i for i, line in enumerate(lines) if line.get("subtype") == "compact_boundary"]
    assert len(marks) == 1
    mark = lines[marks[0]]
    assert mark["parentUuid"] is None and mark["logicalParentUuid"]
    assert mark["compactMetadata"]["trigger"] == "auto"
    assert lines[marks[0] + 1]["isCompactSummary"] is True
    api.script(Reply("Still here."))
    again = project.run("-c", "-p", "anything else?")
    assert again.returncode == 0, again.stderr
    resumed = api.requests[-1].body["messages"]
    assert "This session continues an earlier conversation" in json.dumps(resumed[0])
    assert "read the three notes" not in json.dumps(resumed)  # compacted away
    assert resumed[-1]["content"][-1]["text"] == "anything else?"
    api.assert_clean()


def test_the_todo_list_survives_a_compaction(project: Project) -> None:
    api = project.api
    paths = notes(project)
    todos = {"todos": [{"content": "read the notes", "status": "in_progress",
                        "activeForm": "Reading the notes"},
                       {"content": "sum them up", "status": "pending",
                        "activeForm": "Summing up"}]}
    api.script(Reply([tool_use("TodoWrite", todos)]), *reading_turns(paths, high_at=2),
               Reply("Done."))
    summary_route(api, Reply(SUMMARY))
    run = project.run("-p", "read the notes, with a todo list")
    assert run.returncode == 0, run.stderr
    after = json.dumps(main_requests(api)[-1]["messages"])
    assert "The todo list before the conversation was compacted" in after
    assert "- [in_progress] read the notes" in after and "- [pending] sum them up" in after
    api.assert_clean()


def test_prompt_too_long_compacts_once_and_retries(project: Project) -> None:
    api = project.api
    paths = notes(project)
    api.script(*reading_turns(paths, high_at=-1), Reply("Read them."))
    first = project.run("-p", "read the notes")
    assert first.returncode == 0, first.stderr
    too_long = Fault(400, message="prompt is too long: 1050000 tokens > 1000000 maximum")
    api.script(too_long, Reply("Answer after compacting."))
    summary = summary_route(api, Reply(SUMMARY))
    run = project.run("-c", "-p", "and now?", "--output-format", "json")
    assert run.returncode == 0, run.stderr + run.stdout
    assert run.json()["result"] == "Answer after compacting."
    assert len(summary.requests) == 1
    retried = api.requests[-1].body["messages"]
    assert "This session continues an earlier conversation" in json.dumps(retried[0])
    api.assert_clean()


def test_a_second_prompt_too_long_in_a_turn_ends_it(project: Project) -> None:
    api = project.api
    paths = notes(project)
    api.script(*reading_turns(paths, high_at=-1), Reply("Read them."))
    assert project.run("-p", "read the notes").returncode == 0
    too_long = Fault(400, message="prompt is too long: 1050000 tokens > 1000000 maximum")
    api.script(too_long, too_long)
    summary_route(api, Reply(SUMMARY))
    run = project.run("-c", "-p", "and now?", "--output-format", "json")
    assert run.returncode == 1
    result = run.json()
    assert result["is_error"] is True and "still too long" in result["result"]
    api.assert_clean()


def test_three_failed_summaries_trip_the_breaker(project: Project) -> None:
    api = project.api
    paths = [project.root / f"f{i}.txt" for i in range(6)]
    for path in paths:
        path.write_text("x\n")
    turns = [Reply([tool_use("Read", {"file_path": str(p)})], usage=NEAR_THE_WINDOW)
             for p in paths]
    api.script(*turns, Reply("done"))
    broken = Fault(400, message="the summary could not be made")
    summary = summary_route(api, *([broken] * 6))
    run = project.run("-p", "read them all", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    assert run.json()["result"] == "done"
    # Each attempt: the summary request and the plain fallback; three attempts, then none.
    assert len(summary.requests) == 6
    # each carries the session's header, as every request of the session does
    session = api.requests[0].headers["x-claude-code-session-id"]
    assert {r.headers.get("x-claude-code-session-id") for r in summary.requests} == {session}
    assert run.stderr.count("the summary request failed") == 3
    assert "too few" not in run.stderr  # the first request had too little: no attempt, no noise
    assert "compaction is off for the rest of the session" in run.stderr
    api.assert_clean()


def test_manual_compact_in_print_mode(project: Project) -> None:
    api = project.api
    paths = notes(project)
    api.script(*reading_turns(paths, high_at=-1), Reply("Read them."))
    assert project.run("-p", "read the notes").returncode == 0
    summary = summary_route(api, Reply(SUMMARY))
    run = project.run("-c", "-p", "/compact focus on the tests", "--output-format",
                      "stream-json", "--verbose")
    assert run.returncode == 0, run.stderr + run.stdout
    records = run.records()
    result = records[-1]
    assert result["type"] == "result" and result["is_error"] is False
    assert result["result"] == "" and result["num_turns"] == 0
    replay = [r for r in records if r.get("isReplay")]
    assert len(replay) == 1 and "<local-command-stdout>Compacted" in json.dumps(replay[0])
    assert "Additional instructions from the user:\\nfocus on the tests" in json.dumps(
        summary.requests[0].body["messages"][-1])
    api.script(Reply("ok"))
    assert project.run("-c", "-p", "go on").returncode == 0
    assert "The user asked to read three notes" in json.dumps(api.requests[-1].body["messages"][0])
    api.assert_clean()


def test_too_little_to_compact_is_reported(project: Project) -> None:
    api = project.api
    api.script(Reply("hello"))
    assert project.run("-p", "hi").returncode == 0
    run = project.run("-c", "-p", "/compact")
    assert run.returncode == 1
    assert "too few exchanges" in run.stdout + run.stderr
    assert len(api.requests) == 1


def hooks_logging(project: Project, events: tuple[str, ...], *, block: str | None = None) -> Path:
    """Hooks for `events` that log their stdin; the `block` event's hook exits 2."""
    log = project.root / "hooks.log"
    hook = project.root / "hook.sh"
    hook.write_text(f"#!/usr/bin/env bash\nline=$(cat)\necho \"$line\" >> {log}\n"
                    f"case \"$line\" in *'\"hook_event_name\": \"{block}\"'*|"
                    f"*'\"hook_event_name\":\"{block}\"'*) echo 'not now' >&2; exit 2;; esac\n")
    hook.chmod(0o755)
    entry = [{"hooks": [{"type": "command", "command": str(hook)}]}]
    settings = project.root / ".claude" / "settings.json"
    settings.parent.mkdir(exist_ok=True)
    settings.write_text(json.dumps({"hooks": {event: entry for event in events}}))
    return log


def logged(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


def test_compaction_hooks(project: Project) -> None:
    api = project.api
    paths = notes(project)
    api.script(*reading_turns(paths, high_at=-1), Reply("Read them."))
    assert project.run("-p", "read the notes").returncode == 0
    log = hooks_logging(project, ("PreCompact", "SessionStart", "PostCompact"))
    summary_route(api, Reply(SUMMARY))
    run = project.run("-c", "-p", "/compact keep the paths")
    assert run.returncode == 0, run.stderr
    seen = [(e["hook_event_name"], e.get("trigger") or e.get("source")) for e in logged(log)]
    assert seen == [("SessionStart", "resume"), ("PreCompact", "manual"),
                    ("SessionStart", "compact"), ("PostCompact", "manual")]
    pre, post = logged(log)[1], logged(log)[3]
    assert pre["custom_instructions"] == "keep the paths"
    assert "<summary>The user asked to read three notes" in post["compact_summary"]
    api.assert_clean()


def test_a_precompact_hook_that_exits_2_blocks_it(project: Project) -> None:
    api = project.api
    paths = notes(project)
    api.script(*reading_turns(paths, high_at=-1), Reply("Read them."))
    assert project.run("-p", "read the notes").returncode == 0
    hooks_logging(project, ("PreCompact",), block="PreCompact")
    summary = summary_route(api, Reply(SUMMARY))
    run = project.run("-c", "-p", "/compact")
    assert run.returncode == 1
    assert "PreCompact hook blocked it" in run.stdout + run.stderr
    assert summary.requests == [] and summary.turns_left == 1
    api.script(Reply("ok"))
    assert project.run("-c", "-p", "go on").returncode == 0
    assert "read the notes" in json.dumps(api.requests[-1].body["messages"])  # untouched
