"""What a session asks of every model request besides the conversation: the thinking
mode and how its text comes back, the effort, a task budget, and beta headers.

    --thinking adaptive|enabled   `{"type": "adaptive"}` on a model that paces its own
                                  thinking; elsewhere a budget just under the output cap
    --thinking disabled           no thinking (the settings' and MAX_THINKING_TOKENS' none)
    --max-thinking-tokens N       a fixed budget, as MAX_THINKING_TOKENS (`ModelRequest`)
    --thinking-display D          `thinking.display`, when thinking is on
    --effort L                    `output_config.effort` and the effort beta, on a model
                                  that takes it; elsewhere nothing
    --task-budget N               `output_config.task_budget` ({"type": "tokens",
                                  "total": N}) and its beta, on any model
    --betas B                     more `anthropic-beta` values

This is what Claude Code 2.1.332 was seen sending for those flags (against a scripted
API); which model takes what is in `cc.models.catalog`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cc.models.catalog import ModelInfo

EFFORT_BETA = "effort-2025-11-24"
TASK_BUDGET_BETA = "task-budgets-2026-03-13"
EFFORT_LEVELS = ("low", "medium", "high", "xhigh", "max")
#: The `--betas` Claude Code lets an API-key user add (it refuses the others).
ALLOWED_BETAS = ("context-1m-2025-08-07",)
#: The smallest thinking budget the API takes.
MIN_THINKING_BUDGET = 1024


@dataclass(frozen=True)
class RequestControls:
    adaptive_thinking: bool = False
    thinking_display: str | None = None
    effort: str | None = None
    task_budget: int | None = None
    betas: tuple[str, ...] = ()

    def thinking(self, model: ModelInfo, max_tokens: int,
                 budget: int | None) -> dict[str, Any] | None:
        """The request's `thinking` (None: none), given the fixed `budget` if any."""
        if self.adaptive_thinking and model.adaptive_thinking:
            thinking: dict[str, Any] = {"type": "adaptive"}
        else:
            if self.adaptive_thinking and budget is None:
                budget = max_tokens - 1  # a model without adaptive thinking: all it may
            if not budget:
                return None
            budget = min(budget, max_tokens - 1)
            if budget < MIN_THINKING_BUDGET:
                return None
            thinking = {"type": "enabled", "budget_tokens": budget}
        if self.thinking_display is not None:
            thinking["display"] = self.thinking_display
        return thinking

    def output_config(self, model: ModelInfo) -> dict[str, Any]:
        """The request's `output_config` entries (empty: none)."""
        config: dict[str, Any] = {}
        if self.effort is not None and model.effort:
            config["effort"] = self.effort
        if self.task_budget is not None:
            config["task_budget"] = {"type": "tokens", "total": self.task_budget}
        return config

    def beta_headers(self, model: ModelInfo) -> list[str]:
        """The `anthropic-beta` values these controls need on `model`."""
        out = list(self.betas)
        if self.effort is not None and model.effort:
            out.append(EFFORT_BETA)
        if self.task_budget is not None:
            out.append(TASK_BUDGET_BETA)
        return out

    def without_task_budget(self) -> RequestControls:
        """For requests beside the task (a compaction's summary)."""
        from dataclasses import replace

        return replace(self, task_budget=None)
