"""Pieces of hook inputs: who acts (a teammate), a failed call's error text, and how
what tools keep in `ToolResult.data` becomes JSON."""

from __future__ import annotations

import dataclasses
from typing import Any

from cc.identity import AgentInfo
from cc.tools.base import ToolResult


def team_fields(who: AgentInfo | None) -> dict[str, str]:
    """A teammate's events say who it is, with the names TeammateIdle's input uses (a
    named agent of no team, its name alone); others add nothing."""
    if who is None or who.name is None:
        return {}
    return {"teammate_name": who.name} if who.team is None else {
        "team_name": who.team, "teammate_name": who.name}


def error_text(result: ToolResult) -> str:
    if isinstance(result.content, str):
        text = result.content
    else:
        text = "\n".join(str(b.get("text", "")) for b in result.content if isinstance(b, dict))
    return text.removeprefix("<tool_use_error>").removesuffix("</tool_use_error>")


def jsonable(value: Any) -> Any:
    """json.dumps's fallback for what tools keep in `ToolResult.data`."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(mode="json")
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return str(value)
