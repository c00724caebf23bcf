"""The hook stages of the tool pipeline (PreToolUse before, PostToolUse after).

The executor calls these in Claude Code's order; the hook runner that executes
the user's configured commands implements `HookGate`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from cc.tools.base import ToolResult


@dataclass(frozen=True)
class PreToolOutcome:
    #: "block" stops the call (the reason goes to the model); "allow"/"deny"/"ask"
    #: override the permission stage; None leaves it to the permission stage.
    decision: str | None = None
    #: For "block"/"deny" the model reads it; for "allow"/"ask" it is for the user.
    reason: str | None = None
    #: Replaces the tool's whole input (Claude Code's `updatedInput`).
    updated_input: dict[str, Any] | None = None
    #: Context for the model next to the tool result.
    additional_context: str | None = None
    #: A hook said `continue: false`: end the turn after this call (which does not run).
    stop: bool = False
    stop_reason: str | None = None


class HookGate(Protocol):
    async def pre_tool_use(
        self, tool_name: str, tool_input: dict[str, Any], tool_use_id: str
    ) -> PreToolOutcome: ...

    async def post_tool_use(
        self, tool_name: str, tool_input: dict[str, Any], tool_use_id: str, result: ToolResult,
        *, duration_ms: int | None = None,
    ) -> str | None:
        """Extra context for the model, if any. Cannot undo the call."""
        ...

    async def shell_moved(self, cwd: Path) -> None:
        """After a call: where the shell now is (CwdChanged fires if that moved)."""
        ...


class NoHooks:
    async def pre_tool_use(
        self, tool_name: str, tool_input: dict[str, Any], tool_use_id: str
    ) -> PreToolOutcome:
        return PreToolOutcome()

    async def post_tool_use(
        self, tool_name: str, tool_input: dict[str, Any], tool_use_id: str, result: ToolResult,
        *, duration_ms: int | None = None,
    ) -> str | None:
        return None

    async def shell_moved(self, cwd: Path) -> None:
        return None
