"""In-process MCP servers of the program driving cc (the Agent SDK's `sdk` servers): a
transport whose every message goes to the program as an `mcp_message` control request,
its answer coming back as the server's.

    SdkLink          bound by the SDK host to its way of asking the program; a server
                     connecting before that waits for it
    sdk_transport    the SDK client's transport for one such server
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

Send = Callable[[str, dict[str, Any]], Awaitable[dict[str, Any] | None]]


class SdkLink:
    def __init__(self) -> None:
        self._send: Send | None = None
        self._bound = asyncio.Event()

    def bind(self, send: Send) -> None:
        self._send = send
        self._bound.set()

    async def call(self, server: str, message: dict[str, Any]) -> dict[str, Any] | None:
        await self._bound.wait()
        assert self._send is not None
        return await self._send(server, message)


@contextlib.asynccontextmanager
async def sdk_transport(server: str, link: SdkLink) -> AsyncIterator[Any]:
    """Streams for the SDK's `Client`: what it writes is sent to the program, the
    program's answers (to requests: a notification's acknowledgement has no id) are
    what it reads."""
    import anyio
    import mcp_types
    from mcp.shared.message import SessionMessage

    read_send, read_receive = anyio.create_memory_object_stream[Any](16)
    write_send, write_receive = anyio.create_memory_object_stream[Any](16)

    async def deliver(message: Any) -> None:
        payload = message.message.model_dump(by_alias=True, mode="json", exclude_unset=True)
        try:
            answer = await link.call(server, payload)
        except Exception as exc:  # noqa: BLE001 - the request fails, the link goes on
            if "id" in payload:
                answer = {"jsonrpc": "2.0", "id": payload["id"],
                          "error": {"code": -32603, "message": str(exc)}}
            else:
                return
        if not isinstance(answer, dict) or "id" not in answer or answer.get("id") is None:
            return
        parsed = mcp_types.jsonrpc_message_adapter.validate_python(answer)
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
            await read_send.send(SessionMessage(parsed))

    async def pump() -> None:
        async with anyio.create_task_group() as group, write_receive:
            async for message in write_receive:
                group.start_soon(deliver, message)

    async with anyio.create_task_group() as group, read_send:
        group.start_soon(pump)
        try:
            yield read_receive, write_send
        finally:
            group.cancel_scope.cancel()
