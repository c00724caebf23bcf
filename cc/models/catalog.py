"""Models cc knows: aliases, context windows, output caps and list prices.

One table, so that `--model`, cost accounting and the output cap agree, with what each
model takes (adaptive thinking, effort). Unknown ids (a newer model, a compatible local
server) get conservative defaults, and are sent neither.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass


@dataclass(frozen=True)
class Prices:
    """US dollars per million tokens."""

    input: float
    output: float

    @property
    def cache_read(self) -> float:
        return self.input * 0.1

    @property
    def cache_write(self) -> float:
        return self.input * 1.25


@dataclass(frozen=True)
class ModelInfo:
    id: str
    context_window: int
    max_output_tokens: int
    prices: Prices
    #: It paces its own thinking (`thinking: {"type": "adaptive"}`).
    adaptive_thinking: bool = False
    #: It takes `output_config.effort` (`--effort`).
    effort: bool = False


_MODELS: dict[str, ModelInfo] = {
    m.id: m
    for m in (
        ModelInfo("claude-opus-5-5", 1_000_000, 128_000, Prices(4.0, 20.0), True, True),
        ModelInfo("claude-sonnet-5", 1_000_000, 64_000, Prices(3.0, 15.0), True, True),
        ModelInfo("claude-haiku-4-5", 200_000, 64_000, Prices(1.0, 5.0)),
        ModelInfo("claude-opus-4-6", 200_000, 32_000, Prices(5.0, 25.0), True, True),
        ModelInfo("claude-opus-4-1", 200_000, 32_000, Prices(15.0, 75.0)),
        ModelInfo("claude-sonnet-4-5", 200_000, 64_000, Prices(3.0, 15.0)),
    )
}

ALIASES: dict[str, str] = {
    "opus": "claude-opus-5-5",
    "sonnet": "claude-sonnet-5",
    "haiku": "claude-haiku-4-5",
}

DEFAULT_MODEL = "opus"
#: The small, fast model for side work (summaries, extraction).
SMALL_MODEL = "haiku"

_UNKNOWN_WINDOW = 200_000
_UNKNOWN_OUTPUT = 32_000
_UNKNOWN_PRICES = Prices(3.0, 15.0)


def resolve_model(name: str) -> str:
    """The model id for an alias or id (`opus` → its current id; ids pass through)."""
    key = name.strip()
    return ALIASES.get(key.lower(), key)


#: How Claude Code spells a model run with the 1M-token context window.
ONE_MILLION_SUFFIX = "[1m]"


def model_info(model: str) -> ModelInfo:
    model_id = resolve_model(model)
    if model_id.lower().endswith(ONE_MILLION_SUFFIX):
        base = model_info(model_id[: -len(ONE_MILLION_SUFFIX)])
        return dataclasses.replace(base, id=model_id, context_window=1_000_000)
    known = _MODELS.get(model_id)
    if known is not None:
        return known
    for prefix, info in _MODELS.items():  # dated ids: claude-haiku-4-5-20251001
        if model_id.startswith(prefix + "-"):
            return dataclasses.replace(info, id=model_id)
    return ModelInfo(model_id, _UNKNOWN_WINDOW, _UNKNOWN_OUTPUT, _UNKNOWN_PRICES)


def canonical_model(model: str) -> str:
    """The catalog's id for `model` (a dated id's base, the 1M spelling's model); an id
    the catalog does not know is its own."""
    model_id = resolve_model(model)
    if model_id.lower().endswith(ONE_MILLION_SUFFIX):
        model_id = model_id[: -len(ONE_MILLION_SUFFIX)]
    if model_id in _MODELS:
        return model_id
    return next((known for known in _MODELS if model_id.startswith(known + "-")), model_id)
