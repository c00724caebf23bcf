"""One order of evaluation for every tool: what was found, then what it means in a mode.

Each tool family fills an `Assessment` (a deny rule that matched, an ask rule, a safety
concern, whether it writes, what approves it); `decide()` applies the order:

    deny rules → plan mode refuses writes → ask rules → safety (protected files,
    unparsable commands, critical rm) → a hook's "ask" → bypassPermissions → a hook's
    "allow" → allow rules / read-only / acceptEdits → ask
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Behavior = Literal["allow", "ask", "deny"]
MODES = ("default", "acceptEdits", "plan", "bypassPermissions", "dontAsk")
#: How far a safety concern reaches: "unverifiable" (cannot be checked) gives way to
#: bypassPermissions and a hook's allow; "protected" only to bypassPermissions;
#: "critical" (rm of /, home, a working folder) to nothing.
SAFETY_LEVELS = ("unverifiable", "protected", "critical")


@dataclass(frozen=True)
class Verdict:
    behavior: Behavior
    #: Why, as a clause for a sentence ("it matches the deny rule Bash(rm *)").
    reason: str = ""
    #: "rule", "plan", "safety", "hook", "mode", "readonly", "default".
    kind: str = ""
    #: Allow rules that "always" would add.
    suggestions: tuple[str, ...] = ()


@dataclass
class Assessment:
    deny: Verdict | None = None
    ask: Verdict | None = None
    safety: Verdict | None = None
    safety_level: str = "unverifiable"
    writes: bool = False
    approved: Verdict | None = None
    #: Why it needs approval when nothing approves it.
    need: str = ""
    suggestions: tuple[str, ...] = ()

    def add_safety(self, level: str, reason: str) -> None:
        if self.safety is None or SAFETY_LEVELS.index(level) > SAFETY_LEVELS.index(
            self.safety_level
        ):
            self.safety = Verdict("ask", reason, "safety")
            self.safety_level = level

    def deny_once(self, reason: str) -> None:
        if self.deny is None:
            self.deny = Verdict("deny", reason, "rule")

    def ask_once(self, reason: str) -> None:
        if self.ask is None:
            self.ask = Verdict("ask", reason, "rule")


def normalize_mode(mode: str) -> str:
    return "default" if mode in ("manual", "", None) else mode


def decide(a: Assessment, mode: str, hook: str | None = None) -> Verdict:
    mode = normalize_mode(mode)
    if a.deny is not None:
        return a.deny
    if mode == "plan" and a.writes:
        return Verdict("deny", "plan mode lets nothing change files or run commands that may",
                       "plan")
    if a.ask is not None:
        return a.ask
    if a.safety is not None:
        skipped = (mode == "bypassPermissions" and a.safety_level != "critical") or (
            hook == "allow" and a.safety_level == "unverifiable"
        )
        if not skipped:
            return a.safety
    if hook == "ask":
        return Verdict("ask", "a PreToolUse hook asked for confirmation", "hook")
    if mode == "bypassPermissions":
        return Verdict("allow", "bypassPermissions mode", "mode")
    if hook == "allow":
        return Verdict("allow", "a PreToolUse hook allowed it", "hook")
    if a.approved is not None:
        return a.approved
    return Verdict("ask", a.need or "it needs approval", "default", a.suggestions)
