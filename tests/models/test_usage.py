"""Token usage, its cost, and the model catalog it prices against."""

from __future__ import annotations

import pytest

from cc.models.catalog import ALIASES, model_info, resolve_model
from cc.models.usage import ModelUsage, UsageTotals

# --- cost ------------------------------------------------------------------------------


def test_cost_counts_every_token_kind_at_its_price() -> None:
    u = ModelUsage()
    u.add({"input_tokens": 1_000_000, "output_tokens": 1_000_000,
           "cache_read_input_tokens": 1_000_000, "cache_creation_input_tokens": 1_000_000})
    # claude-sonnet-4-5: $3 in, $15 out; cache reads at 0.1x input, cache writes at 1.25x input
    assert u.cost_usd("claude-sonnet-4-5") == pytest.approx(3 + 15 + 0.3 + 3.75)


def test_cost_of_cache_tokens_alone() -> None:
    u = ModelUsage(cache_read_input_tokens=200_000, cache_creation_input_tokens=40_000)
    # opus-4-1 at $15/M input: reads 200k * 1.5/M = 0.30, writes 40k * 18.75/M = 0.75
    assert u.cost_usd("claude-opus-4-1") == pytest.approx(0.30 + 0.75)


def test_cost_of_a_realistic_turn() -> None:
    u = ModelUsage()
    u.add({"input_tokens": 12, "output_tokens": 480,
           "cache_read_input_tokens": 18_000, "cache_creation_input_tokens": 2_500})
    expected = (12 * 1.0 + 480 * 5.0 + 18_000 * 0.1 + 2_500 * 1.25) / 1_000_000
    assert u.cost_usd("claude-haiku-4-5") == pytest.approx(expected)


@pytest.mark.parametrize(("model", "dollars"), [
    # Claude Code 2.1.332's modelUsage.costUSD for 1M tokens of each kind:
    # input, output, cache writes, cache reads
    ("opus", (4, 20, 5, 0.2)), ("sonnet", (2, 10, 2.5, 0.1)),
    ("haiku", (0.5, 0.5, 0.625, 0.05)), ("fable", (8, 40, 10, 0.2)),
])
def test_current_models_cost_what_claude_code_says(model: str, dollars: tuple) -> None:
    kinds = ("input_tokens", "output_tokens", "cache_creation_input_tokens",
             "cache_read_input_tokens")
    for kind, expected in zip(kinds, dollars, strict=True):
        u = ModelUsage()
        u.add({kind: 1_000_000})
        assert u.cost_usd(model) == pytest.approx(expected)


def test_add_accumulates_and_tolerates_missing_or_null_fields() -> None:
    u = ModelUsage()
    u.add({"input_tokens": 10, "output_tokens": 5})
    u.add({"input_tokens": 3, "output_tokens": None, "cache_read_input_tokens": 7,
           "server_tool_use": {"web_search_requests": 2}})
    u.add({"server_tool_use": None})
    assert (u.input_tokens, u.output_tokens, u.cache_read_input_tokens,
            u.cache_creation_input_tokens, u.web_search_requests) == (13, 5, 7, 0, 2)


def test_totals_are_kept_per_model_and_summed() -> None:
    totals = UsageTotals()
    totals.add("claude-opus-4-1", {"input_tokens": 1_000_000, "output_tokens": 0})
    totals.add("haiku", {"input_tokens": 0, "output_tokens": 1_000_000})
    totals.add("claude-opus-4-1", {"input_tokens": 0, "cache_read_input_tokens": 1_000_000})
    assert set(totals.by_model) == {"claude-opus-4-1", "haiku"}
    assert totals.by_model["claude-opus-4-1"].input_tokens == 1_000_000
    assert totals.by_model["claude-opus-4-1"].cache_read_input_tokens == 1_000_000
    assert totals.by_model["haiku"].output_tokens == 1_000_000
    total = totals.total
    assert (total.input_tokens, total.output_tokens, total.cache_read_input_tokens) == (
        1_000_000, 1_000_000, 1_000_000)
    # each model priced at its own rate: opus-4-1 15 + 1.5, haiku (5-5) 0.5
    assert totals.cost_usd == pytest.approx(15 + 1.5 + 0.5)


def test_total_of_nothing_is_zero() -> None:
    totals = UsageTotals()
    assert totals.cost_usd == 0
    assert totals.total == ModelUsage()


# --- model catalog ---------------------------------------------------------------------


@pytest.mark.parametrize(("alias", "family"), [("opus", "claude-opus-"), ("sonnet", "claude-sonnet-"),
                                               ("haiku", "claude-haiku-")])
def test_aliases_resolve_to_a_known_model_of_their_family(alias: str, family: str) -> None:
    model_id = resolve_model(alias)
    assert model_id == ALIASES[alias] and model_id.startswith(family)
    assert resolve_model(alias.upper()) == model_id
    assert resolve_model(f"  {alias} ") == model_id
    assert model_info(alias).id == model_id
    assert model_info(alias) == model_info(model_id)


def test_ids_pass_through_resolve_unchanged() -> None:
    assert resolve_model("claude-opus-4-1") == "claude-opus-4-1"
    assert resolve_model("my-local-model") == "my-local-model"


def test_known_ids_have_their_own_numbers() -> None:
    haiku = model_info("claude-haiku-4-5")
    assert (haiku.context_window, haiku.max_output_tokens) == (200_000, 32_000)
    assert (haiku.prices.input, haiku.prices.output) == (1.0, 5.0)
    assert model_info("claude-opus-4-1").prices.input == 15.0


def test_unknown_id_gets_conservative_defaults() -> None:
    info = model_info("some-compatible-local-model")
    assert info.id == "some-compatible-local-model"
    assert (info.context_window, info.max_output_tokens) == (200_000, 32_000)
    assert (info.prices.input, info.prices.output) == (3.0, 15.0)


def test_dated_id_matches_its_base_model_by_prefix() -> None:
    base = model_info("claude-haiku-4-5")
    dated = model_info("claude-haiku-4-5-20251001")
    assert dated.id == "claude-haiku-4-5-20251001"
    assert (dated.context_window, dated.max_output_tokens, dated.prices) == (
        base.context_window, base.max_output_tokens, base.prices)


def test_prefix_match_needs_a_dash_boundary() -> None:
    # "claude-opus-4-10" is not a dated "claude-opus-4-1": it must not inherit opus-4-1's prices
    info = model_info("claude-opus-4-10")
    assert info.prices != model_info("claude-opus-4-1").prices
    assert info.context_window == 200_000 and info.max_output_tokens == 32_000


def test_dated_id_costs_like_its_base() -> None:
    u = ModelUsage(input_tokens=1_000_000)
    assert u.cost_usd("claude-opus-4-1-20250805") == pytest.approx(15.0)


def test_thinking_and_cache_lifetimes_are_counted_and_follow_merges() -> None:
    answer = {"input_tokens": 10, "output_tokens": 50,
              "output_tokens_details": {"thinking_tokens": 30},
              "cache_creation": {"ephemeral_5m_input_tokens": 7, "ephemeral_1h_input_tokens": 2}}
    totals = UsageTotals()
    totals.add("claude-opus-5-5", answer)
    before = totals.snapshot()
    other = UsageTotals()
    other.add("claude-opus-5-5", answer)
    totals.merge(other)
    mine = totals.by_model["claude-opus-5-5"]
    assert (mine.thinking_tokens, mine.cache_creation_5m_tokens,
            mine.cache_creation_1h_tokens) == (60, 14, 4)
    assert totals.since(before).by_model["claude-opus-5-5"].thinking_tokens == 30
    assert totals.total.cache_creation_1h_tokens == 4


def test_canonical_ids() -> None:
    from cc.models.catalog import canonical_model

    assert canonical_model("opus") == "claude-opus-5-5"
    assert canonical_model("claude-haiku-4-5-20251001") == "claude-haiku-4-5"
    assert canonical_model("claude-sonnet-5[1m]") == "claude-sonnet-5"
    assert canonical_model("my-local-model") == "my-local-model"


def test_aliases_opusplan_and_their_environment() -> None:
    from cc.models.catalog import model_for_mode, resolve_model

    assert resolve_model("opusplan") == "opusplan"
    assert model_for_mode("opusplan", "plan") == "claude-opus-5-5"
    assert model_for_mode("opusplan", "default") == "claude-sonnet-5-5"
    assert model_for_mode("opusplan[1m]", "plan") == "claude-opus-5-5[1m]"
    assert model_for_mode("claude-opus-4-6", "plan") == "claude-opus-4-6"
    env = {"ANTHROPIC_DEFAULT_OPUS_MODEL": "my-opus", "ANTHROPIC_DEFAULT_HAIKU_MODEL": "my-haiku"}
    assert resolve_model("opus", env) == "my-opus" and resolve_model("best", env) == "my-opus"
    assert resolve_model("sonnet", env) == "claude-sonnet-5-5"
    assert resolve_model("haiku", env) == "my-haiku"
    assert resolve_model("haiku", {"ANTHROPIC_SMALL_FAST_MODEL": "tiny"}) == "tiny"
    assert resolve_model("haiku", {**env, "ANTHROPIC_SMALL_FAST_MODEL": "tiny"}) == "my-haiku"
    assert resolve_model("haiku", {}) == "claude-haiku-5-5"
    # an id the table does not know: a current model's ways, conservative limits
    unknown = model_info("gateway-model-7")
    assert (unknown.context_window, unknown.max_output_tokens) == (200_000, 32_000)
    assert unknown.adaptive_thinking and unknown.default_effort == "high"
