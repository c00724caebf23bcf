"""/resume (pick an earlier conversation) and /memory (edit a CLAUDE.md)."""

from __future__ import annotations

import asyncio
import os
import shlex
import time
from pathlib import Path
from typing import Any

from cc.commands.context import CommandContext, CommandResult, maybe_await

MAX_LISTED = 20


def age(modified: float, now: float | None = None) -> str:
    seconds = max(0, int((now or time.time()) - modified))
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit} ago"
    return "just now"


def _field(item: Any, *names: str, default: Any = None) -> Any:
    for name in names:
        value = item.get(name) if isinstance(item, dict) else getattr(item, name, None)
        if value is not None:
            return value
    return default


def session_line(item: Any, now: float | None = None) -> str:
    modified = _field(item, "modified", default=0)
    if hasattr(modified, "timestamp"):
        modified = modified.timestamp()
    prompt = str(_field(item, "first_prompt", "firstPrompt", "summary", default=""))
    prompt = " ".join(prompt.split())
    count = _field(item, "message_count", "messageCount", default=0)
    prompt = prompt if len(prompt) <= 60 else prompt[:59] + "…"
    return f"{age(float(modified), now):>9}  {count:>4} msgs  {prompt or '(no prompt)'}"


async def resume_command(ctx: CommandContext, args: str) -> CommandResult:
    services = ctx.services
    if services.list_sessions is None or services.resume_session is None:
        ctx.say("Resuming conversations is not available in this build yet.")
        return CommandResult()
    sessions = list(await maybe_await(services.list_sessions()))[:MAX_LISTED]
    ids = [str(_field(s, "session_id", "sessionId", default="")) for s in sessions]
    if args:
        matches = [i for i in ids if i.startswith(args.strip())]
        if len(matches) != 1:
            ctx.say(f"No single session matches {args.strip()!r}.", style="red")
            return CommandResult()
        chosen = matches[0]
    else:
        if not sessions:
            ctx.say("No earlier conversations in this project.")
            return CommandResult()
        if ctx.choose is None:
            for s in sessions:
                ctx.say(f"{_field(s, 'session_id', 'sessionId')}  {session_line(s)}")
            ctx.say("Use /resume <session id> to pick one.", style="dim")
            return CommandResult()
        index = await ctx.choose("Resume a conversation", [session_line(s) for s in sessions])
        if index is None:
            ctx.say("Resume cancelled.", style="dim")
            return CommandResult()
        chosen = ids[index]
    await maybe_await(services.resume_session(chosen))
    if ctx.replay is not None:
        ctx.replay(ctx.engine.messages)
        ctx.say("")
    ctx.say(f"Resumed conversation {chosen}.", style="dim")
    return CommandResult()


def memory_files(ctx: CommandContext) -> list[tuple[str, Path]]:
    """The CLAUDE.md files, then the project's memory index and memories."""
    files = [
        ("Project memory", ctx.cwd / "CLAUDE.md"),
        ("User memory", ctx.config_dir / "CLAUDE.md"),
        ("Local memory (not checked in)", ctx.cwd / "CLAUDE.local.md"),
    ]
    folder = ctx.runtime.memory_dir
    if folder is not None:
        files.append(("Auto-memory index", folder / "MEMORY.md"))
        files += [(f"Memory: {path.stem}", path) for path in sorted(folder.glob("*.md"))
                  if path.name != "MEMORY.md"]
    return files


async def memory_command(ctx: CommandContext, args: str) -> CommandResult:
    files = memory_files(ctx)
    if ctx.choose is None:  # not interactive: list them
        for label, path in files:
            ctx.say(f"{label}: {path}" + ("" if path.exists() else " (none yet)"))
        ctx.say("Open one in your editor with /memory in the interactive session.", style="dim")
        return CommandResult()
    labels = [f"{label}: {path}" + ("" if path.exists() else " (new)") for label, path in files]
    index = await ctx.choose("Which memory file?", labels)
    if index is None:
        ctx.say("Cancelled.", style="dim")
        return CommandResult()
    path = files[index][1]
    if ctx.edit_file is None:
        ctx.say(f"Edit {path} in your editor; cc reads it at start-up.")
        return CommandResult()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch(exist_ok=True)
    status = await ctx.edit_file(path)
    if status != 0:
        ctx.say(f"The editor exited with status {status}.", style="red")
    else:
        ctx.say(f"Saved {path}. It takes effect in new conversations.", style="dim")
    return CommandResult()


def editor_command() -> list[str]:
    return shlex.split(os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi")


async def open_in_editor(path: Path) -> int:
    """Run the user's editor on `path`, attached to this terminal; its exit status."""
    try:
        proc = await asyncio.create_subprocess_exec(*editor_command(), str(path))
    except OSError:
        return 127
    return await proc.wait()
