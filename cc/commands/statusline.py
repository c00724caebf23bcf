"""/statusline [what to show]: a prompt asking the model to write a status line script and
save it as settings `statusLine` (our own wording; Claude Code hands the same job to an
agent of its own)."""

from __future__ import annotations

from cc.commands.context import CommandContext, CommandResult
from cc.models.content_blocks import TextBlock
from cc.models.messages import UserMessage

_DEFAULT_WISH = ("Unless I say otherwise below, base it on my shell prompt: read the PS1 "
                 "set in my shell's startup files (~/.bashrc, ~/.zshrc, ~/.bash_profile, "
                 "~/.profile) and turn it into an equivalent line, adding the model's name.")


async def statusline_command(ctx: CommandContext, args: str) -> CommandResult:
    from cc.prompts import load_text

    wishes = _DEFAULT_WISH + (f"\n   What I want: {args.strip()}" if args.strip() else "")
    prompt = load_text("commands/statusline.md").strip().format(
        settings_file=ctx.config_dir / "settings.json",
        script=ctx.config_dir / "statusline.sh",
        wishes=wishes,
    )
    tags = ("<command-name>/statusline</command-name>\n"
            "<command-message>statusline</command-message>\n"
            f"<command-args>{args}</command-args>")
    return CommandResult(submit=UserMessage([TextBlock(tags), TextBlock(prompt)]))
