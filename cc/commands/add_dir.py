"""/add-dir <path>: another working folder for the rest of the session, as `--add-dir`
gives one at start: the tools may read and edit there as in the working folder. In the
REPL the user confirms first (the folder's files become reachable)."""

from __future__ import annotations

from pathlib import Path

from cc.commands.context import CommandContext, CommandResult

__all__ = ["add_dir_command"]


async def add_dir_command(ctx: CommandContext, args: str) -> CommandResult:
    from cc.permissions.paths import inside_any, norm

    raw = args.strip()
    if not raw:
        ctx.say("Usage: /add-dir <path>", style="red")
        return CommandResult()
    path = Path(raw).expanduser()
    path = Path(norm(str(path if path.is_absolute() else ctx.cwd / path)))
    if not path.exists():
        ctx.say(f"Path {path} was not found.", style="red")
        return CommandResult()
    if not path.is_dir():
        ctx.say(f"{path} is not a directory.", style="red")
        return CommandResult()
    checker = ctx.runtime.permissions
    if checker is None:
        ctx.say("This session has no permission rules to add a folder to.", style="red")
        return CommandResult()
    permissions = checker.context
    if inside_any(str(path), [permissions.cwd, *permissions.additional_dirs]):
        ctx.say(f"{path} is already a working directory of this session.")
        return CommandResult()
    if ctx.choose is not None:
        question = (f"Add {path} as a working directory? cc will be able to read, edit "
                    "and run files there for the rest of this session.")
        # No first, as in Claude Code: Enter alone leaves the folder out.
        if await ctx.choose(question, ["No, leave it out", "Yes, add it"]) != 1:
            ctx.say(f"Did not add {path} as a working directory.")
            return CommandResult()
    permissions.additional_dirs.append(path)
    ctx.say(f"Added {path} as a working directory for this session.")
    return CommandResult()
