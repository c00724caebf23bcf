"""The settings keys `/config` shows and edits, each with its type (pydantic, at the
edge) and a line saying what it does. Keys not listed here are kept in the files and
ignored by cc, with no noise."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)


class _Attribution(BaseModel):
    model_config = ConfigDict(extra="forbid")
    commit: StrictStr | None = None
    pr: StrictStr | None = None


class _StatusLine(BaseModel):
    model_config = ConfigDict(extra="allow")
    type: Literal["command"]
    command: Annotated[StrictStr, Field(min_length=1)]
    padding: Annotated[StrictInt, Field(ge=0)] = 0


KEYS: dict[str, tuple[Any, str]] = {
    "model": (StrictStr, "The model: an alias (opus, sonnet, haiku) or a model id"),
    "outputStyle": (StrictStr, "How replies are shaped (/output-style lists the styles)"),
    "language": (StrictStr, "The language the agent answers in"),
    "attribution": (_Attribution, 'Lines commits ("commit") and pull requests ("pr") end '
                                  'with; "" for none'),
    "includeCoAuthoredBy": (StrictBool, "The older form of attribution: false for no lines"),
    "claudeMdExcludes": (list[StrictStr], "Glob patterns of CLAUDE.md files not to load"),
    "respectGitignore": (StrictBool, "@-mention completion leaves out gitignored files"),
    "statusLine": (_StatusLine, 'A command whose output shows under the prompt: '
                                '{"type": "command", "command": "…", "padding": 0}'),
    "spinnerTipsEnabled": (StrictBool, "Tips while waiting (cc shows none)"),
    "cleanupPeriodDays": (Annotated[StrictInt, Field(ge=1)],
                          "Transcripts older than this many days are deleted at start-up"),
    "effortLevel": (Literal["low", "medium", "high", "xhigh", "max"],
                    "How hard the model works (the model's default when unset)"),
    "promptCacheTtl": (Literal["5m", "1h"], "How long the prompt cache keeps a conversation"),
    "subagentPromptCacheTtl": (Literal["5m", "1h"],
                               "The prompt cache's lifetime for sub-agents' requests"),
}


def check_value(key: str, value: Any) -> str | None:
    """Why `value` does not suit `key`, or None (unknown keys take anything)."""
    if key not in KEYS:
        return None
    try:
        TypeAdapter(KEYS[key][0]).validate_python(value)
    except ValidationError as exc:
        problems = "; ".join(
            (".".join(map(str, e["loc"])) + ": " if e["loc"] else "") + e["msg"]
            for e in exc.errors())
        return f"{key}: {problems}"
    return None
