"""The permission stage of the tool pipeline.

`PermissionGate` is what the executor asks before every call. The full rule
engine (modes, settings rules, shell parsing) plugs in here; until then the
`ModeGate` runs read-only tools and asks for everything else. When nobody can
answer (print mode, sub-agents) an "ask" becomes a denial at once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from cc.tools.base import Tool, ToolInput

Behavior = Literal["allow", "deny", "ask"]


@dataclass(frozen=True)
class Decision:
    behavior: Behavior
    message: str | None = None
    updated_input: dict[str, Any] | None = None


#: Asks a person; returns "allow" or "deny" (None: nobody can answer).
AskUser = Callable[[Tool, ToolInput, str], Awaitable[Decision]]


class PermissionGate(Protocol):
    async def check(self, tool: Tool, inp: ToolInput, tool_use_id: str) -> Decision: ...


def denial_message(tool_name: str) -> str:
    return (
        f"Permission to use {tool_name} was not granted. The call did not run. "
        "Do not retry it as it is; continue without it or ask the user."
    )


class ModeGate:
    """Read-only tools run; other tools ask, or are denied when nobody can answer."""

    def __init__(self, mode: str = "default", ask: AskUser | None = None) -> None:
        self.mode = mode
        self._ask = ask

    async def check(self, tool: Tool, inp: ToolInput, tool_use_id: str) -> Decision:
        if self.mode == "bypassPermissions" or tool.is_read_only(inp):
            return Decision("allow")
        if self.mode == "plan":
            return Decision("deny", f"{tool.name} cannot run in plan mode.")
        if self._ask is None or self.mode == "dontAsk":
            return Decision("deny", denial_message(tool.name))
        return await self._ask(tool, inp, tool_use_id)
