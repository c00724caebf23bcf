"""/skills: the skills found (project, then user), each with how to run it."""

from __future__ import annotations

from cc.commands.context import CommandContext, CommandResult


async def skills_command(ctx: CommandContext, args: str) -> CommandResult:
    from cc.input.skills import load_skills, skill_dirs

    scan = load_skills(ctx.cwd, ctx.config_dir)
    for warning in scan.warnings:
        ctx.say(warning, style="yellow")
    if not scan.skills:
        folders = " or ".join(str(d / "<name>" / "SKILL.md")
                              for _, d in skill_dirs(ctx.cwd, ctx.config_dir))
        ctx.say(f"No skills. Add one as {folders}.", style="dim")
        return CommandResult()
    ctx.say(f"{len(scan.skills)} skills; a project's overrides a user's of the same name",
            style="dim")
    for scope, folder in skill_dirs(ctx.cwd, ctx.config_dir):
        group = [s for s in scan.skills if s.scope == scope]
        if not group:
            continue
        ctx.say("")
        ctx.say(f"{scope.capitalize()} skills ({folder})", style="bold")
        for skill in group:
            usage = f"/{skill.name} {skill.argument_hint}" if skill.argument_hint \
                else f"/{skill.name}"
            notes = [] if not skill.disable_model_invocation else ["user only"]
            if skill.allowed_tools:
                notes.append("allows " + ", ".join(skill.allowed_tools))
            tail = f" ({'; '.join(notes)})" if notes else ""
            ctx.say(f"  {usage}: {skill.description}{tail}")
    return CommandResult()
