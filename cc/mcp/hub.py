"""The session's MCP servers: one connection each, their tools as catalog entries.

    McpHub(found, setup, held=…, asking=…)  what configuration found (servers and
                          problems); the `held` ones (project servers not approved) stay
                          off, and of those the user is to be `asking` about
    start(spawn)          every server connects at once, in the background (the SDK is
                          imported in a thread first, so nothing waits on it)
    awaiting()            the held servers still waiting for the user's answer
    enable(name)          a held server approved: it connects now
    refuse(name)          a held server refused: it stays off, no longer waiting
    settled(timeout)      wait until each server has connected or failed, or the time
                          is up (print mode, before its first request)
    entries()             the tools of the connected servers, as catalog entries (a
                          tool registry follows the hub: `version` changes with them),
                          and the resource tools once any server has connected
    list_resources(server) · read_resource(server, uri)
                          resources, for those tools and `@server:uri` mentions (the
                          hub is their `cc.tools.mcp_access.ResourceAccess`)
    prompt_commands() · get_prompt(command, arguments)
                          the servers' prompts, as `/mcp__<server>__<prompt>` commands
    statuses()            [{"name", "status"}] for `system/init` and `/mcp`
    problems              what to tell the user once (bad configuration, name clashes)
    on_change(listener)   told when a server connects, fails or changes its tools

A server whose tool list changes (or that reconnects) has its entries made again.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine, Iterable
from typing import TYPE_CHECKING, Any

from cc.mcp.client import ClientSetup
from cc.mcp.config import Found, ServerEntry
from cc.mcp.connection import ServerConnection

if TYPE_CHECKING:
    from cc.mcp.prompts import PromptCommand
    from cc.tools.catalog import CatalogEntry
    from cc.tools.mcp_access import ResourceContents, ResourceEntry, ResourceProblem

#: Where each configured scope reports itself in `system/init` (Claude Code's words).
SOURCES = {"dynamic": "dynamic", "project": "project", "local": "local", "user": "user"}


class McpHub:
    def __init__(self, found: Found, setup: ClientSetup, *,
                 held: Iterable[str] = (), asking: Iterable[str] = (),
                 backoff_first: float | None = None) -> None:
        self.setup = setup
        self.problems: list[str] = list(found.problems)
        self.connections: dict[str, ServerConnection] = {}
        extra = {} if backoff_first is None else {"backoff_first": backoff_first}
        held = set(held)
        #: Held servers the user has not answered about yet (in configuration order).
        self._asking = [name for name in found.servers if name in set(asking) & held]
        for name, entry in found.servers.items():
            connection = ServerConnection(entry, setup, on_change=self._changed, **extra)
            if name in held:
                connection.status = "disabled"
            self.connections[name] = connection
        #: Changes whenever the set of tools changes (registries that follow re-read).
        self.version = 0
        self._entries: list[CatalogEntry] = []
        self._resource_tools: list[CatalogEntry] | None = None
        self._listeners: list[Callable[[], None]] = []
        self._reported: set[str] = set()
        self._told = 0
        self._spawn: Callable[[Coroutine[Any, Any, None]], Any] | None = None
        self._imported: asyncio.Future[None] | None = None

    def __bool__(self) -> bool:
        return bool(self.connections)

    # -- running ---------------------------------------------------------------------------

    def start(self, spawn: Callable[[Coroutine[Any, Any, None]], Any]) -> None:
        """Connect every enabled server, each in a task `spawn` owns."""
        self._spawn = spawn
        for connection in self.connections.values():
            if connection.status != "disabled":
                self._launch(connection)

    def awaiting(self) -> list[ServerConnection]:
        """The held servers waiting for the user to approve or refuse them."""
        return [self.connections[name] for name in self._asking]

    def is_awaiting(self, name: str) -> bool:
        return name in self._asking

    def refuse(self, name: str) -> None:
        """A held server refused: it stays off."""
        self._answered(name)

    def _answered(self, name: str) -> None:
        if name in self._asking:
            self._asking.remove(name)

    def enable(self, name: str) -> None:
        """Start a server held until now (approved by the user)."""
        self._answered(name)
        connection = self.connections.get(name)
        if connection is not None and connection.status == "disabled":
            connection.status = "pending"
            if self._spawn is not None:
                self._launch(connection)

    def _launch(self, connection: ServerConnection) -> None:
        assert self._spawn is not None
        if self._imported is None:
            self._imported = asyncio.ensure_future(asyncio.to_thread(_import_sdk))
        self._spawn(self._run(connection, self._imported))

    @staticmethod
    async def _run(connection: ServerConnection, imported: asyncio.Future[None]) -> None:
        try:
            await asyncio.shield(imported)
        except ImportError as exc:
            connection.fail(f"the mcp package cannot be imported: {exc}")
            return
        await connection.run()

    async def settled(self, timeout: float) -> None:
        """Until every enabled server's first attempt has ended, for `timeout` seconds
        at most."""
        waits = [c.settled() for c in self.connections.values() if c.status != "disabled"]
        if waits:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await asyncio.gather(*waits)

    def on_change(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def _changed(self, _connection: ServerConnection) -> None:
        self._entries = self._build_entries()
        self.version += 1
        for listener in list(self._listeners):
            listener()

    # -- what the agents see -----------------------------------------------------------------

    def entries(self) -> list[CatalogEntry]:
        return list(self._entries)

    def _build_entries(self) -> list[CatalogEntry]:
        from cc.mcp.tool import McpTool
        from cc.tools.catalog import entry_of

        out: list[CatalogEntry] = []
        seen: dict[str, str] = {}
        for connection in self.connections.values():
            # A server being reconnected keeps its tools: a call waits for it.
            if connection.generation == 0 or connection.status == "disabled":
                continue
            for name, why in connection.listing.rejected:
                self._report(f'MCP server "{connection.name}": its tool "{name}" is not '
                             f"offered: {why}")
            for spec in connection.listing.tools:
                tool = McpTool(connection, spec)
                problem = unusable(tool.name, spec.input_schema)
                if problem:
                    self._report(f'MCP server "{connection.name}": its tool "{spec.name}" is '
                                 f"not offered: {problem}")
                    continue
                other = seen.get(tool.name)
                if other is not None:
                    self._report(f'MCP server "{connection.name}": its tool "{spec.name}" '
                                 f"is named {tool.name} once cleaned, as a tool of "
                                 f'"{other}" is; only the first is offered')
                    continue
                seen[tool.name] = connection.name
                out.append(entry_of(tool, hint=f"mcp {connection.name} {spec.name}"))
        if any(c.generation > 0 and c.status != "disabled" for c in self.connections.values()):
            out += self._resource_entries()
        return out

    def _resource_entries(self) -> list[CatalogEntry]:
        """ListMcpResourcesTool, ReadMcpResourceTool and ReadMcpResourceDirTool, made
        once, with the hub as what they read through."""
        if self._resource_tools is None:
            from cc.tools.catalog import entry_of
            from cc.tools.mcp_resources import (
                ListMcpResourcesTool,
                ReadMcpResourceDirTool,
                ReadMcpResourceTool,
            )

            hint = "mcp server resources documents data uri"
            self._resource_tools = [
                entry_of(ListMcpResourcesTool(self), hint=f"list {hint}"),
                entry_of(ReadMcpResourceTool(self), hint=f"read {hint}"),
                entry_of(ReadMcpResourceDirTool(self), hint=f"folder directory {hint}"),
            ]
        return self._resource_tools

    def take_problems(self) -> list[str]:
        """The problems not yet told."""
        new = self.problems[self._told:]
        self._told = len(self.problems)
        return new

    def _report(self, problem: str) -> None:
        if problem not in self._reported:
            self._reported.add(problem)
            self.problems.append(problem)

    def statuses(self) -> list[dict[str, str]]:
        return [{"name": c.name, "status": c.status, "source": SOURCES[c.entry.scope]}
                for c in self.connections.values()]

    def get(self, name: str) -> ServerConnection | None:
        return self.connections.get(name)

    def by_entry(self) -> list[ServerEntry]:
        return [c.entry for c in self.connections.values()]

    # -- resources and prompts -----------------------------------------------------------

    def resource_servers(self) -> list[str]:
        from cc.mcp.resources import configured

        return configured(self.connections)

    async def list_resources(self, server: str | None = None
                             ) -> list[ResourceEntry] | ResourceProblem:
        from cc.mcp.resources import list_resources

        return await list_resources(self.connections, server)

    async def read_resource(self, server: str, uri: str
                            ) -> list[ResourceContents] | ResourceProblem:
        from cc.mcp.resources import read_resource

        return await read_resource(self.connections, server, uri)

    def prompt_commands(self) -> list[PromptCommand]:
        from cc.mcp.prompts import prompt_commands

        return prompt_commands(self.connections)

    async def get_prompt(self, command: PromptCommand, arguments: dict[str, str]
                         ) -> list[dict[str, Any]] | str:
        """The prompt's messages as content blocks; or, as a string, why there are none."""
        from cc.mcp.prompts import render_prompt

        connection = self.connections.get(command.server)
        if connection is None:
            return f'No MCP server named "{command.server}" is configured.'
        return await render_prompt(connection, command, arguments)


#: The API's limit on a tool's name.
MAX_NAME = 64


def unusable(name: str, schema: Any) -> str | None:
    """Why a tool cannot go into a request (the API would refuse the whole request)."""
    if len(name) > MAX_NAME:
        return f"its name {name} is longer than {MAX_NAME} characters"
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return 'its input schema is not a JSON schema of "type": "object"'
    return None


def _import_sdk() -> None:
    """The SDK's modules a connection needs (most of a second to import), off the loop."""
    import mcp.client.sse  # noqa: F401
    import mcp.client.stdio  # noqa: F401
    import mcp.client.streamable_http  # noqa: F401
    import mcp.client.subscriptions  # noqa: F401
