"""EnterPlanMode and ExitPlanMode: into plan mode to explore and plan, out of it once the
user approves the plan.

    EnterPlanMode {}   the mode becomes "plan" through its one owner (the `mode` service);
                       the result tells the model to explore and where the plan file is
    ExitPlanMode       the plan file is shown to the user, who picks: yes and accept
                       edits / yes and ask for each edit (default) / no, keep planning;
                       yes changes the mode (the REPL footer follows)

Both ask nothing of the permission checker (they change no file); ExitPlanMode asks
the person itself, through the channel.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import ConfigDict

from cc.tools.base import ReadOnlyTool, ToolContext, ToolInput, ToolResult
from cc.tools.plan_file import read_plan


class EnterPlanModeInput(ToolInput):
    pass


class AllowedPrompt(ToolInput):
    tool: Literal["Bash"]
    prompt: str


class ExitPlanModeInput(ToolInput):
    model_config = ConfigDict(extra="allow")  # Claude Code's schema allows any other key

    allowedPrompts: list[AllowedPrompt] | None = None  # noqa: N815 - Claude Code's name


class EnterPlanModeTool(ReadOnlyTool):
    name = "EnterPlanMode"
    input_model: ClassVar[type[ToolInput]] = EnterPlanModeInput

    def is_concurrency_safe(self, inp: ToolInput) -> bool:
        return False

    def input_schema(self) -> dict[str, Any]:
        return {"type": "object", "properties": {}, "additionalProperties": False}

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        mode = ctx.services().mode
        plan_file = mode.plan_file
        if plan_file is None:
            return ToolResult.error("Plan mode is not available to this agent.")
        try:
            await asyncio.to_thread(plan_file.parent.mkdir, parents=True, exist_ok=True)
            mode.set_mode("plan")
        except (OSError, ValueError) as exc:
            return ToolResult.error(f"Could not enter plan mode: {exc}")
        message = entered_message(plan_file)
        return ToolResult(message, data={"message": message}, summary="plan mode on")


class ExitPlanModeTool(ReadOnlyTool):
    name = "ExitPlanMode"
    input_model: ClassVar[type[ToolInput]] = ExitPlanModeInput

    def is_concurrency_safe(self, inp: ToolInput) -> bool:
        return False

    def input_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {"allowedPrompts": {"type": "array", "items": {
                "type": "object",
                "properties": {"tool": {"type": "string", "enum": ["Bash"]},
                               "prompt": {"type": "string"}},
                "required": ["tool", "prompt"],
                "additionalProperties": False,
            }}},
            "additionalProperties": {},
        }

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        services = ctx.services()
        mode, channel = services.mode, services.channel
        plan_file = mode.plan_file
        if mode.mode != "plan" or plan_file is None:
            return ToolResult.error("You are not in plan mode, so there is no plan to "
                                    "approve. Go on with the task.")
        plan = await asyncio.to_thread(read_plan, plan_file)
        if plan is None:
            return ToolResult.error(f"The plan file {plan_file} is empty or missing. Write "
                                    "your plan there first, then call ExitPlanMode again.")
        if not channel.present:
            return ToolResult.error("Nobody can approve a plan in this session.")
        choice = await channel.approve_plan(plan, str(plan_file))
        if choice == "keep_planning":
            return ToolResult(
                "The user did not approve the plan and wants to keep planning. Stay in "
                f"plan mode: ask what should change if it is unclear, revise {plan_file}, "
                "and call ExitPlanMode again when it is ready.", is_error=True)
        try:
            mode.set_mode(choice)
        except ValueError as exc:
            return ToolResult.error(f"Could not leave plan mode: {exc}")
        return ToolResult(approved_message(choice, plan_file),
                          data={"plan": plan, "isAgent": False, "filePath": str(plan_file)},
                          summary="plan approved")


def entered_message(plan_file: Path) -> str:
    from cc.prompts import load_text

    return load_text("plan/entered.md").strip().format(plan_file=plan_file)


def approved_message(choice: str, plan_file: Path) -> str:
    edits = ("File edits now run without asking." if choice == "acceptEdits"
             else "Each file edit will ask the user for approval.")
    return (f"The user approved the plan, and plan mode is off. {edits} Carry out the "
            f"plan now; it is in {plan_file} if you need to look at it again.")
