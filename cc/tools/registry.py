"""The tool registry: which tools a conversation has, by name and alias.

An entry is a tool already built, or a catalog entry (`cc.tools.catalog`) whose module
is imported the first time the tool is needed: its definition for a request, or a call.
Names, aliases and whether a tool is deferred are known without importing anything.

A registry may also `follow` a source whose tools come and go while it lives (the MCP
servers' tools): their entries join those registered, a registered name winning.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol

from cc.tools import definition_cache
from cc.tools.base import Tool

if TYPE_CHECKING:
    from cc.tools.catalog import CatalogEntry


class ToolSource(Protocol):
    """Tools that change while a registry lives: `version` changes when they do."""

    @property
    def version(self) -> int: ...

    def entries(self) -> list[CatalogEntry]: ...


class ToolRegistry:
    def __init__(self, tools: Iterable[Tool | CatalogEntry] = ()) -> None:
        self._own: dict[str, CatalogEntry] = {}
        self._tools: dict[str, Tool] = {}
        self._aliases: dict[str, str] = {}
        self._definitions: list[dict[str, Any]] | None = None
        self._sources: list[tuple[ToolSource, Callable[[str], bool]]] = []
        self._seen: tuple[int, ...] = ()
        self._merged: dict[str, CatalogEntry] = {}
        for tool in tools:
            self.register(tool)

    def follow(self, source: ToolSource, keep: Callable[[str], bool] = lambda _name: True
               ) -> None:
        """Offer `source`'s tools too, those `keep` accepts, as they are at each use."""
        self._sources.append((source, keep))
        self._seen = ()

    @property
    def _entries(self) -> dict[str, CatalogEntry]:
        """The registered entries, then those of the sources followed."""
        if not self._sources:
            return self._own
        seen = tuple(source.version for source, _ in self._sources)
        if seen != self._seen:
            merged = dict(self._own)
            for source, keep in self._sources:
                for entry in source.entries():
                    if entry.name not in merged and keep(entry.name):
                        merged[entry.name] = entry
            gone = [n for n in self._tools if n not in merged]
            for name in gone:
                del self._tools[name]
            # A tool rebuilt by its source replaces the one built before.
            for name, entry in merged.items():
                if name not in self._own and self._merged.get(name) is not entry:
                    self._tools.pop(name, None)
            self._merged, self._seen, self._definitions = merged, seen, None
        return self._merged

    def register(self, tool: Tool | CatalogEntry) -> None:
        """Add a tool (or replace the one of the same name)."""
        from cc.tools.catalog import CatalogEntry, entry_of

        entry = tool if isinstance(tool, CatalogEntry) else entry_of(tool)
        self.pop(entry.name)
        self._definitions = None
        self._own[entry.name] = entry
        self._seen = ()
        if not isinstance(tool, CatalogEntry):
            self._tools[entry.name] = tool
        for alias in entry.aliases:
            self._aliases[alias] = entry.name

    def with_tools(self, *tools: Tool) -> ToolRegistry:
        """A registry of this one's tools (the sources it follows, too) and `tools`;
        this one is left as it is (the session's pool, when an agent has a tool of its
        own)."""
        out = ToolRegistry(self._own.values())
        out._tools.update(self._tools)
        out._sources = list(self._sources)
        for tool in tools:
            out.register(tool)
        return out

    def pop(self, name: str) -> Tool | None:
        entry = self._own.pop(name, None)
        if entry is None:
            return None
        self._definitions = None
        self._seen = ()
        for alias in entry.aliases:
            self._aliases.pop(alias, None)
        return self._tools.pop(name, None)

    def get(self, name: str) -> Tool | None:
        """The tool, built (its module imported) on first use."""
        key = self._aliases.get(name, name)
        entries = self._entries  # first: a source's change may retire a built tool
        tool = self._tools.get(key)
        if tool is None and key in entries:
            tool = self._tools[key] = entries[key].load()
        return tool

    def entry(self, name: str) -> CatalogEntry | None:
        return self._entries.get(self._aliases.get(name, name))

    def entries(self) -> list[CatalogEntry]:
        return list(self._entries.values())

    @property
    def names(self) -> list[str]:
        return list(self._entries)

    def definition(self, name: str) -> dict[str, Any] | None:
        """The tool's full definition. A built-in tool not built yet is not: its definition
        as kept from an earlier run (`cc.tools.definition_cache`) is enough."""
        key = self._aliases.get(name, name)
        entry = self._entries.get(key)
        lazy = entry is not None and bool(entry.module)
        if lazy and key not in self._tools:
            kept = definition_cache.SHARED.cached(key)
            if kept is not None:
                return kept
        tool = self.get(key)
        if tool is None:
            return None
        definition = tool.api_definition()
        if lazy:
            definition_cache.SHARED.keep(tool, definition)
        return definition

    def api_definitions(self) -> list[dict[str, Any]]:
        """Every tool's full definition, in order; built once, rebuilt when the set
        changes."""
        self._entries  # noqa: B018 - notices a change of the sources
        if self._definitions is None:
            self._definitions = [d for n in self._entries
                                 if (d := self.definition(n)) is not None]
        return self._definitions

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._aliases.get(name, name) in self._entries

    def __len__(self) -> int:
        return len(self._entries)
