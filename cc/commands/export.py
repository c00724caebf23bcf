"""/export [file]: the conversation as plain text (`conversation_text`), written to
`file` (relative to the working folder), or, with no file, put on the clipboard when a
clipboard program is found (pbcopy, wl-copy, xclip, xsel, clip.exe), else printed.
It always says which it did.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from datetime import datetime
from pathlib import Path

from cc import __version__
from cc.commands.context import CommandContext, CommandResult
from cc.commands.conversation_text import conversation_text

__all__ = ["clipboard_command", "copy_to_clipboard", "export_command"]


async def export_command(ctx: CommandContext, args: str) -> CommandResult:
    body = conversation_text(ctx.engine.messages, ctx.cwd)
    if not body:
        ctx.say("Nothing to export yet: the conversation is empty.")
        return CommandResult()
    stamp = datetime.now().astimezone().strftime("%Y-%m-%d %H:%M")
    text = (f"cc {__version__} · {ctx.cwd} · session {ctx.engine.session_id} · "
            f"exported {stamp}\n\n{body}")
    if args.strip():
        path = Path(args.strip()).expanduser()
        path = path if path.is_absolute() else ctx.cwd / path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            ctx.say(f"Could not export to {path}: {exc.strerror or exc}", style="red")
            return CommandResult()
        ctx.say(f"Conversation exported to {path}")
        return CommandResult()
    used = await copy_to_clipboard(text)
    if used is not None:
        ctx.say(f"Conversation copied to the clipboard (with {used}); "
                "/export <file> saves it to a file instead.")
        return CommandResult()
    ctx.say("No clipboard program found (pbcopy, wl-copy, xclip, xsel), so here is the "
            "conversation; /export <file> saves it to a file.", style="dim")
    ctx.say(text.rstrip())
    return CommandResult()


def clipboard_command(env: dict[str, str] | None = None) -> list[str] | None:
    """The program that puts its stdin on this machine's clipboard, if there is one."""
    env = dict(os.environ) if env is None else env
    path = env.get("PATH")
    candidates: list[list[str]] = [["pbcopy"]]
    if env.get("WAYLAND_DISPLAY"):
        candidates.append(["wl-copy"])
    if env.get("DISPLAY"):
        candidates += [["xclip", "-selection", "clipboard"], ["xsel", "--clipboard", "--input"]]
    candidates.append(["clip.exe"])  # WSL
    for argv in candidates:
        if shutil.which(argv[0], path=path):
            return argv
    return None


async def copy_to_clipboard(text: str) -> str | None:
    """Put `text` on the clipboard; the program used, or None (none found, or it failed)."""
    argv = clipboard_command()
    if argv is None:
        return None
    try:
        proc = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL)
    except OSError:
        return None
    try:
        await asyncio.wait_for(proc.communicate(text.encode()), timeout=5)
    except (OSError, TimeoutError):
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        return None
    return argv[0] if proc.returncode == 0 else None
