"""The permission stage of the tool pipeline.

`PermissionGate` is what the executor asks before every call, after the PreToolUse
hooks; `hook_decision` carries a hook's "allow" or "ask". The full engine is
`cc.permissions.checker.PermissionChecker`; `ModeGate` is the minimal stand-in (read-only
tools run, the rest ask) kept for tests and callers without settings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Protocol

from cc.permissions.ask import NO_ONE, AskAnswer, PermissionRequest, UserChannel
from cc.tools.base import Tool, ToolInput

Behavior = Literal["allow", "deny", "ask"]
HookDecision = Literal["allow", "ask"]


@dataclass(frozen=True)
class Decision:
    behavior: Behavior
    message: str | None = None
    updated_input: dict[str, Any] | None = None


class PermissionGate(Protocol):
    async def check(
        self,
        tool: Tool,
        inp: ToolInput,
        tool_use_id: str,
        *,
        hook_decision: HookDecision | None = None,
    ) -> Decision: ...


def denial_message(tool_name: str) -> str:
    return (
        f"Permission to use {tool_name} was not granted. The call did not run. "
        "Do not retry it as it is; continue without it or ask the user."
    )


class ModeGate:
    """Read-only tools run; other tools ask, or are denied when nobody can answer."""

    def __init__(self, mode: str = "default", channel: UserChannel = NO_ONE) -> None:
        self.mode = mode
        self.channel = channel

    async def check(
        self,
        tool: Tool,
        inp: ToolInput,
        tool_use_id: str,
        *,
        hook_decision: HookDecision | None = None,
    ) -> Decision:
        if self.mode == "bypassPermissions" and hook_decision != "ask":
            return Decision("allow")
        if hook_decision == "allow" or (hook_decision is None and tool.is_read_only(inp)):
            return Decision("allow")
        if self.mode == "plan":
            return Decision("deny", f"{tool.name} cannot run in plan mode.")
        if not self.channel.present or self.mode == "dontAsk":
            return Decision("deny", denial_message(tool.name))
        request = PermissionRequest(tool.name, inp.model_dump(exclude_none=True), tool_use_id,
                                    f"{tool.name}")
        answer: AskAnswer = await self.channel.ask_permission(request)
        if answer.behavior == "allow":
            return Decision("allow")
        return Decision("deny", denial_message(tool.name))
