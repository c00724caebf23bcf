"""/agents: the sub-agent types the Agent tool can launch, by source, as plain lines."""

from __future__ import annotations

from cc.commands.context import CommandContext, CommandResult


async def agents_command(ctx: CommandContext, args: str) -> CommandResult:
    from cc.agents.definitions import SOURCES, AgentDefinition, agent_dirs, load_agents

    options = ctx.runtime.options
    catalog = load_agents(ctx.cwd, ctx.config_dir, options.agents_json if options else None)
    tools = ctx.engine.registry.names
    folders = dict(agent_dirs(ctx.cwd, ctx.config_dir))
    titles = {"built-in": "Built-in agents", "user": f"User agents ({folders['user']})",
              "project": f"Project agents ({folders['project']})", "flag": "From --agents"}

    def details(d: AgentDefinition) -> str:
        parts = [f"Tools: {d.tools_text(tools)}"]
        if d.model:
            parts.append(f"model: {d.model}")
        if d.max_turns:
            parts.append(f"max turns: {d.max_turns}")
        if d.permission_mode:
            parts.append(f"permission mode: {d.permission_mode}")
        replaced = [s.source for s in catalog.shadowed if s.agent_type == d.agent_type]
        if replaced:
            parts.append("overrides the " + " and the ".join(replaced) + " agent")
        if d.path is not None:
            parts.append(str(d.path))
        return " · ".join(parts)

    ctx.say(f"{len(catalog.definitions)} agent types; a later source overrides an earlier one: "
            "built-in < user < project < --agents", style="dim")
    for source in SOURCES:
        group = [catalog.definitions[n] for n in catalog.names()
                 if catalog.definitions[n].source == source]
        if not group:
            continue
        ctx.say("")
        ctx.say(titles[source], style="bold")
        for d in group:
            ctx.say(f"  {d.agent_type}: {d.description}")
            ctx.say(f"    {details(d)}", style="dim")
    if not any(d.source != "built-in" for d in catalog.definitions.values()):
        ctx.say("")
        ctx.say(f"Add your own as Markdown files in {folders['project']} or {folders['user']}.",
                style="dim")
    for warning in catalog.warnings:
        ctx.say(f"Warning: {warning}", style="yellow")
    return CommandResult()
