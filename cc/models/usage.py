"""Token usage and its cost, summed over a session, per model."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from cc.models.catalog import model_info

#: The token counts of a response's `usage`.
TOKEN_COUNTS = ("input_tokens", "output_tokens", "cache_creation_input_tokens",
                "cache_read_input_tokens")


def zeroed_usage(usage: dict[str, Any]) -> dict[str, Any]:
    """`usage` with its token counts at 0, for a message a compaction kept verbatim: its
    figures tell the size of a context that no longer exists (Claude Code zeroes them
    too), and the size of the new one is estimated instead."""
    return usage | {key: 0 for key in TOKEN_COUNTS} if usage else usage


@dataclass
class ModelUsage:
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_input_tokens: int = 0
    cache_creation_input_tokens: int = 0
    web_search_requests: int = 0
    #: Of the output, thinking (when the API says: `output_tokens_details`).
    thinking_tokens: int = 0
    #: Of the cache writes, those kept 5 minutes and an hour (`cache_creation`).
    cache_creation_5m_tokens: int = 0
    cache_creation_1h_tokens: int = 0

    def add(self, usage: dict[str, Any]) -> None:
        self.input_tokens += int(usage.get("input_tokens") or 0)
        self.output_tokens += int(usage.get("output_tokens") or 0)
        self.cache_read_input_tokens += int(usage.get("cache_read_input_tokens") or 0)
        self.cache_creation_input_tokens += int(usage.get("cache_creation_input_tokens") or 0)
        server = usage.get("server_tool_use") or {}
        self.web_search_requests += int(server.get("web_search_requests") or 0)
        details = usage.get("output_tokens_details") or {}
        self.thinking_tokens += int(details.get("thinking_tokens") or 0)
        cache = usage.get("cache_creation") or {}
        self.cache_creation_5m_tokens += int(cache.get("ephemeral_5m_input_tokens") or 0)
        self.cache_creation_1h_tokens += int(cache.get("ephemeral_1h_input_tokens") or 0)

    def plus(self, other: ModelUsage, sign: int = 1) -> ModelUsage:
        """The sum of both (`sign` -1: the difference), count by count."""
        return ModelUsage(*(getattr(self, f.name) + sign * getattr(other, f.name)
                            for f in dataclasses.fields(self)))

    @property
    def tokens(self) -> int:
        """Every token of the requests and answers (what a sub-agent report counts)."""
        return (self.input_tokens + self.output_tokens + self.cache_read_input_tokens
                + self.cache_creation_input_tokens)

    def cost_usd(self, model: str) -> float:
        p = model_info(model).prices
        return (
            self.input_tokens * p.input
            + self.output_tokens * p.output
            + self.cache_read_input_tokens * p.cache_read
            + self.cache_creation_input_tokens * p.cache_write
        ) / 1_000_000


@dataclass
class UsageTotals:
    """Usage of the whole session, kept per model as Claude Code's `modelUsage` is."""

    by_model: dict[str, ModelUsage] = field(default_factory=dict)
    api_duration_ms: int = 0

    def add(self, model: str, usage: dict[str, Any]) -> None:
        self.by_model.setdefault(model, ModelUsage()).add(usage)

    def merge(self, other: UsageTotals) -> None:
        """Add another agent's usage (a sub-agent's counts in its session's cost)."""
        for model, u in other.by_model.items():
            self.by_model[model] = self.by_model.get(model, ModelUsage()).plus(u)

    def since(self, earlier: UsageTotals) -> UsageTotals:
        """What was added after `earlier` (a snapshot of these totals)."""
        out = UsageTotals(api_duration_ms=self.api_duration_ms - earlier.api_duration_ms)
        for model, u in self.by_model.items():
            out.by_model[model] = u.plus(earlier.by_model.get(model, ModelUsage()), -1)
        return out

    def snapshot(self) -> UsageTotals:
        """A copy that later additions leave alone."""
        return UsageTotals({m: dataclasses.replace(u) for m, u in self.by_model.items()},
                           self.api_duration_ms)

    @property
    def total(self) -> ModelUsage:
        out = ModelUsage()
        for u in self.by_model.values():
            out = out.plus(u)
        return out

    @property
    def cost_usd(self) -> float:
        return sum(u.cost_usd(m) for m, u in self.by_model.items())
