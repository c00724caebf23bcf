"""What the MCP resource tools (and `@server:uri` mentions) need of the session's MCP
servers: a protocol the MCP hub satisfies, and the values it answers with.

    resource_servers()          the configured servers' names (those not turned off)
    list_resources(server)      the resources of one server, or of every connected one
    read_resource(server, uri)  what the server returns for `uri`

A request that cannot be answered comes back as a `ResourceProblem` value (never an
exception): its `kind` says which, its `text` is what the model or the user reads.
Tools hold this as a protocol because `cc.tools` sits below `cc.mcp`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

ProblemKind = Literal["no_server", "no_resources", "not_found", "down"]


@dataclass(frozen=True)
class ResourceEntry:
    """One resource a server lists."""

    server: str
    uri: str
    name: str
    description: str | None = None
    mime_type: str | None = None


@dataclass(frozen=True)
class ResourceContents:
    """One part of what a read returns: text, or base64 `blob` data."""

    uri: str
    mime_type: str | None = None
    text: str | None = None
    blob: str | None = None


@dataclass(frozen=True)
class ResourceProblem:
    """Why a list or read gave nothing.

    no_server     no server of that name is configured
    no_resources  the server does not offer resources
    not_found     the server answered with an error (an unknown or stale uri)
    down          the server could not be reached in time
    """

    kind: ProblemKind
    text: str


class ResourceAccess(Protocol):
    def resource_servers(self) -> list[str]: ...

    async def list_resources(self, server: str | None = None
                             ) -> list[ResourceEntry] | ResourceProblem: ...

    async def read_resource(self, server: str, uri: str
                            ) -> list[ResourceContents] | ResourceProblem: ...
