"""Input preparation, the same for every front end: what typed (or `-p`) text becomes
before it goes to the model.

    prepare_prompt("/review src", ...)   a custom command expanded into its prompt (its
                                         `model` and `allowed-tools` for that turn)
    prepare_prompt("look at @a.py", ...) the text, with the files its `@path`s name

Built-in slash commands are the REPL's (`cc.commands.registry`); in print mode their
text goes to the model as typed, as in Claude Code.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cc.models.messages import UserMessage


_NAME = re.compile(r"^/([^\s/]+)(?:\s+(.*))?$", re.S)


def parse_slash(text: str) -> tuple[str, str] | None:
    """("name", "args") for "/name args"; None when `text` is not a command (a path such
    as "/usr/bin/env is broken" is a prompt)."""
    match = _NAME.match(text.strip())
    if not match:
        return None
    return match.group(1), (match.group(2) or "").strip()


@dataclass(frozen=True)
class PreparedInput:
    message: UserMessage
    #: A custom command's `model:` (this turn only).
    model: str | None = None
    #: A custom command's `allowed-tools:` (allowed for this turn only).
    allowed_tools: tuple[str, ...] = ()


async def prepare_prompt(
    text: str,
    cwd: Path,
    config_dir: Path,
    *,
    session_id: str = "",
    permit: Callable[[str, Sequence[str]], Awaitable[bool]] | None = None,
) -> PreparedInput:
    """The message for `text`. Raises CommandError when a command's `` !`cmd` `` fails
    or is not permitted."""
    from cc.input.custom import expand_command, find_custom, load_custom_commands
    from cc.input.mentions import expand_mentions

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
    return PreparedInput(expand_mentions(text, cwd))
