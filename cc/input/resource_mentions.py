"""`@server:uri` mentions: an MCP resource named in a prompt travels with it.

    "summarise @demo:note://readme"  ->  TextBlock("summarise @demo:note://readme"),
        TextBlock("<system-reminder>\\nContents of the MCP resource note://readme "
                  "(server demo):\\nthe note's text\\n</system-reminder>")

`server` must be a configured MCP server; the resource is read through the session's
servers (`cc.tools.mcp_access.ResourceAccess`), several at once. Text goes as text, an
image as an image block; other binary data is named, not attached. A mention that
cannot be attached (an unknown server, a read that fails) stays plain text, and a
notice tells the user why. `@word:word` with no `://` and no such server is not a
mention at all (it is left alone, silently).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import re
from collections.abc import Collection
from dataclasses import dataclass, field

from cc.models.content_blocks import ContentBlock, ImageBlock, TextBlock
from cc.models.messages import system_reminder
from cc.tools.mcp_access import ResourceAccess, ResourceContents, ResourceProblem

_MENTION = re.compile(r"(?<!\S)@([A-Za-z0-9_.-]+):(\S+)")
_TRAILING = ".,;:!?)]}'\""


@dataclass(frozen=True)
class ResourceMention:
    server: str
    uri: str

    @property
    def shown(self) -> str:
        return f"@{self.server}:{self.uri}"


@dataclass
class Attached:
    """What the mentions add to the message, and what the user is told."""

    blocks: list[ContentBlock] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)


def find_resource_mentions(text: str, servers: Collection[str]
                           ) -> tuple[list[ResourceMention], list[str]]:
    """The mentions of configured servers' resources, each once, in order; and notices
    for those that look like resource mentions of servers that are not configured."""
    found: list[ResourceMention] = []
    notices: list[str] = []
    for match in _MENTION.finditer(text):
        server, uri = match.group(1), match.group(2).rstrip(_TRAILING)
        if not uri:
            continue
        if server not in servers:
            if "://" in uri:
                notices.append(f"@{server}:{uri} was not attached: no MCP server named "
                               f'"{server}" is configured.')
            continue
        mention = ResourceMention(server, uri)
        if mention not in found:
            found.append(mention)
    return found, notices


async def attach_resources(text: str, access: ResourceAccess | None) -> Attached:
    """The blocks for the resources `text` mentions (nothing without MCP servers)."""
    if access is None or "@" not in text:
        return Attached()
    mentions, notices = find_resource_mentions(text, access.resource_servers())
    reads = await asyncio.gather(*(access.read_resource(m.server, m.uri) for m in mentions))
    attached = Attached(notices=notices)
    for mention, got in zip(mentions, reads, strict=True):
        if isinstance(got, ResourceProblem):
            attached.notices.append(f"{mention.shown} was not attached: {got.text}")
            continue
        attached.blocks += _blocks(mention, got)
    return attached


def _blocks(mention: ResourceMention, parts: list[ResourceContents]) -> list[ContentBlock]:
    head = f"Contents of the MCP resource {mention.uri} (server {mention.server})"
    texts: list[str] = []
    images: list[ContentBlock] = []
    for part in parts:
        if part.text is not None:
            texts.append(part.text)
        elif part.blob is not None and (part.mime_type or "").startswith("image/"):
            images.append(ImageBlock({"type": "base64", "media_type": part.mime_type,
                                      "data": part.blob}))
            texts.append(f"(an image, {part.mime_type}: attached after this note)")
        else:
            texts.append(f"(binary data, {part.mime_type or 'unknown type'}, "
                         f"{_size(part.blob or ''):,} bytes: not attached; "
                         "ReadMcpResourceTool saves it to a file)")
    body = "\n".join(texts) if texts else "(the resource is empty)"
    return [TextBlock(system_reminder(f"{head}:\n{body}")), *images]


def _size(blob: str) -> int:
    try:
        return len(base64.b64decode(blob))
    except (binascii.Error, ValueError):
        return len(blob)
