"""The tool registry: which tools a conversation has, by name and alias.

An entry is a tool already built, or a catalog entry (`cc.tools.catalog`) whose module
is imported the first time the tool is needed: its definition for a request, or a call.
Names, aliases and whether a tool is deferred are known without importing anything.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from cc.tools.base import Tool

if TYPE_CHECKING:
    from cc.tools.catalog import CatalogEntry


class ToolRegistry:
    def __init__(self, tools: Iterable[Tool | CatalogEntry] = ()) -> None:
        self._entries: dict[str, CatalogEntry] = {}
        self._tools: dict[str, Tool] = {}
        self._aliases: dict[str, str] = {}
        self._definitions: list[dict[str, Any]] | None = None
        for tool in tools:
            self.register(tool)

    def register(self, tool: Tool | CatalogEntry) -> None:
        """Add a tool (or replace the one of the same name)."""
        from cc.tools.catalog import CatalogEntry, entry_of

        entry = tool if isinstance(tool, CatalogEntry) else entry_of(tool)
        self.pop(entry.name)
        self._definitions = None
        self._entries[entry.name] = entry
        if not isinstance(tool, CatalogEntry):
            self._tools[entry.name] = tool
        for alias in entry.aliases:
            self._aliases[alias] = entry.name

    def pop(self, name: str) -> Tool | None:
        entry = self._entries.pop(name, None)
        if entry is None:
            return None
        self._definitions = None
        for alias in entry.aliases:
            self._aliases.pop(alias, None)
        return self._tools.pop(name, None)

    def get(self, name: str) -> Tool | None:
        """The tool, built (its module imported) on first use."""
        key = self._aliases.get(name, name)
        tool = self._tools.get(key)
        if tool is None and key in self._entries:
            tool = self._tools[key] = self._entries[key].load()
        return tool

    def entry(self, name: str) -> CatalogEntry | None:
        return self._entries.get(self._aliases.get(name, name))

    def entries(self) -> list[CatalogEntry]:
        return list(self._entries.values())

    @property
    def names(self) -> list[str]:
        return list(self._entries)

    def api_definitions(self) -> list[dict[str, Any]]:
        """Every tool's full definition, in order (every module imported); built once,
        rebuilt when the set changes."""
        if self._definitions is None:
            self._definitions = [t.api_definition() for n in self._entries
                                 if (t := self.get(n)) is not None]
        return self._definitions

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._aliases.get(name, name) in self._entries

    def __len__(self) -> int:
        return len(self._entries)
