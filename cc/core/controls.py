"""What a session asks of every model request besides the conversation: thinking, its
display, the effort, a task budget, and beta headers; and how they meet the model and the
endpoint's dialect (`cc.core.dialect`).

    (nothing)                     thinking on, as the model takes it: adaptive where it
                                  paces its own, else a budget just under the output cap;
                                  the model's default effort
    --thinking disabled           no thinking (also MAX_THINKING_TOKENS=0, --max-thinking-
                                  tokens 0, alwaysThinkingEnabled: false on a budget model)
    --max-thinking-tokens N       a fixed budget, as MAX_THINKING_TOKENS on a budget model
    --thinking-display D          `thinking.display`, when thinking is on (print mode's
                                  text and json output: omitted)
    --effort L / effortLevel      `output_config.effort` and the effort beta, on a model
                                  that takes it; elsewhere nothing
    --task-budget N               `output_config.task_budget` and its beta, on any model
    --betas B                     more `anthropic-beta` values

Betas, as Claude Code 2.1.332 sends them: `claude-code-20250219` on every request; with
thinking, the interleaved-thinking, context-management, thinking-token-count and
advanced-tool-use betas and `context_management: clear_thinking (keep all)`; the
model's own (`ModelInfo.betas`); effort's; the 1M window's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from cc.core.dialect import FULL, Dialect
from cc.models.catalog import ModelInfo

CLAUDE_CODE_BETA = "claude-code-20250219"
INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14"
CONTEXT_MANAGEMENT_BETA = "context-management-2025-06-27"
THINKING_TOKEN_COUNT_BETA = "thinking-token-count-2026-05-13"
#: What `defer_loading` tools and `tool_reference` blocks need.
TOOL_SEARCH_BETA = "advanced-tool-use-2025-11-20"
EFFORT_BETA = "effort-2025-11-24"
TASK_BUDGET_BETA = "task-budgets-2026-03-13"
#: The beta that opens the 1M-token context window on a 200k model.
CONTEXT_1M_BETA = "context-1m-2025-08-07"
#: What a one-hour prompt cache (`cache_control.ttl: 1h`) needs.
EXTENDED_CACHE_TTL_BETA = "extended-cache-ttl-2025-04-11"
#: The prompt cache's lifetimes: Claude Code's `promptCacheTtl` values, and off.
CACHE_TTLS = ("5m", "1h", "off")
#: The betas that stay when experimental ones are off (CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS).
_STABLE_BETAS = frozenset({CLAUDE_CODE_BETA, INTERLEAVED_THINKING_BETA, EFFORT_BETA,
                           CONTEXT_1M_BETA, TASK_BUDGET_BETA, EXTENDED_CACHE_TTL_BETA})
EFFORT_LEVELS = ("low", "medium", "high", "xhigh", "max")
#: The `--betas` Claude Code lets an API-key user add (it refuses the others).
ALLOWED_BETAS = (CONTEXT_1M_BETA,)
#: The smallest thinking budget the API takes.
MIN_THINKING_BUDGET = 1024


@dataclass(frozen=True)
class RequestControls:
    #: Thinking on, paced by the model where it can (off: none unless a fixed budget).
    #: Off by default: requests beside the conversation do not think; the session's
    #: options turn it on for the conversation.
    adaptive_thinking: bool = False
    #: With adaptive thinking on, a model that cannot pace its own thinks on a budget
    #: just under the cap (settings `alwaysThinkingEnabled: false`: it does not).
    budget_fallback: bool = True
    thinking_display: str | None = None
    #: None: the model's default effort.
    effort: str | None = None
    task_budget: int | None = None
    betas: tuple[str, ...] = ()
    #: How long the prompt cache keeps what a request marks: 5m, 1h, or off (no marks).
    cache_ttl: str = "5m"
    #: A sub-agent's (settings `subagentPromptCacheTtl`); None: the same as the session's.
    subagent_cache_ttl: str | None = None

    def thinking(self, model: ModelInfo, max_tokens: int, budget: int | None,
                 dialect: Dialect = FULL) -> dict[str, Any] | None:
        """The request's `thinking` (None: none), given the fixed `budget` if any."""
        if model.thinking == "none":
            return None
        if self.adaptive_thinking and model.adaptive_thinking and dialect.extensions:
            thinking: dict[str, Any] = {"type": "adaptive"}
        else:
            if (self.adaptive_thinking and self.budget_fallback and budget is None
                    and dialect.extensions):
                budget = max_tokens - 1  # a model without adaptive thinking: all it may
            if not budget:
                return None
            budget = min(budget, max_tokens - 1)
            if budget < MIN_THINKING_BUDGET:
                return None
            thinking = {"type": "enabled", "budget_tokens": budget}
        if self.thinking_display is not None and dialect.experimental:
            thinking["display"] = self.thinking_display
        return thinking

    def effort_for(self, model: ModelInfo) -> str | None:
        return (self.effort or model.default_effort) if model.effort else None

    def output_config(self, model: ModelInfo, dialect: Dialect = FULL) -> dict[str, Any]:
        """The request's `output_config` entries (empty: none)."""
        if not dialect.extensions:
            return {}
        config: dict[str, Any] = {}
        effort = self.effort_for(model)
        if effort is not None:
            config["effort"] = effort
        if self.task_budget is not None:
            config["task_budget"] = {"type": "tokens", "total": self.task_budget}
        return config

    def beta_headers(self, model: ModelInfo, *, thinking: bool,
                     dialect: Dialect = FULL) -> list[str]:
        """The `anthropic-beta` values these controls need on `model`, in Claude Code's
        order (empty in the plain dialect)."""
        if not dialect.betas:
            return []
        out = [CLAUDE_CODE_BETA]
        if thinking:
            out += [INTERLEAVED_THINKING_BETA, CONTEXT_MANAGEMENT_BETA]
        out += model.betas
        if thinking:
            out += [THINKING_TOKEN_COUNT_BETA, TOOL_SEARCH_BETA]
        if self.effort_for(model) is not None:
            out.append(EFFORT_BETA)
        if self.task_budget is not None:
            out.append(TASK_BUDGET_BETA)
        if self.cache_ttl == "1h":
            out.append(EXTENDED_CACHE_TTL_BETA)
        out += self.betas
        if not dialect.experimental:
            out = [b for b in out if b in _STABLE_BETAS or b in self.betas]
        return out

    def context_management(self, *, thinking: bool, dialect: Dialect = FULL
                           ) -> dict[str, Any] | None:
        """`context_management` (keep every thinking block) when thinking is on."""
        if not (thinking and dialect.experimental):
            return None
        # (every thinking block stays: the conversation's prefix is cached as it is)
        return {"edits": [{"type": "clear_thinking_20251015", "keep": "all"}]}

    def cache_control(self, dialect: Dialect = FULL) -> dict[str, Any] | None:
        """What a cache breakpoint says (None: the prompt cache is off). An endpoint that
        takes no betas gets the default lifetime."""
        if self.cache_ttl == "off":
            return None
        if self.cache_ttl == "1h" and dialect.betas:
            return {"type": "ephemeral", "ttl": "1h"}
        return {"type": "ephemeral"}

    def for_subagent(self) -> RequestControls:
        """A sub-agent's: the same, with the sub-agents' cache lifetime if one is set."""
        return replace(self, cache_ttl=self.subagent_cache_ttl or self.cache_ttl)

    def without_task_budget(self) -> RequestControls:
        """For requests beside the task (a compaction's summary)."""
        return replace(self, task_budget=None)
