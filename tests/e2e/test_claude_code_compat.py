"""Transcripts cross over: Claude Code resumes a cc session, and cc resumes a Claude Code one.

Opt-in: set CC_CLAUDE_BIN to a `claude` executable (npm i @anthropic-ai/claude-code). It
talks only to the fake API, with the same temporary config folder as cc.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.conftest import Project
from tests.fakeapi import Reply, text, tool_use

CLAUDE = os.environ.get("CC_CLAUDE_BIN")
pytestmark = pytest.mark.skipif(
    not CLAUDE,
    reason="opt-in: needs Claude Code itself (npm i @anthropic-ai/claude-code); "
    "set CC_CLAUDE_BIN to its claude executable to run these",
)


def run_claude(project: Project, *args: str) -> dict:
    env = {**project.base_env(), "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
           "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1"}
    proc = subprocess.run([str(CLAUDE), *args, "--output-format", "json"], cwd=project.root,
                          env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def conversation(body: dict) -> str:
    return json.dumps([m for m in body["messages"] if m["role"] in ("user", "assistant")])


def test_claude_code_resumes_a_cc_session(project: Project) -> None:
    readme = project.root / "README.md"
    readme.write_text("# Demo\nprimes\n")
    project.api.script(Reply([text("Reading."), tool_use("Read", {"file_path": str(readme)})]),
                       Reply([text("It says primes.")]))
    sid = project.run("-p", "what does README.md say?", "--output-format", "json").json()[
        "session_id"]
    seen = len(project.api.bodies)
    project.api.script(*[Reply([text("resumed by Claude Code")]) for _ in range(4)])
    result = run_claude(project, "-p", "-r", sid, "what did I ask?")
    assert result["result"] == "resumed by Claude Code"
    sent = conversation(project.api.bodies[seen])
    for piece in ("what does README.md say?", "toolu_", "2\\tprimes", "It says primes."):
        assert piece in sent
    # Claude Code rebuilds a system message after the first prompt from cc's opening
    # lines: the environment, never an empty message
    messages = project.api.bodies[seen]["messages"]
    assert all(m["content"] not in ("", []) for m in messages), messages
    assert messages[1]["role"] == "system" and str(project.root) in json.dumps(messages[1])


def test_cc_resumes_a_claude_code_session(project: Project) -> None:
    readme = project.root / "README.md"
    readme.write_text("# Demo\nprimes\n")
    project.api.script(Reply([text("Reading."), tool_use("Read", {"file_path": str(readme)})]),
                       *[Reply([text("It says primes.")]) for _ in range(3)])
    sid = run_claude(project, "-p", "what does README.md say?")["session_id"]
    project.api.script(Reply([text("resumed by cc")]))
    run = project.run("-r", sid, "-p", "what did I ask?", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    assert run.json()["session_id"] == sid
    body = project.api.bodies[-1]
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user", "assistant",
                                                     "user"]
    assert "2\\tprimes" in conversation(body)
    assert "Warning" not in run.stderr


def test_claude_code_resumes_a_session_cc_compacted(project: Project) -> None:
    """cc names the kept lines on the boundary as Claude Code does; Claude Code puts them
    back after the summary."""
    from tests.compact.test_kept_by_uuid_e2e import compact_while_reading

    _, _paths = compact_while_reading(project)
    sid = json.loads(next(project.config.glob("projects/*/*.jsonl")).read_text()
                     .splitlines()[0])["sessionId"]
    seen = len(project.api.requests)
    project.api.script(*[Reply([text("resumed by Claude Code")]) for _ in range(4)])
    result = run_claude(project, "-p", "-r", sid, "which notes are read?")
    assert result["result"] == "resumed by Claude Code"
    sent = conversation(project.api.bodies[seen])
    for piece in ("The user asked to read three notes; two were read.", "Reading note 2.",
                  "note number 2", "Reading note 3.", "note number 3", "All three notes are read.",
                  "which notes are read?"):
        assert piece in sent, piece
    assert sent.index("two were read.") < sent.index("Reading note 3.") < sent.index(
        "All three notes are read.") < sent.index("which notes are read?")
    assert "Reading note 1." not in sent


def test_cc_resumes_a_session_claude_code_compacted(project: Project) -> None:
    """Claude Code's /compact keeps the last answer by uuid; cc puts it after the summary."""
    api = project.api
    api.route(lambda body: "<summary>" in json.dumps(body["messages"][-1]),
              Reply("<analysis>a</analysis>\n<summary>Asked two questions.</summary>"),
              name="summary")
    api.script(Reply([text("First answer.")]))
    sid = run_claude(project, "-p", "first question")["session_id"]
    api.script(Reply([text("Second answer.")]))
    run_claude(project, "-p", "-c", "second question")
    run_claude(project, "-p", "-c", "/compact")
    (path,) = project.config.glob("projects/*/*.jsonl")
    marks = [json.loads(x) for x in path.read_text().splitlines() if "compact_boundary" in x]
    assert "preservedSegment" in marks[-1]["compactMetadata"], "no partial compaction"
    seen = len(api.requests)
    api.script(Reply([text("resumed by cc")]))
    run = project.run("-c", "-p", "third question", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    assert run.json()["session_id"] == sid
    assert "Warning" not in run.stderr
    (body,) = api.bodies[seen:]
    sent = conversation(body)
    assert "Asked two questions." in sent and "Second answer." in sent
    assert sent.index("Asked two questions.") < sent.index("Second answer.") < sent.index(
        "third question")
    assert "second question" not in sent  # summarised away
    # (Claude Code's own requests carry `system` messages the fake flags; cc's is clean)
    assert not [v for v in api.violations if v.startswith(f"request {seen}:")]
