"""QueryState: what the query loop knows about itself between iterations."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class AutoCompactTracking:
    """Compaction within one turn (failures across turns are the compactor's breaker)."""

    #: A "prompt is too long" answer has been met by compacting once already.
    reactive_attempted: bool = False


@dataclass
class StructuredOutputTracking:
    """The turn's answer as a StructuredOutput call (`--json-schema`)."""

    #: Calls whose answer did not conform, and what did not in the last of them.
    misses: int = 0
    last_problems: tuple[str, ...] = ()
    #: The model, having answered without the call, was asked once to make it.
    asked: bool = False


@dataclass
class QueryState:
    model: str
    max_turns: int | None = None
    #: Model calls that counted as turns (a recovered error is not counted).
    turn_count: int = 0
    #: Raised output cap after a max_tokens stop, and how many recoveries so far.
    max_output_tokens: int | None = None
    max_tokens_recoveries: int = 0
    #: The model was asked once to answer after an empty response.
    nudged_after_empty: bool = False
    #: Responses the model's safety system stopped (stop_reason "refusal").
    safety_stops: int = 0
    #: A Stop hook has already kept this turn going once.
    stop_hook_active: bool = False
    compact: AutoCompactTracking = field(default_factory=AutoCompactTracking)
    structured: StructuredOutputTracking = field(default_factory=StructuredOutputTracking)
