"""The flags the official Agent SDK puts on cc's command line, end to end."""

from __future__ import annotations

from tests.conftest import Project
from tests.fakeapi import Fault, Reply, text

STREAM = ("--output-format", "stream-json", "--verbose")


def test_fallback_model_record_and_text_mode_line(project: Project) -> None:
    project.api.script(*[Fault(529) for _ in range(3)], Reply([text("from sonnet")]))
    run = project.run("-p", "hi", "--fallback-model", "sonnet", *STREAM)
    assert run.returncode == 0, run.stderr
    records = run.records()
    kinds = [r["type"] if r["type"] != "system" else r["subtype"] for r in records]
    assert kinds == ["init", "api_retry", "api_retry", "model_fallback", "assistant", "result"]
    moved = records[3]
    assert {k: moved[k] for k in ("trigger", "original_model", "fallback_model")} == {
        "trigger": "overloaded", "original_model": "claude-opus-5-5",
        "fallback_model": "claude-sonnet-5"}
    assert set(moved) == {"type", "subtype", "uuid", "trigger", "original_model",
                          "fallback_model", "content", "session_id"}
    assert records[-1]["result"] == "from sonnet"
    assert list(records[-1]["modelUsage"]) == ["claude-sonnet-5"]

    project.api.script(Fault(500), Reply([text("from haiku")]))
    run = project.run("-p", "hi", "--fallback-model", "haiku")
    assert run.returncode == 0
    assert run.stdout == "from haiku\n"
    assert "claude-haiku-4-5" in run.stderr
