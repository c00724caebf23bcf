"""RequestControls: what --thinking, --thinking-display, --effort, --task-budget and --betas
put in a request, model by model (as Claude Code 2.1.332 was seen sending them)."""

from __future__ import annotations

from typing import Any

import pytest

from cc.core.client import ModelRequest
from cc.core.controls import EFFORT_BETA, TASK_BUDGET_BETA, RequestControls
from cc.core.dialect import CONSERVATIVE, FULL, PLAIN, Dialect
from cc.prompts.builder import PromptSection

NEW, OLD = "claude-opus-5-5", "claude-sonnet-4-5"  # with and without adaptive thinking


def params(model: str, controls: RequestControls, dialect: Dialect = FULL,
           **fields: Any) -> dict:
    fields.setdefault("max_tokens", 8000)
    request = ModelRequest(model=model, system=[PromptSection("s", "x", cacheable=True)],
                           messages=[{"role": "user", "content": "hi"}], controls=controls,
                           **fields)
    return request.to_params(dialect)


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
    # unasked, a model that takes effort gets its own default (Claude Code 2.1.332's)
    assert params(NEW, RequestControls())["output_config"] == {"effort": "medium"}
    assert params("claude-opus-4-6", RequestControls())["output_config"] == {"effort": "high"}
    assert "output_config" not in params(OLD, RequestControls())


def test_betas_join_the_others_once() -> None:
    controls = RequestControls(betas=("context-1m-2025-08-07",))
    sent = params(OLD + "[1m]", controls, headers={"anthropic-beta": "a-beta"})
    assert betas(sent) == ["a-beta", "claude-code-20250219", "context-1m-2025-08-07"]
    assert sent["model"] == OLD


# What Claude Code 2.1.332 was seen sending, model by model, with nothing configured but
# thinking on: (model, max_tokens, thinking, effort, betas).
SEEN = [
    ("claude-opus-5-5", 128000, {"type": "adaptive"}, "medium",
     "claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27,"
     "per-turn-control-2026-07-01,mid-conversation-tool-changes-2026-07-01,"
     "thinking-token-count-2026-05-13,advanced-tool-use-2025-11-20,effort-2025-11-24"),
    ("claude-opus-4-6", 64000, {"type": "adaptive"}, "high",
     "claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27,"
     "thinking-token-count-2026-05-13,advanced-tool-use-2025-11-20,effort-2025-11-24"),
    ("claude-sonnet-4-5", 32000, {"type": "enabled", "budget_tokens": 31999}, None,
     "claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27,"
     "thinking-token-count-2026-05-13,advanced-tool-use-2025-11-20"),
    ("claude-3-5-sonnet-20241022", 8192, None, None, "claude-code-20250219"),
]


@pytest.mark.parametrize(("model", "cap", "thinking", "effort", "beta"), SEEN)
def test_each_model_gets_what_claude_code_sends_it(model: str, cap: int, thinking: Any,
                                                   effort: str | None, beta: str) -> None:
    from cc.models.catalog import model_info

    on = RequestControls(adaptive_thinking=True)
    sent = params(model, on, max_tokens=model_info(model).max_output_tokens)
    assert sent["max_tokens"] == cap
    assert sent.get("thinking") == thinking
    assert sent.get("output_config", {}).get("effort") == effort
    assert sent["extra_headers"]["anthropic-beta"] == beta
    managed = {"edits": [{"type": "clear_thinking_20251015", "keep": "all"}]}
    assert sent.get("context_management") == (managed if thinking else None)


def test_without_experimental_betas_and_in_the_plain_dialect() -> None:
    on = RequestControls(adaptive_thinking=True, thinking_display="omitted",
                         betas=("context-1m-2025-08-07",))
    conservative = params(NEW, on, dialect=CONSERVATIVE)
    assert conservative["thinking"] == {"type": "adaptive"}  # no display
    assert "context_management" not in conservative
    assert betas(conservative) == ["claude-code-20250219", "interleaved-thinking-2025-05-14",
                                   "effort-2025-11-24", "context-1m-2025-08-07"]
    plain = params(NEW, on, dialect=PLAIN)
    assert "extra_headers" not in plain and "thinking" not in plain
    assert "output_config" not in plain and "context_management" not in plain
    fixed = params(NEW, RequestControls(), thinking_budget=2048, dialect=PLAIN)
    assert fixed["thinking"] == {"type": "enabled", "budget_tokens": 2048}


def test_always_thinking_off_leaves_a_budget_model_without_thinking() -> None:
    controls = RequestControls(adaptive_thinking=True, budget_fallback=False)
    assert "thinking" not in params(OLD, controls)
    assert params(NEW, controls)["thinking"] == {"type": "adaptive"}
