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
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cc.mcp.config import RemoteServer, SdkServer, ServerEntry, StdioServer
from cc.mcp.sdk_link import SdkLink

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
    #: How the protocol version is agreed: "auto" (the SDK's probe, then the 2025
    #: handshake for older servers) or "legacy" (the handshake only).
    protocol: str = "auto"
    #: How in-process servers of the program driving cc are reached (None: no program
    #: drives this session, and such servers cannot connect).
    sdk: SdkLink | None = None


def log_path(setup: ClientSetup, name: str) -> Path | None:
    if setup.log_dir is None:
        return None
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
    return setup.log_dir / f"{safe}.log"


def _log_size(setup: ClientSetup, name: str) -> int:
    path = log_path(setup, name)
    try:
        return path.stat().st_size if path is not None else 0
    except OSError:
        return 0


def stderr_tail(setup: ClientSetup, name: str, since: int = 0, lines: int = 5) -> str:
    """The last lines the server wrote to stderr after offset `since` (for a failure's
    message)."""
    path = log_path(setup, name)
    if path is None:
        return ""
    try:
        with path.open("rb") as f:
            f.seek(since)
            text = f.read().decode("utf-8", errors="replace")
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


async def _helper_headers(command: str, setup: ClientSetup) -> dict[str, str]:
    """The headers a `headersHelper` command prints (a JSON object of strings)."""
    import json

    process = await asyncio.create_subprocess_shell(
        command, cwd=setup.cwd, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, env=setup.environ)
    try:
        async with asyncio.timeout(setup.connect_timeout):
            out, err = await process.communicate()
    except TimeoutError:
        process.kill()
        await process.wait()
        raise ConnectionError(f"headersHelper took longer than {setup.connect_timeout:g} s")
    if process.returncode != 0:
        raise ConnectionError(f"headersHelper failed (exit {process.returncode}): "
                              f"{err.decode(errors='replace').strip()[:300]}")
    try:
        headers = json.loads(out)
    except ValueError:
        headers = None
    if not isinstance(headers, dict):
        raise ConnectionError("headersHelper must print a JSON object of headers")
    return {str(k): str(v) for k, v in headers.items()}


def _transport(entry: ServerEntry, setup: ClientSetup, stack: contextlib.ExitStack,
               extra_headers: dict[str, str]) -> Any:
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
    if isinstance(config, SdkServer):
        if setup.sdk is None:
            raise ConnectionError("an in-process SDK server needs the program that holds "
                                  "it driving cc (--input-format stream-json)")
        from cc.mcp.sdk_link import sdk_transport

        return sdk_transport(config.name, setup.sdk)
    assert isinstance(config, RemoteServer)
    from mcp.shared._httpx_utils import create_mcp_http_client

    headers = {**config.headers, **extra_headers}
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
    since = _log_size(setup, entry.name)
    config = entry.config
    extra: dict[str, str] = {}
    if isinstance(config, RemoteServer) and config.headers_helper:
        extra = await _helper_headers(config.headers_helper, setup)
    with contextlib.ExitStack() as files:
        transport = _transport(entry, setup, files, extra)
        client = Client(_watched(transport, dropped), list_roots_callback=roots,
                        message_handler=on_message,
                        client_info=mcp_types.Implementation(name="cc", version=_version()),
                        cache=None,
                        # The program's in-process servers speak the 2025 handshake.
                        mode="legacy" if isinstance(config, SdkServer) else setup.protocol)
        try:
            async with asyncio.timeout(setup.connect_timeout):
                await client.__aenter__()
        except BaseException as exc:
            with contextlib.suppress(BaseException):
                await client.__aexit__(None, None, None)
            if isinstance(exc, (asyncio.CancelledError, KeyboardInterrupt, SystemExit)):
                raise
            raise ConnectionError(_reason(exc, entry, setup, since)) from None
        try:
            yield client, dropped
        finally:
            await client.__aexit__(None, None, None)


def _version() -> str:
    from cc import __version__

    return __version__


def _reason(exc: BaseException, entry: ServerEntry, setup: ClientSetup, since: int) -> str:
    """One line (or a few) saying why a connection failed."""
    if isinstance(exc, TimeoutError):
        reason = f"Connection timed out after {setup.connect_timeout:g} s"
    else:
        reason = describe_error(exc)
    stdio = isinstance(entry.config, StdioServer)
    tail = stderr_tail(setup, entry.name, since) if stdio else ""
    return f"{reason}\n{tail}" if tail else reason


def describe_error(exc: BaseException) -> str:
    """The innermost exception's text (task groups wrap what went wrong)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, FileNotFoundError):
        return f"command not found: {exc.filename or exc}"
    if type(exc).__name__ == "MCPError" and "closed" in str(exc).lower():
        return "the server closed the connection (it may have exited)"
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


@dataclass
class ToolList:
    tools: list[Any] = field(default_factory=list)
    #: (tool name, why it was left out), for tools the protocol's types refuse.
    rejected: list[tuple[str, str]] = field(default_factory=list)


async def list_tools(client: Client) -> ToolList:
    """Every tool of the server. The SDK refuses a whole listing when one tool breaks
    the protocol's types (an input schema that is not an object, say); then the listing
    is fetched as sent and checked tool by tool, so the good ones still work. That path
    reaches two private parts of the SDK's session (the raw request, and the output
    schemas it keeps for checking results); if they change, the SDK's error stands."""
    import pydantic

    try:
        return ToolList(await all_pages(client.list_tools, "tools"))
    except pydantic.ValidationError as refused:
        try:
            return await _tools_one_by_one(client)
        except AttributeError:
            raise refused from None


async def all_pages(method: Callable[..., Awaitable[Any]], key: str) -> list[Any]:
    """Every page of a list request (`client.list_prompts`, "prompts")."""
    items: list[Any] = []
    cursor: str | None = None
    for _ in range(100):
        result = await (method(cursor=cursor) if cursor else method())
        items.extend(getattr(result, key))
        cursor = getattr(result, "next_cursor", None)
        if not cursor:
            break
    return items


async def _tools_one_by_one(client: Client) -> ToolList:
    import mcp_types
    import pydantic

    session: Any = client.session
    out = ToolList()
    cursor: str | None = None
    for _ in range(100):
        params = {"cursor": cursor} if cursor else None
        raw = await session._dispatcher.send_raw_request("tools/list", params, {})
        for item in raw.get("tools") or []:
            try:
                tool = mcp_types.Tool.model_validate(item)
            except pydantic.ValidationError as exc:
                name = item.get("name") if isinstance(item, dict) else None
                problem = exc.errors()[0]
                where = ".".join(str(p) for p in problem["loc"])
                out.rejected.append((str(name or "?"), f"{where}: {problem['msg']}"))
                continue
            out.tools.append(tool)
            session._tool_output_schemas[tool.name] = tool.output_schema
        cursor = raw.get("nextCursor")
        if not cursor:
            break
    return out


def timeout_from_env(environ: Mapping[str, str] | None = None) -> float:
    """Seconds a server may take to connect: MCP_TIMEOUT (milliseconds), else 30."""
    value = (os.environ if environ is None else environ).get("MCP_TIMEOUT", "")
    try:
        millis = float(value)
    except ValueError:
        return 30.0
    return millis / 1000 if millis > 0 else 30.0
