"""`--max-budget-usd`: the most a session may spend, as cc estimates it.

The estimate is the one the result record reports as `total_cost_usd`: the usage the
API reported, at the list prices of `cc.models.catalog` (a sub-agent's counts once it
ends). The loop asks after each answer whether that answer brought the spending to the
limit; if so the turn ends there (`budget_exhausted`), before the answer's tool calls
run, as Claude Code does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cc.models.messages import AssistantMessage
from cc.models.usage import ModelUsage


@dataclass(frozen=True)
class Budget:
    limit_usd: float
    #: What the session has spent so far, the answer in hand left out.
    spent_usd: Callable[[], float]

    def reached_with(self, answer: AssistantMessage, model: str) -> bool:
        """Whether the spending, `answer` included, has reached the limit."""
        return self.spent_usd() + cost_of(answer, model) >= self.limit_usd

    def error(self, answer: AssistantMessage, model: str) -> str:
        spent = self.spent_usd() + cost_of(answer, model)
        return (f"Spending reached the --max-budget-usd limit of ${self.limit_usd:g} "
                f"(about ${spent:.4f} so far)")


def cost_of(answer: AssistantMessage, model: str) -> float:
    """What one answer cost, estimated from its usage."""
    usage = ModelUsage()
    usage.add(answer.usage)
    return usage.cost_usd(answer.model or model)
