"""Figures as a person reads them: token counts, dollars, durations, the /cost report."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cc.models.usage import UsageTotals


def format_tokens(n: int) -> str:
    if n < 1000:
        return str(n)
    if n < 1_000_000:
        return f"{n / 1000:.1f}k"
    return f"{n / 1_000_000:.1f}m"


def format_cost(usd: float) -> str:
    return f"${usd:.2f}" if usd > 0.5 else f"${usd:.4f}"


def format_duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{int(minutes)}m {secs:.1f}s"
    hours, minutes = divmod(minutes, 60)
    return f"{int(hours)}h {int(minutes)}m {secs:.0f}s"


def cost_report(
    usage: UsageTotals,
    wall_s: float,
    lines_added: int = 0,
    lines_removed: int = 0,
) -> str:
    """The /cost (and /usage) report: totals, usage by model, then the prompt cache."""
    rows = [
        ("Estimated cost:", format_cost(usage.cost_usd)),
        ("Total duration (API):", format_duration(usage.api_duration_ms / 1000)),
        ("Total duration (wall):", format_duration(wall_s)),
        ("Total code changes:", f"{lines_added} {_plural(lines_added, 'line')} added, "
                                f"{lines_removed} {_plural(lines_removed, 'line')} removed"),
    ]
    lines = [f"{label:<23}{value}" for label, value in rows]
    if usage.by_model:
        lines.append("Usage by model:")
        width = max(len(m) for m in usage.by_model) + 1
        for model, u in usage.by_model.items():
            lines.append(
                f"    {model + ':':>{width}}  {format_tokens(u.input_tokens)} input, "
                f"{format_tokens(u.output_tokens)} output, "
                f"{format_tokens(u.cache_read_input_tokens)} cache read, "
                f"{format_tokens(u.cache_creation_input_tokens)} cache write "
                f"({format_cost(u.cost_usd(model))})"
            )
    else:
        lines.append("Usage:                 0 input, 0 output, 0 cache read, 0 cache write")
    if cache := cache_line(usage):
        lines.append(f"{'Prompt cache:':<23}{cache}")
    return "\n".join(lines)


def cache_line(usage: UsageTotals) -> str | None:
    """How much of the input the prompt cache served: its hit rate (the share of input
    tokens read from the cache), then the tokens read from it and written to it. None
    before any request."""
    total = usage.total
    read, written = total.cache_read_input_tokens, total.cache_creation_input_tokens
    prompt = total.input_tokens + read + written
    if prompt == 0:
        return None
    rate = round(100 * read / prompt)
    return (f"{rate}% of input tokens from cache ({format_tokens(read)} read, "
            f"{format_tokens(written)} written)")


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"
