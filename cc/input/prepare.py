"""Input preparation, the same for every front end: what typed (or `-p`) text becomes
before it goes to the model.

    prepare_prompt("/review src", ...)   a custom command expanded into its prompt (its
                                         `model` and `allowed-tools` for that turn)
    prepare_prompt("/mcp__demo__review the parser", ..., mcp=hub)
                                         an MCP server's prompt (`mcp_prompts.py`)
    prepare_prompt("look at @a.py", ...) the text, with the files its `@path`s name and
                                         the MCP resources its `@server:uri`s name

Built-in slash commands are the REPL's (`cc.commands.registry`); in print mode their
text goes to the model as typed, as in Claude Code.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from cc.input.mcp_prompts import PromptSource
from cc.tools.mcp_access import ResourceAccess

if TYPE_CHECKING:
    from cc.input.mcp_prompts import ExpansionHooks
    from cc.models.messages import UserMessage


_NAME = re.compile(r"^/([^\s/]+)(?:\s+(.*))?$", re.S)


def parse_slash(text: str) -> tuple[str, str] | None:
    """("name", "args") for "/name args"; None when `text` is not a command (a path such
    as "/usr/bin/env is broken" is a prompt)."""
    match = _NAME.match(text.strip())
    if not match:
        return None
    return match.group(1), (match.group(2) or "").strip()


class McpInputs(ResourceAccess, PromptSource, Protocol):
    """What input preparation asks of the MCP servers (the session's hub): resources
    for `@server:uri` mentions, prompts for `/mcp__server__prompt`."""


@dataclass(frozen=True)
class PreparedInput:
    #: The message to send (None: nothing is sent, and `problem` says why).
    message: UserMessage | None
    #: A custom command's `model:` (this turn only).
    model: str | None = None
    #: A custom command's `allowed-tools:` (allowed for this turn only).
    allowed_tools: tuple[str, ...] = ()
    #: Why nothing is sent (an MCP prompt's missing argument, a hook's block).
    problem: str | None = None
    #: For the user besides (a mention not attached, a hook's message).
    notices: tuple[str, ...] = ()


async def prepare_prompt(
    text: str,
    cwd: Path,
    config_dir: Path,
    *,
    session_id: str = "",
    permit: Callable[[str, Sequence[str]], Awaitable[bool]] | None = None,
    mcp: McpInputs | None = None,
    hooks: ExpansionHooks | None = None,
) -> PreparedInput:
    """The message for `text` (`hooks` hear of an MCP prompt's expansion). Raises
    CommandError when a command's `` !`cmd` `` fails or is not permitted."""
    from cc.input.custom import expand_command, find_custom, load_custom_commands
    from cc.input.mcp_prompts import expand_mcp_prompt, find_prompt

    parsed = parse_slash(text)
    command = find_custom(load_custom_commands(cwd, config_dir), parsed[0]) if parsed else None
    if parsed is not None and command is not None:
        allowed = command.allowed_tools

        async def permit_this(cmd: str) -> bool:
            return permit is not None and await permit(cmd, allowed)

        expanded = await expand_command(
            command, parsed[1], cwd=cwd, session_id=session_id, permit=permit_this
        )
        return PreparedInput(expanded.message, command.model, tuple(command.allowed_tools))
    prompt = find_prompt(mcp, parsed[0]) if parsed is not None else None
    if parsed is not None and prompt is not None and mcp is not None:
        expansion = await expand_mcp_prompt(prompt, parsed[1], mcp, typed=text, hooks=hooks)
        return PreparedInput(expansion.message, problem=expansion.problem,
                             notices=expansion.notices)
    message, notices = await prompt_message(text, cwd, mcp)
    return PreparedInput(message, notices=notices)


async def prompt_message(text: str, cwd: Path, resources: ResourceAccess | None
                         ) -> tuple[UserMessage, tuple[str, ...]]:
    """The message for a plain prompt: the text, the files its `@path`s name, then the
    MCP resources its `@server:uri`s name; notices for mentions not attached."""
    from cc.input.mentions import expand_mentions
    from cc.input.resource_mentions import attach_resources

    message = expand_mentions(text, cwd)
    attached = await attach_resources(text, resources)
    message.content += attached.blocks
    return message, tuple(attached.notices)
