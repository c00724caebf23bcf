"""The Skill tool: the model starts a skill (`cc.input.skills`) by name.

The call's result says the skill is launching; beside it, in the same user message, the
model gets the skill's folder and its body with the arguments filled in. The skill's
`allowed-tools` are allowed in the calling agent until its turn ends (the agent's
`grant_for_turn` service); other agents do not get them. The listing in the description
is read again for each request, so a skill added mid-session shows up.
"""

from __future__ import annotations

from pathlib import Path
from string import Template
from typing import TYPE_CHECKING, ClassVar

from pydantic import ConfigDict

from cc.tools.base import Tool, ToolContext, ToolInput, ToolResult, optional_without_null

if TYPE_CHECKING:
    from cc.input.custom import CustomCommand


class SkillInput(ToolInput):
    model_config = ConfigDict(extra="forbid", json_schema_extra=optional_without_null)

    skill: str
    args: str | None = None


class SkillTool(Tool):
    name = "Skill"
    input_model: ClassVar[type[ToolInput]] = SkillInput

    def __init__(self, cwd: Path, config_dir: Path) -> None:
        #: Where skills are looked for: the project's `.claude/skills`, the user's.
        self.cwd = cwd
        self.config_dir = config_dir

    def is_concurrency_safe(self, inp: ToolInput) -> bool:
        return False  # a skill's grants and body belong to one moment of the turn

    def _skills(self) -> list[CustomCommand]:
        from cc.input.skills import load_skills

        return load_skills(self.cwd, self.config_dir).skills

    def description(self) -> str:
        from cc.input.skills import skill_listing
        from cc.prompts import load_text

        listing = "\n".join(skill_listing(self._skills())) or "(none yet)"
        return Template(load_text("tools/Skill.md").strip()).substitute(skill_listing=listing)

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, SkillInput)
        from cc.input.skills import find_skill, skill_text

        skill = find_skill(self._skills(), inp.skill)
        if skill is None:
            return ToolResult.error(f"Unknown skill: {inp.skill.strip()}")
        if skill.disable_model_invocation:
            return ToolResult.error(f"The skill {skill.name} is for the user to run "
                                    f"(/{skill.name}); it cannot be started with this tool.")
        warnings: list[str] = []
        if skill.allowed_tools and ctx.engine_ref is not None and ctx.engine_ref.bound:
            warnings = ctx.services().grant_for_turn(list(skill.allowed_tools))
        text = skill_text(skill, inp.args or "", project_dir=self.cwd)
        if warnings:
            text += "\n\n" + "\n".join(f"(allowed-tools: {w})" for w in warnings)
        data = {"success": True, "commandName": skill.name,
                "allowedTools": list(skill.allowed_tools)}
        return ToolResult(f"Launching skill: {skill.name}", data=data,
                          summary=f"Skill {skill.name}",
                          extra_blocks=[{"type": "text", "text": text}])
