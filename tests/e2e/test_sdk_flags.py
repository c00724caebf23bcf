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


def test_thinking_effort_task_budget_and_betas_reach_the_request(project: Project) -> None:
    project.api.script(Reply([text("ok")]))
    run = project.run("-p", "hi", "--thinking", "adaptive", "--thinking-display", "summarized",
                      "--effort", "max", "--task-budget", "20000",
                      "--betas", "context-1m-2025-08-07", *STREAM)
    assert run.returncode == 0, run.stderr
    sent = project.api.requests[-1]
    assert sent.body["thinking"] == {"type": "adaptive", "display": "summarized"}
    assert sent.body["output_config"] == {"effort": "max",
                                          "task_budget": {"type": "tokens", "total": 20000}}
    assert set(sent.headers["anthropic-beta"].split(",")) == {
        "context-1m-2025-08-07", "effort-2025-11-24", "task-budgets-2026-03-13"}
    assert run.records()[0]["betas"] == ["context-1m-2025-08-07"]
    project.api.assert_clean()


def test_thinking_disabled_wins_over_the_environment_and_odd_values_are_warned_of(
        project: Project) -> None:
    project.env["MAX_THINKING_TOKENS"] = "4096"
    project.api.script(Reply([text("ok")]), Reply([text("ok")]))
    run = project.run("-p", "hi", "--thinking", "disabled", "--effort", "hard",
                      "--betas", "made-up-2099-01-01", *STREAM)
    assert run.returncode == 0, run.stderr
    body = project.api.requests[-1].body
    assert "thinking" not in body and "output_config" not in body
    assert "anthropic-beta" not in project.api.requests[-1].headers
    assert "--effort 'hard'" in run.stderr and "made-up-2099-01-01" in run.stderr
    assert "betas" not in run.records()[0]
    run = project.run("-p", "hi", "--max-thinking-tokens", "2048")
    assert project.api.requests[-1].body["thinking"] == {"type": "enabled", "budget_tokens": 2048}


def test_invalid_values_of_the_thinking_flags_are_refused(project: Project) -> None:
    for args in (("--thinking", "lots"), ("--thinking-display", "loud"),
                 ("--task-budget", "0"), ("--max-thinking-tokens", "many")):
        run = project.run("-p", "hi", *args)
        assert run.returncode == 1 and args[0] in run.stderr, args
    assert project.api.bodies == []
