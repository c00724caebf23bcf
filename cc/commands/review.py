"""/review and /security-review: prompt commands. Each sends a prompt of ours (under
`cc/prompts/commands/`) to the model, reviewing a pull request when one is named, else
the pending changes on the branch; what the user typed after the name is passed on."""

from __future__ import annotations

from cc.commands.context import CommandContext, CommandResult
from cc.models.content_blocks import TextBlock
from cc.models.messages import UserMessage

__all__ = ["prompt_command_message", "review_command", "security_review_command"]


def prompt_command_message(name: str, prompt_file: str, args: str) -> UserMessage:
    """The message a prompt command sends: its invocation (as Claude Code records one)
    and its prompt, with the user's arguments."""
    from cc.prompts import load_text

    prompt = load_text(prompt_file).strip()
    if args.strip():
        prompt += f"\n\nThe user added: {args.strip()}"
    tags = (f"<command-name>/{name}</command-name>\n<command-message>{name}</command-message>\n"
            f"<command-args>{args.strip()}</command-args>")
    return UserMessage([TextBlock(tags), TextBlock(prompt)])


async def review_command(ctx: CommandContext, args: str) -> CommandResult:
    return CommandResult(submit=prompt_command_message("review", "commands/review.md", args))


async def security_review_command(ctx: CommandContext, args: str) -> CommandResult:
    return CommandResult(submit=prompt_command_message(
        "security-review", "commands/security_review.md", args))
