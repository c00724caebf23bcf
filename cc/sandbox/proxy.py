"""The session's network filter: an HTTP proxy on a unix socket that lets through only
`sandbox.network.allowedDomains`.

Sandboxed commands have no network of their own (`--unshare-net`); `bridge.py`, inside,
forwards 127.0.0.1:<port> to this socket, and HTTP_PROXY / HTTPS_PROXY / ALL_PROXY point
there. `CONNECT host:port` (HTTPS and anything tunnelled) and plain `GET http://host/...`
requests are served when the host is allowed (`example.com`, or `*.example.com` for its
subdomains); otherwise the answer is 403 and the host is noted in `blocked`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path
from urllib.parse import urlsplit

_HEAD_LIMIT = 64 * 1024
_CONNECT_TIMEOUT = 30.0


def domain_allowed(host: str, domains: list[str]) -> bool:
    host = host.strip("[]").rstrip(".").lower()
    for entry in domains:
        entry = entry.rstrip(".").lower()
        if entry == "*" or host == entry:
            return True
        if entry.startswith("*.") and host.endswith(entry[1:]):
            return True
    return False


class DomainProxy:
    def __init__(self, domains: list[str], socket_path: Path) -> None:
        self.domains = list(domains)
        self.socket_path = Path(socket_path)
        #: Hosts refused, in order (a command's failure hint reads its own share).
        self.blocked: list[str] = []
        self._server: asyncio.base_events.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self.socket_path.unlink(missing_ok=True)
        self._server = await asyncio.start_unix_server(
            self._serve, path=str(self.socket_path), limit=_HEAD_LIMIT)
        os.chmod(self.socket_path, 0o600)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks))
        self.socket_path.unlink(missing_ok=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            await self._handle(reader, writer)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            pass
        finally:
            self._tasks.discard(task)
            writer.close()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        request, *headers = head.split("\r\n")[:-2]
        method, target, version = request.split(" ", 2)
        if method.upper() == "CONNECT":
            host, _, port_text = target.rpartition(":")
            port = int(port_text) if port_text.isdigit() else 443
            host = host or target
        else:
            url = urlsplit(target)
            if url.scheme != "http" or not url.hostname:
                await _reply(writer, 400, "the sandbox proxy takes absolute http:// URLs "
                             "or CONNECT")
                return
            host, port = url.hostname, url.port or 80
        if not domain_allowed(host, self.domains):
            self.blocked.append(host)
            await _reply(writer, 403, f"{host} is blocked by the cc sandbox (not in "
                         "sandbox.network.allowedDomains)")
            return
        try:
            up_reader, up_writer = await asyncio.wait_for(
                asyncio.open_connection(host, port), _CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as exc:
            await _reply(writer, 502, f"could not connect to {host}:{port}: {exc}")
            return
        try:
            if method.upper() == "CONNECT":
                writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
            else:
                url = urlsplit(target)
                path = (url.path or "/") + (f"?{url.query}" if url.query else "")
                kept = [h for h in headers if not h.lower().startswith(
                    ("proxy-connection:", "proxy-authorization:", "connection:"))]
                up_writer.write(("\r\n".join([f"{method} {path} {version}", *kept,
                                              "Connection: close"]) + "\r\n\r\n")
                                .encode("latin-1"))
            await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))
        finally:
            up_writer.close()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()
    except OSError:
        with contextlib.suppress(OSError):
            writer.close()


async def _reply(writer: asyncio.StreamWriter, status: int, message: str) -> None:
    reason = {400: "Bad Request", 403: "Forbidden", 502: "Bad Gateway"}[status]
    body = (message + "\n").encode()
    writer.write(f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain\r\n"
                 f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
    await writer.drain()
