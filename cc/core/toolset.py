"""One conversation's tools: what its requests offer, what is announced by name only
(deferred), and what of that ToolSearch has loaded.

With tool search on (and ToolSearch among the conversation's tools), a request carries
the eager tools in full, the loaded deferred ones in full with `defer_loading: true`,
and a `DeferredToolPlaceholder`, sorted by name with the placeholder before the last
entry, as Claude Code 2.1.328 sends them; the deferred names reach the model in a
system reminder. The loaded set is conversation state: the tools named by the
`tool_reference` blocks of ToolSearch results in the conversation, and those a
compaction carried over (`CompactBoundaryMessage.loaded_tools`). So it survives `-c`
and `-r`, and a fork's loads stay in the fork.

Tool search is on where the endpoint takes Claude Code's experimental betas (Anthropic's
API, unless CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS; `cc.core.dialect`) and off for another, whose proxy may not know `defer_loading` or `tool_reference`
blocks (`ENABLE_TOOL_SEARCH=true` turns it on there, `false` off everywhere): then every
definition goes in full, as always.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeGuard

from cc.config.env import truthy
from cc.models.content_blocks import TextBlock, ToolResultBlock
from cc.models.messages import CompactBoundaryMessage, Message, UserMessage

if TYPE_CHECKING:
    from cc.tools.base import Tool
    from cc.tools.registry import ToolRegistry

TOOL_SEARCH = "ToolSearch"
PLACEHOLDER: dict[str, Any] = {
    "name": "DeferredToolPlaceholder",
    "description": "Stands for the deferred tools; never call it.",
    "input_schema": {"type": "object", "properties": {}},
    "defer_loading": True,
}
#: The first line of the reminder that names the deferred tools (one per line after it);
#: how to load them is ToolSearch's description's to say.
ANNOUNCEMENT = "Deferred tools (load one with ToolSearch before calling it):"
#: The line as sessions before 2026-12 wrote it: a resumed one's reminders still count.
_EARLIER = ("Deferred tools (their definitions are not loaded yet; load them with "
            "ToolSearch, \"select:Name[,Name…]\" or keywords, before calling them):")
_FALSE = ("0", "false", "no", "off")


def tool_search_enabled(env: Mapping[str, str], base_url: str | None) -> bool:
    """On for Anthropic's API; off for another endpoint unless ENABLE_TOOL_SEARCH=true;
    ENABLE_TOOL_SEARCH=false turns it off everywhere."""
    value = (env.get("ENABLE_TOOL_SEARCH") or "").strip().lower()
    if value in _FALSE:
        return False
    if truthy(value):
        return True
    from cc.core.dialect import dialect_for

    return dialect_for(base_url, env).experimental


class Toolset:
    def __init__(self, registry: ToolRegistry, messages: Callable[[], list[Message]], *,
                 search: bool) -> None:
        self.registry = registry
        self._messages = messages
        self._search = search

    @property
    def defers(self) -> bool:
        """Whether some tools go by name only (tool search on, ToolSearch offered)."""
        return self._search and TOOL_SEARCH in self.registry and any(
            e.deferred for e in self.registry.entries())

    # -- what the conversation holds -------------------------------------------------------

    def deferred(self) -> list[str]:
        """Deferred tools not loaded yet."""
        loaded = set(self.loaded())
        return [e.name for e in self.registry.entries() if e.deferred and e.name not in loaded]

    def loaded(self) -> list[str]:
        """Deferred tools ToolSearch has loaded in this conversation (in no order)."""
        if not self.defers:
            return []
        names: set[str] = set()
        for message in self._messages():
            if isinstance(message, CompactBoundaryMessage):
                names |= set(message.loaded_tools)
            elif isinstance(message, UserMessage):
                names |= set(references(message))
        return sorted(n for n in names if (e := self.registry.entry(n)) and e.deferred)

    def offered(self) -> list[str]:
        """The tools whose definitions the next request carries."""
        if not self.defers:
            return self.registry.names
        loaded = set(self.loaded())
        return [e.name for e in self.registry.entries() if not e.deferred or e.name in loaded]

    def get(self, name: str) -> Tool | None:
        return self.registry.get(name)

    # -- changing it -------------------------------------------------------------------

    def load(self, names: Sequence[str]) -> list[str]:
        """Of `names`, the deferred tools not loaded yet (their definitions go with the
        next request once the ToolSearch result naming them is in the conversation)."""
        waiting = set(self.deferred())
        return [n for n in dict.fromkeys(names) if n in waiting]

    def search(self, query: str, limit: int) -> list[str]:
        """Deferred tools (loaded or not) matching the query's words, best first: a word
        in the name counts most, then one in its hint."""
        words = [w for w in re.split(r"[^a-z0-9_]+", query.lower()) if len(w) > 1]
        scored = []
        for entry in self.registry.entries():
            if not entry.deferred:
                continue
            name, hint = entry.name.lower(), entry.hint.lower()
            score = sum(3 if w in name else 1 if w in hint else 0 for w in words)
            if score:
                scored.append((-score, entry.name))
        return [name for _, name in sorted(scored)[:limit]]

    def register(self, tool: Tool) -> None:
        self.registry.register(tool)

    def remove(self, name: str) -> None:
        self.registry.pop(name)

    # -- the request ---------------------------------------------------------------------

    def definitions(self) -> list[dict[str, Any]]:
        """The request's `tools`."""
        if not self.defers:
            return self.registry.api_definitions()
        loaded = set(self.loaded())
        out = []
        for entry in self.registry.entries():
            if entry.deferred and entry.name not in loaded:
                continue
            definition = self.registry.definition(entry.name)
            if definition is None:
                continue
            if entry.deferred:
                definition = {**definition, "defer_loading": True}
            out.append(definition)
        out.sort(key=lambda d: d["name"])
        return [*out[:-1], PLACEHOLDER, *out[-1:]]

    def announcement(self) -> list[str]:
        """A reminder naming the deferred tools, when the conversation does not hold one
        naming them all (at its start, after a compaction, when the set grows)."""
        if not self.defers:
            return []
        waiting = self.deferred()
        if not waiting or set(waiting) <= announced(self._messages()):
            return []
        lines = []
        for name in waiting:
            entry = self.registry.entry(name)
            summary = _one_line(entry.summary) if entry is not None else ""
            lines.append(f"{name}: {summary}" if summary else name)
        return ["\n".join([ANNOUNCEMENT, *lines])]


def _one_line(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def references(message: UserMessage) -> list[str]:
    """The tools the `tool_reference` blocks of a message's tool results name."""
    return [c["tool_name"] for b in message.content if isinstance(b, ToolResultBlock)
            and isinstance(b.content, list)
            for c in b.content if isinstance(c, dict) and c.get("type") == "tool_reference"
            and isinstance(c.get("tool_name"), str)]


def announced(messages: Sequence[Message]) -> set[str]:
    """The deferred names the conversation's reminders have named so far."""
    names: set[str] = set()
    for message in messages:
        if not isinstance(message, UserMessage) or not message.is_meta:
            continue
        for block in message.content:
            if not isinstance(block, TextBlock):
                continue
            first = next((a for a in (ANNOUNCEMENT, _EARLIER) if a in block.text), None)
            if first is not None:
                after = block.text.split(first, 1)[1]
                names |= {line.split(":", 1)[0].strip() for line in after.splitlines()
                          if line.strip() and not line.startswith("<")}
    return names


def without_references(messages: list[dict[str, Any]], keep: set[str] | frozenset[str] = frozenset()
                       ) -> list[dict[str, Any]]:
    """API messages whose `tool_reference` blocks are text, for an endpoint without tool
    search (a conversation resumed with it off); with `keep`, only those naming a tool
    not in it (one gone since: an MCP server no longer configured)."""
    out = []
    for message in messages:
        content = message.get("content")
        if not _carries_listed_result(content):
            out.append(message)
            continue
        blocks = []
        for b in content:
            if isinstance(b, dict) and b.get("type") == "tool_result" and isinstance(
                    b.get("content"), list):
                b = {**b, "content": [
                    {"type": "text", "text": f"Tool loaded: {c.get('tool_name')}"}
                    if isinstance(c, dict) and c.get("type") == "tool_reference"
                    and c.get("tool_name") not in keep else c
                    for c in b["content"]]}
            blocks.append(b)
        out.append({**message, "content": blocks})
    return out


def _carries_listed_result(content: object) -> TypeGuard[list[Any]]:
    """Whether `content` is a list holding a tool_result whose content is a list (where a
    `tool_reference` can be): a plain loop, run on every message of every request."""
    if not isinstance(content, list):
        return False
    for b in content:
        if isinstance(b, dict) and b.get("type") == "tool_result" and isinstance(
                b.get("content"), list):
            return True
    return False
