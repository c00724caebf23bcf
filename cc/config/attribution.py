"""Settings `attribution`: the lines commits and pull requests the agent writes end with.

    {"attribution": {"commit": "…", "pr": "…"}}   "" leaves that line out
    {"includeCoAuthoredBy": false}                 the older form: neither line

`attribution` wins over `includeCoAuthoredBy` for each key it sets. A value of the wrong
type is reported and the default kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

COMMIT_TRAILER = "Co-Authored-By: Claude <noreply@anthropic.com>"
PR_TRAILER = "🤖 Generated with [Claude Code](https://claude.com/claude-code)"


@dataclass(frozen=True)
class Attribution:
    commit: str | None = COMMIT_TRAILER
    pr: str | None = PR_TRAILER


def attribution_from(settings: Mapping[str, Any]) -> tuple[Attribution, list[str]]:
    """The trailers the merged `settings` ask for (None: no line), and warnings."""
    warnings: list[str] = []
    legacy = settings.get("includeCoAuthoredBy", True)
    if not isinstance(legacy, bool):
        warnings.append(f"includeCoAuthoredBy must be true or false, not {legacy!r}; "
                        "ignored")
        legacy = True
    commit: str | None = COMMIT_TRAILER if legacy else None
    pr: str | None = PR_TRAILER if legacy else None
    given = settings.get("attribution")
    if given is not None and not isinstance(given, Mapping):
        warnings.append('attribution must be an object such as {"commit": "…", "pr": "…"}; '
                        "ignored")
        given = None
    for key in ("commit", "pr"):
        value = (given or {}).get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            warnings.append(f"attribution.{key} must be a string (\"\" for none), not "
                            f"{value!r}; ignored")
            continue
        text = value.strip("\n") or None
        if key == "commit":
            commit = text
        else:
            pr = text
    return Attribution(commit, pr), warnings
