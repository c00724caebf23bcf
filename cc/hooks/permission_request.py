"""PermissionRequest hooks' language: the suggestions they are shown, in Claude Code's
PermissionUpdate shape, and the `hookSpecificOutput.decision` they answer with:

    {"behavior": "allow", "updatedInput": {…}, "updatedPermissions": [
        {"type": "addRules", "rules": [{"toolName": "Bash", "ruleContent": "npm test"}],
         "behavior": "allow", "destination": "session"},
        {"type": "setMode", "mode": "acceptEdits", "destination": "session"}]}
    {"behavior": "deny", "message": "…", "interrupt": true}

Rules for the session only (`destination` "session") are not saved; any other
destination saves them as the "always" answer of a prompt does.
"""

from __future__ import annotations

from typing import Any

from cc.permissions.ask import HookRuling
from cc.permissions.updates import rule_text


def ruling_of(decision: dict[str, Any] | None) -> HookRuling | None:
    """A PermissionRequest hook's `decision` object as a ruling (None: no decision)."""
    if decision is None:
        return None
    if decision.get("behavior") == "deny":
        message = decision.get("message")
        return HookRuling("deny", message=message if isinstance(message, str) and message
                          else None)
    updated = decision.get("updatedInput")
    rules: list[tuple[str, str, bool]] = []
    mode = None
    updates = decision.get("updatedPermissions")
    for update in updates if isinstance(updates, list) else []:
        if not isinstance(update, dict):
            continue
        persist = update.get("destination") not in (None, "session", "cliArg")
        if update.get("type") == "addRules" and update.get("behavior") in ("allow", "deny",
                                                                          "ask"):
            for rule in update.get("rules") or []:
                if isinstance(rule, dict) and isinstance(rule.get("toolName"), str):
                    rules.append((update["behavior"], rule_text(rule), persist))
        elif update.get("type") == "setMode" and isinstance(update.get("mode"), str):
            mode = update["mode"]
    return HookRuling("allow", updated_input=updated if isinstance(updated, dict) else None,
                      rules=tuple(rules), mode=mode)
