"""The fixed pipeline every tool call runs through.

    validate input → PreToolUse hooks → permission check → back up the files it
    changes (checkpoints) → call → PostToolUse hooks

(the concurrency semaphore sits in front, in the streaming executor). Whatever
goes wrong becomes an `is_error` ToolResult the model reads; only cancellation
propagates.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable

from cc.core.channel import emitting
from cc.core.denials import Denial
from cc.core.events import Event
from cc.core.pipeline.checkpoints import Checkpoints, back_up_before_write
from cc.hooks.gate import HookGate, NoHooks
from cc.models.content_blocks import ToolUseBlock
from cc.permissions.gate import ModeGate, PermissionGate, denial_message
from cc.tools.base import Tool, ToolContext, ToolInput, ToolResult
from cc.tools.registry import ToolRegistry


class ToolExecutor:
    def __init__(
        self,
        registry: ToolRegistry,
        ctx: ToolContext,
        permissions: PermissionGate | None = None,
        hooks: HookGate | None = None,
    ) -> None:
        self.registry = registry
        self.ctx = ctx
        self.permissions: PermissionGate = permissions or ModeGate()
        self.hooks: HookGate = hooks or NoHooks()
        #: Called with each denial (the engine adds it to the session's `DenialLog`).
        self.on_denial: Callable[[Denial], None] | None = None
        #: Where the files a call changes are backed up first (None: not tracked).
        self.checkpoints: Checkpoints | None = None

    def parse(self, tool_use: ToolUseBlock) -> tuple[Tool, ToolInput] | ToolResult:
        """The tool and its validated input, or the error result the model gets."""
        tool = self.registry.get(tool_use.name)
        if tool is None:
            from cc.tools.catalog import unavailable_message

            return ToolResult.error(unavailable_message(tool_use.name))
        checked = tool.validate(tool_use.input)
        if isinstance(checked, str):
            return ToolResult.error(checked)
        return tool, checked

    async def run(
        self,
        tool_use: ToolUseBlock,
        progress: Callable[[str], None] | None = None,
        emit: Callable[[Event], None] | None = None,
    ) -> ToolResult:
        """Run one call; `emit` gets the events it causes (a permission asked, answered)."""
        try:
            with emitting(emit):  # for the permission channel, deep in the check
                return await self._run(tool_use, progress, emit)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - the tool boundary
            return ToolResult.error(f"{type(exc).__name__}: {exc}")

    async def _run(
        self,
        tool_use: ToolUseBlock,
        progress: Callable[[str], None] | None,
        emit: Callable[[Event], None] | None,
    ) -> ToolResult:
        parsed = self.parse(tool_use)
        if isinstance(parsed, ToolResult):
            return parsed
        tool, inp = parsed
        raw_input = tool_use.input

        pre = await self.hooks.pre_tool_use(tool.name, raw_input, tool_use.id)
        if pre.updated_input is not None:
            raw_input = pre.updated_input  # a hook's updatedInput replaces the input
            reparsed = self.parse(dataclasses.replace(tool_use, input=raw_input))
            if isinstance(reparsed, ToolResult):
                return reparsed
            tool, inp = reparsed
        if pre.decision in ("block", "deny"):
            reason = pre.reason or "blocked by a PreToolUse hook"
            result = ToolResult.error(f"{tool.name} was blocked by a hook: {reason}")
            return _with_context(result, pre.additional_context)

        hook_decision = pre.decision if pre.decision in ("allow", "ask") else None
        decision = await self.permissions.check(
            tool, inp, tool_use.id, hook_decision=hook_decision
        )
        if decision.behavior != "allow":
            message = decision.message or denial_message(tool.name)
            if self.on_denial is not None:
                self.on_denial(Denial(tool.name, tool_use.id, raw_input, message))
            return ToolResult(message, is_error=True)
        if decision.updated_input is not None:
            reparsed = self.parse(dataclasses.replace(tool_use, input=decision.updated_input))
            if isinstance(reparsed, ToolResult):
                return reparsed
            tool, inp = reparsed
            raw_input = decision.updated_input

        ctx = dataclasses.replace(self.ctx, progress=progress, tool_use_id=tool_use.id,
                                  emit=emit)
        await back_up_before_write(self.checkpoints, tool, inp, ctx, emit)
        started = time.monotonic()
        result = _with_context(await tool.call(inp, ctx), pre.additional_context)
        if self.ctx.shell is not None:
            await self.hooks.shell_moved(self.ctx.shell.cwd)
        extra = await self.hooks.post_tool_use(
            tool.name, raw_input, tool_use.id, result,
            duration_ms=int((time.monotonic() - started) * 1000))
        return _with_context(result, extra)


def _with_context(result: ToolResult, context: str | None) -> ToolResult:
    """`result` with hook-supplied context for the model appended to its text."""
    if not context:
        return result
    if isinstance(result.content, str):
        return dataclasses.replace(result, content=f"{result.content}\n\n{context}")
    block = {"type": "text", "text": context}
    return dataclasses.replace(result, content=[*result.content, block])
