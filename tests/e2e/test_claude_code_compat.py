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
