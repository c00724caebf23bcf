"""The Skill tool: the model starts a skill (`cc.input.skills`) by name.

The call's result says the skill is launching; beside it, in the same user message, the
model gets the skill's folder and its body with the arguments filled in. Skills come from a `SkillSource` the session gives
(`cc.input.skills.SkillLibrary`). The skill's
`allowed-tools` are allowed in the calling agent until its turn ends (the agent's
`grant_for_turn` service); other agents do not get them. The listing in the description
is read again for each request, so a skill added mid-session shows up.
"""

from __future__ import annotations

from dataclasses import dataclass
from string import Template
from typing import ClassVar, Protocol

from pydantic import ConfigDict

from cc.tools.base import Tool, ToolContext, ToolInput, ToolResult, optional_without_null


@dataclass(frozen=True)
class StartedSkill:
    name: str
    #: What the model reads beside the result: the skill's folder and its body, filled in.
    text: str
    allowed_tools: tuple[str, ...] = ()


class SkillSource(Protocol):
    """Where skills come from (`cc.input.skills.SkillLibrary`)."""

    def listing(self) -> list[str]:
        """`- name: description` for each skill the model may start."""
        ...

    def start(self, name: str, args: str) -> StartedSkill | str:
        """The skill called `name` with `args` filled in, or what is wrong."""
        ...


class SkillInput(ToolInput):
    model_config = ConfigDict(extra="forbid", json_schema_extra=optional_without_null)

    skill: str
    args: str | None = None


class SkillTool(Tool):
    name = "Skill"
    input_model: ClassVar[type[ToolInput]] = SkillInput

    def __init__(self, source: SkillSource) -> None:
        self.source = source

    def is_concurrency_safe(self, inp: ToolInput) -> bool:
        return False  # a skill's grants and body belong to one moment of the turn

    def description(self) -> str:
        from cc.prompts import load_text

        listing = "\n".join(self.source.listing()) or "(none yet)"
        return Template(load_text("tools/Skill.md").strip()).substitute(skill_listing=listing)

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, SkillInput)
        started = self.source.start(inp.skill, inp.args or "")
        if isinstance(started, str):
            return ToolResult.error(started)
        warnings: list[str] = []
        if started.allowed_tools and ctx.engine_ref is not None and ctx.engine_ref.bound:
            warnings = ctx.services().grant_for_turn(list(started.allowed_tools))
        text = started.text
        if warnings:
            text += "\n\n" + "\n".join(f"(allowed-tools: {w})" for w in warnings)
        data = {"success": True, "commandName": started.name,
                "allowedTools": list(started.allowed_tools)}
        return ToolResult(f"Launching skill: {started.name}", data=data,
                          summary=f"Skill {started.name}",
                          extra_blocks=[{"type": "text", "text": text}])
