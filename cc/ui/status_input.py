"""The JSON a status line command reads on stdin (Claude Code's shape, reference §11.2):

    {"hook_event_name": "Status", "session_id", "transcript_path", "cwd",
     "model": {"id", "display_name"}, "workspace": {"current_dir", "project_dir",
     "added_dirs"}, "version", "output_style": {"name"}, "cost": {…},
     "context_window": {…}, "exceeds_200k_tokens"}
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cc.app.session import Session
    from cc.core.query_engine import QueryEngine


def status_input(runtime: Session, engine: QueryEngine, started: float) -> dict[str, Any]:
    """What the session looks like now; `started` is the REPL's start (monotonic)."""
    from cc import __version__
    from cc.commands.builtins import code_changes
    from cc.compact.tokens import context_tokens
    from cc.models.catalog import model_info
    from cc.prompts.builder import model_display_name

    usage = engine.usage
    total = usage.total
    added, removed = code_changes(engine)
    window = model_info(engine.model).context_window
    used = context_tokens(engine.messages) if engine.messages else 0
    percent = min(100, round(used * 100 / window)) if window else 0
    transcript = getattr(engine.transcript, "path", None)
    cwd = str(runtime.cwd)
    return {
        "hook_event_name": "Status",
        "session_id": engine.session_id,
        "transcript_path": str(transcript) if transcript is not None else None,
        "cwd": cwd,
        "model": {"id": engine.model,
                  "display_name": model_display_name(engine.model).removeprefix("Claude ")},
        "workspace": {"current_dir": cwd, "project_dir": cwd,
                      "added_dirs": list(runtime.options.add_dirs)},
        "version": __version__,
        "output_style": {"name": getattr(runtime, "output_style", "default")},
        "cost": {
            "total_cost_usd": round(usage.cost_usd, 6),
            "total_duration_ms": int((time.monotonic() - started) * 1000),
            "total_api_duration_ms": usage.api_duration_ms,
            "total_lines_added": added,
            "total_lines_removed": removed,
        },
        "context_window": {
            "total_input_tokens": total.input_tokens + total.cache_read_input_tokens
            + total.cache_creation_input_tokens,
            "total_output_tokens": total.output_tokens,
            "context_window_size": window,
            "used_percentage": percent,
            "remaining_percentage": 100 - percent,
        },
        "exceeds_200k_tokens": used > 200_000,
    }
