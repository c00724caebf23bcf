"""What the hooks of one event decided, combined (Claude Code's current semantics).

Per hook:
  exit 0    JSON on stdout is read; plain stdout is context for UserPromptSubmit and
            SessionStart, otherwise only kept for verbose display.
  exit 2    blocks (stderr is the reason) where the event can block; elsewhere stderr
            is shown to the user. JSON is still read, but cannot unblock.
  other     a non-blocking error shown to the user, unless stdout is a JSON object,
            which then decides on its own. Timeouts and spawn failures: a message.

Across hooks: `continue: false` stops everything; any block blocks; deny beats ask
beats allow; contexts and messages are concatenated; `updatedInput` comes from the
last hook that did not deny.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from cc.hooks.config import HookCommand
from cc.hooks.process import HookResult

PermissionDecision = Literal["allow", "deny", "ask"]

#: Strings from hooks (context, messages, stdout) are cut to this many characters.
MAX_OUTPUT_CHARS = 10_000

#: Events where exit 2 (or `decision: "block"`) blocks the action.
BLOCKING_EVENTS = frozenset(
    {
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "PostToolBatch",
        "UserPromptSubmit",
        "UserPromptExpansion",
        "Stop",
        "SubagentStop",
        "PreCompact",
        "ConfigChange",
        "TaskCreated",
        "TaskCompleted",
        "TeammateIdle",
    }
)
#: Events whose plain stdout on exit 0 is context for the model.
STDOUT_CONTEXT_EVENTS = frozenset({"UserPromptSubmit", "UserPromptExpansion", "SessionStart"})
#: Events whose block reason is for the user, not the model.
USER_REASON_EVENTS = frozenset({"UserPromptSubmit", "UserPromptExpansion"})
_PRIORITY: tuple[PermissionDecision, ...] = ("deny", "ask", "allow")
_LEGACY: dict[str, PermissionDecision] = {"approve": "allow", "block": "deny"}


@dataclass
class HookOutcome:
    """The combined answer of the hooks that ran for one event."""

    #: Exit 2, `decision: "block"`, or (PreToolUse) `permissionDecision: "deny"`.
    blocked: bool = False
    #: Why: for the model, except on UserPromptSubmit (for the user; also in user_messages).
    reason: str | None = None
    permission_decision: PermissionDecision | None = None
    #: `permissionDecisionReason` of the winning decision (for deny it is also in `reason`).
    permission_decision_reason: str | None = None
    updated_input: dict[str, Any] | None = None
    #: Context for the model (additionalContext; stdout for UserPromptSubmit/SessionStart).
    additional_context: str | None = None
    #: `continue: false`: end the whole turn now.
    stop: bool = False
    stop_reason: str | None = None
    #: For the user: errors, timeouts, systemMessage, blocked-prompt reasons.
    user_messages: list[str] = field(default_factory=list)
    #: Each hook's raw result (stdout for verbose display, timings).
    results: list[HookResult] = field(default_factory=list)
    #: PermissionRequest: the winning `hookSpecificOutput.decision` (deny beats allow).
    request_decision: dict[str, Any] | None = None
    #: SessionStart, CwdChanged: absolute paths for FileChanged hooks to watch.
    watch_paths: list[str] = field(default_factory=list)


def cap(text: str, limit: int = MAX_OUTPUT_CHARS) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n… [{len(text) - limit} more characters truncated]"


def shown(hook: HookCommand) -> str:
    return hook.command if hook.args is None else " ".join((hook.command, *hook.args))


def combine(event: str, label: str, results: list[HookResult]) -> HookOutcome:
    """`label` names the hook in messages: "PreToolUse:Bash", "Stop", …"""
    acc = _Combiner(event, label)
    for result in results:
        acc.add(result)
    return acc.outcome(results)


class _Combiner:
    def __init__(self, event: str, label: str) -> None:
        self.event = event
        self.label = label
        self.blocked = False
        self.reasons: list[str] = []
        self.decisions: list[
            tuple[PermissionDecision | None, str | None, dict[str, Any] | None]
        ] = []
        self.contexts: list[str] = []
        self.stop = False
        self.stop_reasons: list[str] = []
        self.messages: list[str] = []
        self.request_decisions: list[dict[str, Any]] = []
        self.watch_paths: list[str] = []

    def add(self, r: HookResult) -> None:
        cmd = shown(r.command)
        if r.spawn_error is not None:
            self._error(f"[{cmd}] could not be started: {r.spawn_error}")
            return
        if r.timed_out:
            self._error(f"[{cmd}] timed out after {r.timeout:g} s and was stopped")
            return
        stderr = r.stderr.strip()
        if r.exit_code == 2:
            if self.event in BLOCKING_EVENTS:
                self._block(cmd, stderr or _text(r.json, "reason") or "No stderr output")
            else:
                self._error(f"[{cmd}]: {stderr or 'No stderr output'}")
            if r.json is not None:
                self._apply(cmd, r.json, decide=False)
        elif r.json is not None:
            self._apply(cmd, r.json, decide=True)
        elif r.exit_code == 0:
            if r.json_error is not None:
                self._error(f"[{cmd}] printed output that is not valid JSON: {r.json_error}")
            elif self.event in STDOUT_CONTEXT_EVENTS and r.stdout.strip():
                self.contexts.append(cap(r.stdout.strip()))
        else:
            first = next((line for line in stderr.splitlines() if line.strip()), "No stderr output")
            self._error(f"[{cmd}] failed with non-blocking status code {r.exit_code}: {first}")

    def _error(self, text: str) -> None:
        self.messages.append(f"{self.label} hook error: {text}")

    def _block(self, cmd: str, reason: str) -> None:
        self.blocked = True
        self.reasons.append(reason)
        if self.event in USER_REASON_EVENTS:
            self.messages.append(f"{self.label} operation blocked by hook:\n[{cmd}]: {reason}")

    def _apply(self, cmd: str, data: dict[str, Any], *, decide: bool) -> None:
        if data.get("continue") is False:
            self.stop = True
            if reason := _text(data, "stopReason"):
                self.stop_reasons.append(reason)
        if message := _text(data, "systemMessage"):
            self.messages.append(cap(message))
        specific = data.get("hookSpecificOutput")
        if not isinstance(specific, dict):
            specific = {}
        elif specific.get("hookEventName", self.event) != self.event:
            self._error(
                f"[{cmd}] hookSpecificOutput is for {specific.get('hookEventName')!r}, "
                f"not {self.event!r}; ignored"
            )
            specific = {}
        if context := _text(specific, "additionalContext"):
            self.contexts.append(cap(context))
        paths = specific.get("watchPaths")
        if isinstance(paths, list):
            self.watch_paths.extend(p for p in paths if isinstance(p, str))
        if not decide:
            return
        decision = data.get("decision")
        if self.event == "PreToolUse":
            raw = specific.get("permissionDecision")
            perm: PermissionDecision | None = next((p for p in _PRIORITY if p == raw), None)
            reason = _text(specific, "permissionDecisionReason")
            if perm is None:
                perm = _LEGACY.get(decision) if isinstance(decision, str) else None
                reason = reason or _text(data, "reason")
            updated = specific.get("updatedInput")
            self.decisions.append((perm, reason, updated if isinstance(updated, dict) else None))
        elif self.event == "PermissionRequest":
            ruling = specific.get("decision")
            if isinstance(ruling, dict) and ruling.get("behavior") in ("allow", "deny"):
                self.request_decisions.append(ruling)
        elif decision == "block" and self.event in BLOCKING_EVENTS:
            self._block(cmd, _text(data, "reason") or f"Blocked by {self.label} hook")

    def outcome(self, results: list[HookResult]) -> HookOutcome:
        perm: PermissionDecision | None = next(
            (p for p in _PRIORITY if any(d == p for d, _, _ in self.decisions)), None)
        perm_reasons = [r for d, r, _ in self.decisions if d == perm and r]
        reasons = list(self.reasons)
        updated = None
        if perm == "deny":
            reasons.extend(perm_reasons)
        else:
            updated = next((u for d, _, u in reversed(self.decisions) if u is not None), None)
        blocked = self.blocked or perm == "deny"
        return HookOutcome(
            blocked=blocked,
            reason="\n".join(reasons) or None,
            permission_decision=perm,
            permission_decision_reason="\n".join(perm_reasons) or None,
            updated_input=None if blocked else updated,
            additional_context="\n\n".join(self.contexts) or None,
            stop=self.stop,
            stop_reason="\n".join(self.stop_reasons) or None,
            user_messages=self.messages,
            results=results,
            request_decision=next(
                (d for d in self.request_decisions if d["behavior"] == "deny"),
                self.request_decisions[-1] if self.request_decisions else None),
            watch_paths=self.watch_paths,
        )


def _text(data: dict[str, Any] | None, key: str) -> str | None:
    value = (data or {}).get(key)
    return value.strip() if isinstance(value, str) and value.strip() else None
