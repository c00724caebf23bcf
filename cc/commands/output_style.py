"""/output-style [name]: list the output styles, or choose one.

The choice is saved as `outputStyle` in `.claude/settings.local.json` and, as in
Claude Code, takes effect in the next conversation: after /clear (`restyle`, which the
clear command calls) or a restart, so the conversation under way keeps its prompt
(and its prompt cache).
"""

from __future__ import annotations

from typing import Any

from cc.commands.context import CommandContext, CommandResult


async def output_style_command(ctx: CommandContext, args: str) -> CommandResult:
    from cc.prompts.output_styles import find_style, load_styles

    styles, warnings = load_styles(ctx.cwd, ctx.config_dir)
    for warning in warnings:
        ctx.say(warning, style="yellow")
    current = _in_effect(ctx)
    chosen = args.strip()
    if not chosen:
        lines = [f"{s.name}{' (current)' if s.name == current else ''}: {s.description}"
                 + ("" if s.source == "built-in" else f" [{s.source}]") for s in styles]
        if ctx.choose is None:
            ctx.say(f"Output style: {current}")
            for line in lines:
                ctx.say(f"  {line}")
            ctx.say("Use /output-style <name> to choose one.", style="dim")
            return CommandResult()
        index = await ctx.choose("Choose an output style", lines)
        if index is None:
            ctx.say(f"Kept the output style {current}.", style="dim")
            return CommandResult()
        chosen = styles[index].name
    style = find_style(styles, chosen)
    if style is None:
        known = ", ".join(s.name for s in styles)
        ctx.say(f'No output style "{chosen}" (there are: {known}).', style="red")
        return CommandResult()
    problem = save_setting(ctx, "outputStyle", style.name)
    if problem is not None:
        ctx.say(problem, style="red")
        return CommandResult()
    ctx.say(f"Set the output style to {style.name} (saved in .claude/settings.local.json); "
            "it takes effect in the next conversation: /clear to start one.")
    return CommandResult()


def save_setting(ctx: CommandContext, key: str, value: Any) -> str | None:
    """Set `key` in the project's local settings file; a warning, or None."""
    from cc.config.settings import edit_settings_file, settings_paths

    def edit(data: dict[str, Any]) -> None:
        data[key] = value

    return edit_settings_file(settings_paths(ctx.cwd, ctx.config_dir)["local"], edit)


def restyle(ctx: CommandContext) -> None:
    """Before a new conversation: the output style the settings files name now goes
    into the main agent's prompt (`--settings` still wins)."""
    from cc.config.settings import load_settings
    from cc.prompts.builder import with_output_style
    from cc.prompts.output_styles import resolve_style

    flagged = [f.data for f in ctx.runtime.settings.files if f.source == "flagSettings"]
    name = next((d["outputStyle"] for d in flagged if "outputStyle" in d),
                load_settings(ctx.cwd, ctx.config_dir).get("outputStyle"))
    style, warnings = resolve_style(name, ctx.cwd, ctx.config_dir)
    for warning in warnings:
        ctx.say(warning, style="yellow")
    if style.name == _in_effect(ctx) or all(s.name != "intro" for s in ctx.engine.config.system):
        return  # unchanged, or --system-prompt replaced the prompt
    config = ctx.engine.config
    config.system = with_output_style(config.system, style)
    ctx.runtime.output_style = style.name


def _in_effect(ctx: CommandContext) -> str:
    return getattr(ctx.runtime, "output_style", None) or "default"
