"""The turn's answer as a StructuredOutput call (`--json-schema`): what the loop asks of it.

    a call that conforms       the turn ends once its message's results are in:
                               completed, the value on the Terminal's `structured_output`
    a call that does not       the model reads why (the tool's result) and tries again;
                               the `limit`-th such call ends the turn
                               (structured_output_retry_exhausted)
    an answer without a call   the model is asked for the call, once a turn; answering
                               without it again ends the turn as usual, with no
                               structured output (as Claude Code does)

A call refused before it runs (a deny rule, a hook) checks nothing and counts for
nothing. Either end counts one turn more than the requests made, as Claude Code's
`num_turns` does (it counts the results as the next turn's start).
"""

from __future__ import annotations

from collections.abc import Sequence

from cc.core.events import Terminal
from cc.models.state import QueryState
from cc.tools.base import ToolResult

#: The loop's text asking for the call (cc/prompts/loop/).
ASK_FOR_STRUCTURED_OUTPUT = "loop/ask_for_structured_output.md"


def after_results(results: Sequence[ToolResult], state: QueryState, limit: int,
                  stop_reason: str | None) -> Terminal | None:
    """The end of the turn if a message's results settle its answer; None to go on."""
    checks = [r.answer for r in results if r.answer is not None]
    if not checks:
        return None
    accepted = next((c for c in checks if c.conforms), None)
    if accepted is not None:
        state.turn_count += 1
        return Terminal("completed", stop_reason=stop_reason, structured_output=accepted.value)
    track = state.structured
    track.misses += len(checks)
    track.last_problems = checks[-1].problems
    if track.misses < limit:
        return None
    state.turn_count += 1
    return Terminal(
        "structured_output_retry_exhausted",
        error=(f"No answer conforming to the --json-schema after {track.misses} "
               f"StructuredOutput calls; the last: {'; '.join(track.last_problems)}"),
        stop_reason=stop_reason,
    )


def ask_for_call(state: QueryState) -> str | None:
    """The request for the call when the model answers without it (once a turn)."""
    if state.structured.asked:
        return None
    from cc.prompts import load_text

    state.structured.asked = True
    return load_text(ASK_FOR_STRUCTURED_OUTPUT).strip()
