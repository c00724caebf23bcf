"""MCP prompts as slash commands: each prompt of a connected server is
`/mcp__<server>__<prompt> [args]` (names cleaned as tool names are).

    prompt_commands(connections)       the commands of the servers connected so far
    bind_arguments(command, "a b c")   {"first": "a", "second": "b c"}, or what is missing
    render_prompt(connection, command, arguments)
                                       the prompt's messages as API content blocks

Arguments: the typed text is split at whitespace onto the declared arguments in order,
and the last declared argument takes the rest of the text as typed (so
`/mcp__demo__review the parser` gives `topic` "the parser"). Claude Code gives each
argument one word and drops the words left over; keeping them loses nothing typed.
Quotes are not special (nor are they in Claude Code).

A prompt's messages (the user's and the assistant's alike) become one user message:
text as text, images as images, an embedded resource as its text under a line naming
it (an image resource as an image).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cc.mcp.client import describe_error
from cc.mcp.connection import ServerConnection, ServerDown
from cc.mcp.tool import call_timeout, content_blocks, tool_name


@dataclass(frozen=True)
class PromptArgument:
    name: str
    required: bool = False
    description: str | None = None


@dataclass(frozen=True)
class PromptCommand:
    #: The command's name, without the slash: `mcp__<server>__<prompt>`.
    name: str
    server: str
    prompt: str
    description: str = ""
    arguments: tuple[PromptArgument, ...] = ()

    @property
    def argument_hint(self) -> str:
        """`<first> <second> [focus]`: required arguments in angle brackets."""
        return " ".join(f"<{a.name}>" if a.required else f"[{a.name}]" for a in self.arguments)

    @property
    def usage(self) -> str:
        return f"/{self.name} {self.argument_hint}".rstrip()

    @property
    def label(self) -> str:
        """How lists name it: `demo:review (MCP)`."""
        return f"{self.server}:{self.prompt} (MCP)"


def prompt_commands(connections: Mapping[str, ServerConnection]) -> list[PromptCommand]:
    """The prompts of every server connected so far (kept while one reconnects); of two
    prompts whose cleaned names clash, the first."""
    out: dict[str, PromptCommand] = {}
    for connection in connections.values():
        if connection.generation == 0 or connection.status == "disabled":
            continue
        for spec in connection.listing.prompts:
            command = command_of(connection.name, spec)
            out.setdefault(command.name, command)
    return list(out.values())


def command_of(server: str, spec: Any) -> PromptCommand:
    arguments = tuple(PromptArgument(str(a.name), bool(a.required), a.description or None)
                      for a in (getattr(spec, "arguments", None) or ()))
    return PromptCommand(tool_name(server, str(spec.name)), server, str(spec.name),
                         str(getattr(spec, "description", None) or ""), arguments)


def bind_arguments(command: PromptCommand, args: str) -> dict[str, str] | str:
    """The arguments for `args` as typed, by name; or, as a string, what is missing."""
    declared = command.arguments
    words = args.strip().split(maxsplit=max(len(declared) - 1, 0)) if declared else []
    bound = dict(zip((a.name for a in declared), words, strict=False))
    missing = [a.name for a in declared if a.required and a.name not in bound]
    if missing:
        which = ", ".join(missing)
        return (f"/{command.name} needs {'the arguments' if len(missing) > 1 else 'the argument'} "
                f"{which}. Usage: {command.usage}")
    return bound


async def render_prompt(connection: ServerConnection, command: PromptCommand,
                        arguments: dict[str, str]) -> list[dict[str, Any]] | str:
    """The prompt's messages as content blocks; or, as a string, why there are none."""
    timeout = call_timeout()
    try:
        result = await connection.call(
            lambda client: client.get_prompt(command.prompt, arguments), timeout)
    except ServerDown as exc:
        return str(exc)
    except TimeoutError:
        return (f'MCP server "{command.server}" did not give prompt "{command.prompt}" within '
                f"{timeout:g}s")
    except Exception as exc:  # noqa: BLE001 - the server's failure, told to the user
        return f'MCP server "{command.server}" could not give prompt "{command.prompt}": ' \
               f"{describe_error(exc)}"
    return prompt_blocks(result, command.server)


def prompt_blocks(result: Any, server: str) -> list[dict[str, Any]]:
    """A `GetPromptResult`'s messages as the content of one user message."""
    blocks: list[dict[str, Any]] = []
    for message in result.messages or ():
        item = message.content
        if getattr(item, "type", "") == "resource":
            blocks += _resource(item.resource, server)
        else:
            blocks += content_blocks(item)
    return blocks


def _resource(resource: Any, server: str) -> list[dict[str, Any]]:
    head = f"Resource {resource.uri} of MCP server {server}"
    text = getattr(resource, "text", None)
    if text is not None:
        return [{"type": "text", "text": f"{head}:\n{text}"}]
    return _blob(resource, head)


def _blob(resource: Any, head: str) -> list[dict[str, Any]]:
    mime = getattr(resource, "mime_type", None) or ""
    blob = getattr(resource, "blob", None)
    if blob is not None and mime.startswith("image/"):
        return [{"type": "text", "text": f"{head}:"},
                {"type": "image", "source": {"type": "base64", "media_type": mime,
                                             "data": blob}}]
    return [{"type": "text", "text": f"{head}: binary data ({mime or 'unknown type'}), "
                                     "not shown"}]
