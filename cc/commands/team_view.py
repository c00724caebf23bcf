"""/team: the team this session leads, one line per member; `/team <name>` shows that
member's conversation (its sidechain transcript) the way a resumed one is shown."""

from __future__ import annotations

from cc.commands.context import CommandContext, CommandResult


async def team_command(ctx: CommandContext, args: str) -> CommandResult:
    from cc.team.roster import conversation, roster

    session = ctx.runtime.team
    if session is None:
        ctx.say("This session leads no team (the model makes one with TeamCreate, when agent "
                "teams are on).", style="dim")
        return CommandResult()
    config = session.files.load()
    members = roster(session, config)
    name = args.strip().lstrip("@")
    if not name:
        about = f": {config.description}" if config is not None and config.description else ""
        ctx.say(f"Team {session.name}{about}", style="bold")
        if not members:
            ctx.say("  No members yet.", style="dim")
        for m in members:
            last = f" · last: {m.last_tool[0]}" if m.last_tool else ""
            ctx.say(f"  @{m.name} · {m.state}{last} · {m.agent_id or '?'}")
        ctx.say("/team <name> shows a member's conversation.", style="dim")
        return CommandResult()
    if name not in {m.name for m in members}:
        known = ", ".join(m.name for m in members) or "none yet"
        ctx.say(f"No member {name!r} in team {session.name} (members: {known}).", style="red")
        return CommandResult()
    messages = conversation(session, name)
    if not messages:
        ctx.say(f"@{name} has no conversation to show yet.", style="dim")
        return CommandResult()
    state = next(m.state for m in members if m.name == name)
    ctx.say(f"Transcript of @{name} ({state}):", style="bold")
    if ctx.replay is None:
        ctx.say("(this session cannot show it)", style="dim")
    else:
        ctx.replay(messages)
    ctx.say("")
    ctx.say(f"End of @{name}'s transcript.", style="dim")
    return CommandResult()
