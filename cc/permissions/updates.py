"""Claude Code's PermissionUpdate shape for a rule, which both the program driving cc
(`can_use_tool`'s suggestions and answers) and PermissionRequest hooks speak:

    "Bash(npm test *)"  ⇄  {"toolName": "Bash", "ruleContent": "npm test *"}
"""

from __future__ import annotations

from typing import Any


def rule_value(rule: str) -> dict[str, Any]:
    """`Tool(content)` → `{"toolName", "ruleContent"?}`."""
    tool, _, rest = rule.partition("(")
    value: dict[str, Any] = {"toolName": tool}
    if rest:
        value["ruleContent"] = rest[:-1]
    return value


def rule_text(value: dict[str, Any]) -> str:
    """`{"toolName": "Bash", "ruleContent": "npm test *"}` → `Bash(npm test *)`."""
    content = value.get("ruleContent")
    return f"{value.get('toolName')}({content})" if content else str(value.get("toolName"))


def allow_suggestion(rule: str) -> dict[str, Any]:
    """What "always" would add, offered as an `addRules` update to the local settings."""
    return {"type": "addRules", "rules": [rule_value(rule)], "behavior": "allow",
            "destination": "localSettings"}
