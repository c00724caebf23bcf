"""`/mcp__<server>__<prompt> [args]`: an MCP server's prompt typed as a slash command
becomes the user message, the same in print mode and the REPL.

    expand_mcp_prompt(command, "the parser", source, typed=…, hooks=…)
        1. UserPromptExpansion hooks (`expansion_type: "mcp_prompt"`): a block sends
           nothing; context they give goes with the message
        2. the arguments bound to the prompt's (`cc.mcp.prompts.bind_arguments`): a
           missing required one sends nothing, and says the usage
        3. the server renders the prompt; its messages follow the command's tags

The commands and the rendering come from a `PromptSource` (the session's MCP hub).
What goes wrong is a value (`PromptExpansion.problem`), for the front end to show.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from cc.mcp.prompts import PromptCommand, bind_arguments
from cc.models.content_blocks import ContentBlock, TextBlock, parse_block
from cc.models.messages import UserMessage, system_reminder

if TYPE_CHECKING:
    from cc.hooks.outcome import HookOutcome


class PromptSource(Protocol):
    def prompt_commands(self) -> list[PromptCommand]: ...

    async def get_prompt(self, command: PromptCommand, arguments: dict[str, str]
                         ) -> list[dict[str, Any]] | str: ...


class ExpansionHooks(Protocol):
    async def user_prompt_expansion(self, *, expansion_type: str, command_name: str,
                                    command_args: str, command_source: str | None,
                                    prompt: str) -> HookOutcome: ...


@dataclass(frozen=True)
class PromptExpansion:
    #: The message to send (None: nothing is sent; `problem` says why).
    message: UserMessage | None
    problem: str | None = None
    #: For the user besides (hook messages).
    notices: tuple[str, ...] = ()


def find_prompt(source: PromptSource | None, name: str) -> PromptCommand | None:
    if source is None or not name.startswith("mcp__"):
        return None
    return next((c for c in source.prompt_commands() if c.name == name), None)


def prompt_tags(command: PromptCommand, args: str) -> str:
    """How an MCP prompt's invocation opens its message (Claude Code's tags and order)."""
    tags = (f"<command-message>{command.name}</command-message>\n"
            f"<command-name>/{command.name}</command-name>\n")
    return tags + (f"<command-args>{args}</command-args>\n" if args else "")


async def expand_mcp_prompt(command: PromptCommand, args: str, source: PromptSource, *,
                            typed: str, hooks: ExpansionHooks | None = None
                            ) -> PromptExpansion:
    """The message for `/command args` (`typed` is the whole input, for the hooks)."""
    args = args.strip()
    notices: Sequence[str] = ()
    context: str | None = None
    if hooks is not None:
        outcome = await hooks.user_prompt_expansion(
            expansion_type="mcp_prompt", command_name=command.name, command_args=args,
            command_source="mcp", prompt=typed)
        if outcome.stop or outcome.blocked:
            reason = (outcome.stop_reason if outcome.stop else outcome.reason) or "no reason given"
            return PromptExpansion(None, f"/{command.name} was stopped by a "
                                         f"UserPromptExpansion hook: {reason}")
        notices, context = outcome.user_messages, outcome.additional_context
    bound = bind_arguments(command, args)
    if isinstance(bound, str):
        return PromptExpansion(None, bound, tuple(notices))
    rendered = await source.get_prompt(command, bound)
    if isinstance(rendered, str):
        return PromptExpansion(None, rendered, tuple(notices))
    blocks: list[ContentBlock] = [TextBlock(prompt_tags(command, args)),
                                  *map(parse_block, rendered)]
    if context:
        blocks.append(TextBlock(system_reminder(context)))
    return PromptExpansion(UserMessage(blocks), None, tuple(notices))
