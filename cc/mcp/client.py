"""Opening one MCP client session on the official SDK, whatever the transport.

    open_client(entry, setup)   an async context: the SDK's `Client`, connected, and an
                                event set when the connection drops (the server's stream
                                ended: a stdio server exited, an HTTP stream was cut)
    probe(entry, setup)         connect once and say how it went (`mcp list`)
    timeout_from_env()          the connect timeout MCP_TIMEOUT sets (ms; 30 s if unset)

A stdio server is our child in its own process group (the SDK kills the group when the
session ends); its stderr goes to a log file, whose last lines explain a failure.
The client offers the working folders as its `roots`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cc.mcp.config import RemoteServer, ServerEntry, StdioServer

if TYPE_CHECKING:
    from mcp import Client


@dataclass(frozen=True)
class ClientSetup:
    """What every connection of a session shares."""

    cwd: Path
    #: The working folders, offered as roots.
    roots: Sequence[Path] = ()
    #: Where stdio servers' stderr is written (one file per server); None: discarded.
    log_dir: Path | None = None
    #: Seconds a connection may take (MCP_TIMEOUT).
    connect_timeout: float = 30.0
    #: Called (from the connection's task) with each notification of the server.
    on_message: Callable[[Any], None] | None = None
    environ: dict[str, str] = field(default_factory=lambda: dict(os.environ))


def log_path(setup: ClientSetup, name: str) -> Path | None:
    if setup.log_dir is None:
        return None
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
    return setup.log_dir / f"{safe}.log"


def stderr_tail(setup: ClientSetup, name: str, lines: int = 5) -> str:
    """The last lines the server wrote to stderr (for a failure's message)."""
    path = log_path(setup, name)
    if path is None:
        return ""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    kept = [line for line in text.splitlines() if line.strip()]
    return "\n".join(kept[-lines:])


@contextlib.asynccontextmanager
async def _watched(transport: Any, dropped: asyncio.Event) -> AsyncIterator[Any]:
    """The transport's streams, with the read side passed through a pump that sets
    `dropped` when the server's stream ends."""
    import anyio

    async with transport as (read, write):
        send, receive = anyio.create_memory_object_stream[Any](0)

        async def pump() -> None:
            try:
                async with send:
                    async for item in read:
                        await send.send(item)
            except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream):
                pass
            finally:
                dropped.set()

        async with anyio.create_task_group() as group:
            group.start_soon(pump)
            try:
                yield receive, write
            finally:
                group.cancel_scope.cancel()


def _transport(entry: ServerEntry, setup: ClientSetup, stack: contextlib.ExitStack) -> Any:
    config = entry.config
    if isinstance(config, StdioServer):
        from mcp.client.stdio import StdioServerParameters, stdio_client

        env = {**setup.environ, **config.env, "CLAUDE_PROJECT_DIR": str(setup.cwd),
               "CLAUDECODE": "1"}
        params = StdioServerParameters(command=config.command, args=list(config.args),
                                       env=env, cwd=str(setup.cwd))
        path = log_path(setup, entry.name)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            errlog = stack.enter_context(path.open("a", encoding="utf-8"))
        else:
            errlog = stack.enter_context(open(os.devnull, "w"))  # noqa: SIM115
        return stdio_client(params, errlog=errlog)
    assert isinstance(config, RemoteServer)
    from mcp.shared._httpx_utils import create_mcp_http_client

    headers = dict(config.headers)
    if config.transport == "sse":
        from mcp.client.sse import sse_client

        return sse_client(config.url, headers=headers or None,
                          timeout=setup.connect_timeout)
    if config.transport == "ws":
        raise ConnectionError("WebSocket MCP servers are not supported by cc yet")
    from mcp.client.streamable_http import streamable_http_client

    http = create_mcp_http_client(headers=headers or None)
    return streamable_http_client(config.url, http_client=http)


@contextlib.asynccontextmanager
async def open_client(entry: ServerEntry, setup: ClientSetup
                      ) -> AsyncIterator[tuple[Client, asyncio.Event]]:
    """The connected SDK client and the event its connection's end sets. Raises
    `ConnectionError` (with the reason) when the server cannot be reached in time."""
    import mcp_types
    from mcp import Client

    async def roots(context: Any) -> Any:
        return mcp_types.ListRootsResult.model_validate({"roots": [
            {"uri": folder.resolve().as_uri(), "name": folder.name or str(folder)}
            for folder in (setup.cwd, *setup.roots)
        ]})

    async def on_message(message: Any) -> None:
        if setup.on_message is not None and not isinstance(message, Exception):
            setup.on_message(message)

    dropped = asyncio.Event()
    with contextlib.ExitStack() as files:
        transport = _transport(entry, setup, files)
        client = Client(_watched(transport, dropped), list_roots_callback=roots,
                        message_handler=on_message,
                        client_info=mcp_types.Implementation(name="cc", version=_version()),
                        cache=None)
        try:
            async with asyncio.timeout(setup.connect_timeout):
                await client.__aenter__()
        except BaseException as exc:
            with contextlib.suppress(BaseException):
                await client.__aexit__(None, None, None)
            if isinstance(exc, (asyncio.CancelledError, KeyboardInterrupt, SystemExit)):
                raise
            raise ConnectionError(_reason(exc, entry, setup)) from None
        try:
            yield client, dropped
        finally:
            await client.__aexit__(None, None, None)


def _version() -> str:
    from cc import __version__

    return __version__


def _reason(exc: BaseException, entry: ServerEntry, setup: ClientSetup) -> str:
    """One line (or a few) saying why a connection failed."""
    if isinstance(exc, TimeoutError):
        reason = f"Connection timed out after {setup.connect_timeout:g} s"
    else:
        reason = _leaf_message(exc)
    tail = stderr_tail(setup, entry.name) if isinstance(entry.config, StdioServer) else ""
    return f"{reason}\n{tail}" if tail else reason


def _leaf_message(exc: BaseException) -> str:
    """The innermost exception's text (task groups wrap what went wrong)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, FileNotFoundError):
        return f"command not found: {exc.filename or exc}"
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


@dataclass(frozen=True)
class Probe:
    connected: bool
    error: str | None = None


async def probe(entry: ServerEntry, setup: ClientSetup) -> Probe:
    """Connect once (within `setup.connect_timeout`) and disconnect."""
    try:
        async with open_client(entry, setup):
            return Probe(True)
    except ConnectionError as exc:
        return Probe(False, str(exc))


def timeout_from_env(environ: Mapping[str, str] | None = None) -> float:
    """Seconds a server may take to connect: MCP_TIMEOUT (milliseconds), else 30."""
    value = (os.environ if environ is None else environ).get("MCP_TIMEOUT", "")
    try:
        millis = float(value)
    except ValueError:
        return 30.0
    return millis / 1000 if millis > 0 else 30.0
