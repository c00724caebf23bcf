"""RequestControls: what --thinking, --thinking-display, --effort, --task-budget and --betas
put in a request, model by model (as Claude Code 2.1.332 was seen sending them)."""

from __future__ import annotations

from typing import Any

from cc.core.client import ModelRequest
from cc.core.controls import EFFORT_BETA, TASK_BUDGET_BETA, RequestControls
from cc.prompts.builder import PromptSection

NEW, OLD = "claude-opus-5-5", "claude-sonnet-4-5"  # with and without adaptive thinking


def params(model: str, controls: RequestControls, **fields: Any) -> dict:
    request = ModelRequest(model=model, max_tokens=8000, system=[PromptSection("s", "x", cacheable=True)],
                           messages=[{"role": "user", "content": "hi"}], controls=controls,
                           **fields)
    return request.to_params()


def betas(sent: dict) -> list[str]:
    return sent.get("extra_headers", {}).get("anthropic-beta", "").split(",")


def test_adaptive_thinking_where_the_model_has_it_else_a_budget_under_the_cap() -> None:
    adaptive = RequestControls(adaptive_thinking=True, thinking_display="summarized")
    assert params(NEW, adaptive)["thinking"] == {"type": "adaptive", "display": "summarized"}
    assert params(OLD, adaptive)["thinking"] == {"type": "enabled", "budget_tokens": 7999,
                                                 "display": "summarized"}
    fixed = params(OLD, adaptive, thinking_budget=2048)["thinking"]
    assert fixed == {"type": "enabled", "budget_tokens": 2048, "display": "summarized"}


def test_no_thinking_asked_sends_none_and_a_display_alone_changes_nothing() -> None:
    assert "thinking" not in params(NEW, RequestControls(thinking_display="omitted"))
    assert params(NEW, RequestControls(), thinking_budget=4000)["thinking"] == {
        "type": "enabled", "budget_tokens": 4000}


def test_effort_only_where_the_model_takes_it_a_task_budget_everywhere() -> None:
    controls = RequestControls(effort="high", task_budget=20000)
    new = params(NEW, controls)
    assert new["output_config"] == {"effort": "high",
                                    "task_budget": {"type": "tokens", "total": 20000}}
    assert {EFFORT_BETA, TASK_BUDGET_BETA} <= set(betas(new))
    old = params(OLD, controls)
    assert old["output_config"] == {"task_budget": {"type": "tokens", "total": 20000}}
    assert EFFORT_BETA not in betas(old) and TASK_BUDGET_BETA in betas(old)
    assert "output_config" not in params(NEW, RequestControls())


def test_betas_join_the_others_once() -> None:
    controls = RequestControls(betas=("context-1m-2025-08-07",))
    sent = params(NEW + "[1m]", controls, headers={"anthropic-beta": "a-beta"})
    assert betas(sent) == ["a-beta", "context-1m-2025-08-07"]
    assert sent["model"] == NEW
    assert "extra_headers" not in params(NEW, RequestControls())
