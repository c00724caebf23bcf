"""Listing and reading MCP resources through the session's connections, as the
resource tools and `@server:uri` mentions need them (`cc.tools.mcp_access`).

    list_resources(connections, server)   one server's resources (waiting for it if it
                                          is reconnecting), or every connected one's
    read_resource(connections, server, uri)

Each request is bounded by MCP_TOOL_TIMEOUT. What goes wrong is a `ResourceProblem`:
an unknown server, a server without resources, one down or too slow, and an error the
server answers with (`not_found`: most often a uri it does not know). Text read is cut
past MAX_MCP_OUTPUT_TOKENS, with a note saying so.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from cc.mcp.client import describe_error
from cc.mcp.connection import ServerConnection, ServerDown
from cc.mcp.tool import CHARS_PER_TOKEN, call_timeout, output_limit
from cc.tools.mcp_access import ResourceContents, ResourceEntry, ResourceProblem

if TYPE_CHECKING:
    from mcp import Client

log = logging.getLogger(__name__)
T = TypeVar("T")
#: The SDK's codes for a request that got no answer (the connection closed, time ran out).
_NO_ANSWER = (-32000, -32001)
#: At most this many pages of a resource list are fetched.
MAX_PAGES = 100


class _NoResources(Exception):
    """The server does not offer resources."""


def configured(connections: Mapping[str, ServerConnection]) -> list[str]:
    return [name for name, c in connections.items() if c.status != "disabled"]


async def list_resources(connections: Mapping[str, ServerConnection], server: str | None
                         ) -> list[ResourceEntry] | ResourceProblem:
    if server is not None:
        connection = _find(connections, server)
        if isinstance(connection, ResourceProblem):
            return connection
        return await _ask(connection, _listed, f'list the resources of "{server}"')
    found: list[ResourceEntry] = []
    for connection in connections.values():
        if not (connection.connected and connection.listing.resources):
            continue
        got = await _ask(connection, _listed, "list resources")
        if isinstance(got, ResourceProblem):  # one server's failure hides no other's list
            log.debug("MCP server %s: %s", connection.name, got.text)
            continue
        found += got
    return found


async def read_resource(connections: Mapping[str, ServerConnection], server: str, uri: str
                        ) -> list[ResourceContents] | ResourceProblem:
    connection = _find(connections, server)
    if isinstance(connection, ResourceProblem):
        return connection

    async def read(client: Client, name: str) -> list[ResourceContents]:
        _need_resources(client)
        result = await client.read_resource(uri)
        return _capped([_contents(part) for part in result.contents])

    got = await _ask(connection, read, f"read {uri}")
    if isinstance(got, ResourceProblem) and got.kind == "not_found":
        return ResourceProblem("not_found", (
            f'Server "{server}" could not give resource {uri}: {got.text}. The uri may be '
            "wrong or out of date; ListMcpResourcesTool lists what the server has now."))
    return got


def _find(connections: Mapping[str, ServerConnection], server: str
          ) -> ServerConnection | ResourceProblem:
    connection = connections.get(server)
    if connection is not None and connection.status != "disabled":
        return connection
    names = ", ".join(configured(connections)) or "none"
    why = "is turned off" if connection is not None else "is configured"
    return ResourceProblem("no_server", f'No MCP server named "{server}" {why}. '
                                        f"Servers: {names}.")


async def _listed(client: Client, name: str) -> list[ResourceEntry]:
    _need_resources(client)
    entries: list[ResourceEntry] = []
    cursor: str | None = None
    for _ in range(MAX_PAGES):
        result = await (client.list_resources(cursor=cursor) if cursor else
                        client.list_resources())
        entries += [ResourceEntry(name, str(r.uri), str(r.name), r.description or None,
                                  r.mime_type or None) for r in result.resources]
        cursor = result.next_cursor
        if not cursor:
            break
    return entries


def _need_resources(client: Client) -> None:
    if client.server_capabilities.resources is None:
        raise _NoResources


async def _ask(connection: ServerConnection, request: Callable[[Client, str], Awaitable[T]],
               what: str) -> T | ResourceProblem:
    """`request` on the server's live client, its failure as a problem."""
    from mcp.shared.exceptions import MCPError

    timeout = call_timeout()
    name = connection.name
    try:
        return await connection.call(lambda client: request(client, name), timeout)
    except _NoResources:
        return ResourceProblem("no_resources", f'MCP server "{name}" offers no resources.')
    except ServerDown as exc:
        return ResourceProblem("down", str(exc))
    except TimeoutError:
        return ResourceProblem("down", f'MCP server "{name}" did not {what} within '
                                       f"{timeout:g}s")
    except MCPError as exc:
        if exc.code in _NO_ANSWER:
            return ResourceProblem("down", f'MCP server "{name}" did not answer: {exc.message}')
        return ResourceProblem("not_found", exc.message or f"error {exc.code}")
    except Exception as exc:  # noqa: BLE001 - the server's failure, told as a value
        return ResourceProblem("down", f'MCP server "{name}" failed to {what}: {describe_error(exc)}')




def _contents(part: Any) -> ResourceContents:
    return ResourceContents(str(part.uri), getattr(part, "mime_type", None) or None,
                            getattr(part, "text", None), getattr(part, "blob", None))


def _capped(parts: list[ResourceContents]) -> list[ResourceContents]:
    """Text past MAX_MCP_OUTPUT_TOKENS (estimated, all parts together) cut, with a note."""
    limit = output_limit()
    left = limit * CHARS_PER_TOKEN
    total = sum(len(p.text) for p in parts if p.text is not None)
    if total <= left:
        return parts
    import dataclasses

    out: list[ResourceContents] = []
    for part in parts:
        if part.text is None:
            out.append(part)
            continue
        kept = part.text[:max(left, 0)]
        left -= len(part.text)
        if len(kept) < len(part.text):
            kept += (f"\n[Cut: the resource's text was about {total // CHARS_PER_TOKEN:,} "
                     f"tokens, over the limit of {limit:,} (MAX_MCP_OUTPUT_TOKENS).]")
        out.append(dataclasses.replace(part, text=kept))
    return out
