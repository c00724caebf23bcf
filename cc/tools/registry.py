"""The tool registry: which tools this conversation has, by name and alias."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cc.tools.base import Tool


class ToolRegistry:
    def __init__(self, tools: Iterable[Tool] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        self._aliases: dict[str, str] = {}
        self._definitions: list[dict[str, Any]] | None = None
        for tool in tools:
            self.register(tool)

    def register(self, tool: Tool) -> None:
        self._definitions = None
        self._tools[tool.name] = tool
        for alias in tool.aliases:
            self._aliases[alias] = tool.name

    def pop(self, name: str) -> Tool | None:
        tool = self._tools.pop(name, None)
        if tool is not None:
            self._definitions = None
            for alias in tool.aliases:
                self._aliases.pop(alias, None)
        return tool

    def get(self, name: str) -> Tool | None:
        return self._tools.get(self._aliases.get(name, name))

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def api_definitions(self) -> list[dict[str, Any]]:
        """The `tools` request param; built once, rebuilt when the set changes."""
        if self._definitions is None:
            self._definitions = [tool.api_definition() for tool in self._tools.values()]
        return self._definitions

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    def __len__(self) -> int:
        return len(self._tools)
