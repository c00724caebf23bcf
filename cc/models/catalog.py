"""Models cc knows: aliases, context windows, output caps, list prices, and what each
takes in a request (thinking, effort, betas).

One table, so that `--model`, cost accounting, the output cap and the request agree.
The figures are Claude Code 2.1.332's, read off its requests and its result's
`modelUsage` against a scripted API:

    alias              model id             window  max_tokens  thinking    effort
    opus, best,        claude-opus-5-5      1M      128000      adaptive    medium
      default
    sonnet             claude-sonnet-5-5    1M      128000      adaptive    medium
    haiku              claude-haiku-5-5     1M      128000      adaptive    medium
    fable              claude-fable-5-2     1M      128000      adaptive    medium
    opusplan           opus in plan mode, sonnet otherwise
    <any>[1m]          the same id, with the 1M window (and its beta on a 200k model)
    claude-opus-4-6                         200k    64000       adaptive    high
    claude-sonnet-4-5, claude-haiku-4-5     200k    32000       a budget    -
    claude-3-5-…                            200k    8192        -           -

An id the table does not know (a newer model, a gateway's name) is treated as a current
model with conservative limits (200k window, 32000 out); against an endpoint that is not
Anthropic's the request degrades anyway (`cc.core.dialect`). `ANTHROPIC_DEFAULT_OPUS_MODEL`,
`…_SONNET_MODEL` and `…_HAIKU_MODEL` (or the older ANTHROPIC_SMALL_FAST_MODEL) re-point
the aliases, as in Claude Code. (cc makes no request of its own on a small model: its
side requests go to the session's model, as Claude Code 2.1.332's were seen to.)
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

Thinking = Literal["adaptive", "budget", "none"]


@dataclass(frozen=True)
class Prices:
    """US dollars per million tokens."""

    input: float
    output: float
    cache_read: float
    cache_write: float


def _prices(input_: float, output: float, cache_read: float | None = None) -> Prices:
    """List prices: a cache write costs 1.25× input, a read 0.1× unless given."""
    read = input_ * 0.1 if cache_read is None else cache_read
    return Prices(input_, output, read, input_ * 1.25)


#: The betas Claude Code sends for a current model beyond those every model gets.
CURRENT_BETAS = ("per-turn-control-2026-07-01", "mid-conversation-tool-changes-2026-07-01")


@dataclass(frozen=True)
class ModelInfo:
    id: str
    context_window: int
    #: The request's default `max_tokens` (CLAUDE_CODE_MAX_OUTPUT_TOKENS lowers it).
    max_output_tokens: int
    prices: Prices
    thinking: Thinking = "none"
    #: The effort a request asks for when none is configured (None: it takes none).
    default_effort: str | None = None
    #: Betas of its generation (on top of those of its thinking and effort).
    betas: tuple[str, ...] = ()

    @property
    def adaptive_thinking(self) -> bool:
        """It paces its own thinking (`thinking: {"type": "adaptive"}`)."""
        return self.thinking == "adaptive"

    @property
    def effort(self) -> bool:
        """It takes `output_config.effort`."""
        return self.default_effort is not None


_MODELS: dict[str, ModelInfo] = {
    m.id: m
    for m in (
        ModelInfo("claude-opus-5-5", 1_000_000, 128_000, _prices(4.0, 20.0, 0.2),
                  "adaptive", "medium", CURRENT_BETAS),
        ModelInfo("claude-sonnet-5-5", 1_000_000, 128_000, _prices(2.0, 10.0, 0.1),
                  "adaptive", "medium", CURRENT_BETAS),
        ModelInfo("claude-haiku-5-5", 1_000_000, 128_000, _prices(0.5, 0.5),
                  "adaptive", "medium", CURRENT_BETAS),
        ModelInfo("claude-fable-5-2", 1_000_000, 128_000, _prices(8.0, 40.0, 0.2),
                  "adaptive", "medium", CURRENT_BETAS),
        ModelInfo("claude-sonnet-5", 1_000_000, 64_000, _prices(3.0, 15.0),
                  "adaptive", "high"),
        ModelInfo("claude-opus-4-6", 200_000, 64_000, _prices(5.0, 25.0), "adaptive", "high"),
        ModelInfo("claude-opus-4-1", 200_000, 32_000, _prices(15.0, 75.0), "budget"),
        ModelInfo("claude-sonnet-4-5", 200_000, 32_000, _prices(3.0, 15.0), "budget"),
        ModelInfo("claude-haiku-4-5", 200_000, 32_000, _prices(1.0, 5.0), "budget"),
        ModelInfo("claude-3-5-sonnet", 200_000, 8_192, _prices(3.0, 15.0)),
        ModelInfo("claude-3-5-haiku", 200_000, 8_192, _prices(0.8, 4.0)),
    )
}

ALIASES: dict[str, str] = {
    "opus": "claude-opus-5-5",
    "sonnet": "claude-sonnet-5-5",
    "haiku": "claude-haiku-5-5",
    "fable": "claude-fable-5-2",
    "best": "claude-opus-5-5",
    "default": "claude-opus-5-5",
}
#: The environment variables that re-point each family's alias, the first set winning
#: (ANTHROPIC_SMALL_FAST_MODEL is Claude Code's older name for the Haiku-class model).
_ALIAS_ENV = {"opus": ("ANTHROPIC_DEFAULT_OPUS_MODEL",),
              "best": ("ANTHROPIC_DEFAULT_OPUS_MODEL",),
              "default": ("ANTHROPIC_DEFAULT_OPUS_MODEL",),
              "sonnet": ("ANTHROPIC_DEFAULT_SONNET_MODEL",),
              "haiku": ("ANTHROPIC_DEFAULT_HAIKU_MODEL", "ANTHROPIC_SMALL_FAST_MODEL")}

DEFAULT_MODEL = "opus"
#: Opus while planning (plan mode), Sonnet for the work (`model_for_mode`).
OPUSPLAN = "opusplan"

_UNKNOWN_WINDOW = 200_000
_UNKNOWN_OUTPUT = 32_000
_UNKNOWN_PRICES = _prices(3.0, 15.0)

#: How Claude Code spells a model run with the 1M-token context window.
ONE_MILLION_SUFFIX = "[1m]"


def resolve_model(name: str, env: Mapping[str, str] | None = None) -> str:
    """The model id for an alias or id (`opus` → its current id, `sonnet[1m]` → the
    current Sonnet's id with the suffix; ids pass through; `opusplan` stays itself, its
    model depends on the mode)."""
    key = name.strip()
    suffix = ""
    if key.lower().endswith(ONE_MILLION_SUFFIX):
        key, suffix = key[: -len(ONE_MILLION_SUFFIX)], ONE_MILLION_SUFFIX
    alias = key.lower()
    if alias in ALIASES:
        env = os.environ if env is None else env
        chosen = (env.get(name) for name in _ALIAS_ENV.get(alias, ()))
        key = next((c for c in chosen if c), ALIASES[alias])
    elif alias == OPUSPLAN:
        key = OPUSPLAN
    return key + suffix


def model_for_mode(model: str, mode: str | None) -> str:
    """The id a request goes to: `opusplan` is Opus in plan mode and Sonnet otherwise."""
    if model.lower().startswith(OPUSPLAN):
        suffix = model[len(OPUSPLAN):]
        return resolve_model(("opus" if mode == "plan" else "sonnet") + suffix)
    return model


def model_info(model: str) -> ModelInfo:
    model_id = resolve_model(model_for_mode(model, None))
    if model_id.lower().endswith(ONE_MILLION_SUFFIX):
        base = model_info(model_id[: -len(ONE_MILLION_SUFFIX)])
        return dataclasses.replace(base, id=model_id, context_window=1_000_000)
    known = _MODELS.get(model_id)
    if known is not None:
        return known
    base = _dated_base(model_id)
    if base is not None:  # a dated id: claude-haiku-4-5-20251001
        return dataclasses.replace(_MODELS[base], id=model_id)
    return ModelInfo(model_id, _UNKNOWN_WINDOW, _UNKNOWN_OUTPUT, _UNKNOWN_PRICES,
                     "adaptive", "high")


def canonical_model(model: str) -> str:
    """The catalog's id for `model` (a dated id's base, the 1M spelling's model); an id
    the catalog does not know is its own."""
    model_id = resolve_model(model_for_mode(model, None))
    if model_id.lower().endswith(ONE_MILLION_SUFFIX):
        model_id = model_id[: -len(ONE_MILLION_SUFFIX)]
    if model_id in _MODELS:
        return model_id
    return _dated_base(model_id) or model_id


def _dated_base(model_id: str) -> str | None:
    """The longest id of the table that `model_id` extends with a date or version."""
    bases = [known for known in _MODELS if model_id.startswith(known + "-")]
    return max(bases, key=len) if bases else None
