"""Asking a person for permission: the request the core sends, the answer the UI gives.

The core awaits an `AskUser` callable; the REPL answers it with a dialog. Print
mode and sub-agents have none, so whatever would ask is denied at once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal


@dataclass(frozen=True)
class PermissionRequest:
    tool_name: str
    tool_input: dict[str, Any]
    tool_use_id: str
    #: One line saying what would happen, e.g. "Bash command: rm -rf build".
    description: str
    #: Rules that "Yes, and don't ask again" would add, e.g. ["Bash(npm test *)"].
    suggestions: list[str] = field(default_factory=list)
    #: Why it asks (a matching ask rule, a protected file, the mode...).
    reason: str | None = None


@dataclass(frozen=True)
class AskAnswer:
    behavior: Literal["allow", "deny"]
    #: With "allow": also add the request's suggestions as allow rules (persisted).
    always: bool = False
    #: With "deny": what the user wants done instead; passed to the model.
    feedback: str | None = None


AskUser = Callable[[PermissionRequest], Awaitable[AskAnswer]]
