"""One MCP server for the whole session: connected in the background, kept connected.

    run()            the connection's task (the session's supervisor owns it): connect,
                     fetch the tools, prompts and resources, wait until the connection
                     drops or a reconnect is asked for; then again, with backoff
    call(...)        a request through the live client; made while the server is down,
                     it waits for the reconnect (up to its timeout) instead of failing
    reconnect()      drop the connection now and connect again (`/mcp`)
    status           pending · connected · failed · disabled (`system/init`, `/mcp`)

`on_change` is called when the server connects, when a connection ends (a reconnect
asked for leaves it pending, anything else failed) and when a first failure happens
(later retries that fail too are not news).

A server that changes its tools (`notifications/tools/list_changed`, or a change event
on 2026-era servers) has them fetched again; `on_change` tells the hub, which
re-registers them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from cc.cancelling import cancel_and_wait
from cc.mcp.client import ClientSetup, all_pages, describe_error, list_tools, open_client
from cc.mcp.config import ServerEntry

if TYPE_CHECKING:
    from mcp import Client

log = logging.getLogger(__name__)
Status = Literal["pending", "connected", "failed", "disabled"]
T = TypeVar("T")

#: Seconds between reconnection attempts: doubling from the first, capped at the last.
BACKOFF_FIRST = 0.5
BACKOFF_MAX = 30.0
#: Seconds a call waits for its server's tool list being fetched again.
REFRESH_WAIT = 5.0


class ServerDown(Exception):
    """The server could not be reached in time for a request."""


@dataclass
class Listing:
    """What a server offers, as last fetched."""

    tools: list[Any] = field(default_factory=list)
    #: Tools the protocol's types refuse: (name, why).
    rejected: list[tuple[str, str]] = field(default_factory=list)
    prompts: list[Any] = field(default_factory=list)
    resources: bool = False
    server_name: str = ""
    server_version: str = ""
    instructions: str | None = None


class ServerConnection:
    def __init__(self, entry: ServerEntry, setup: ClientSetup, *,
                 on_change: Callable[[ServerConnection], None] | None = None,
                 backoff_first: float = BACKOFF_FIRST) -> None:
        self.entry = entry
        self.setup = setup
        self.status: Status = "pending"
        #: Why the last attempt failed (None once connected).
        self.error: str | None = None
        self.listing = Listing()
        #: Connections made so far (1 after the first, 2 after a reconnect…).
        self.generation = 0
        self._on_change = on_change
        self._client: Client | None = None
        #: A reconnect was asked for (`/mcp`): drop the connection, connect at once.
        self._wake = asyncio.Event()
        #: Someone waits for the server: do not wait out the backoff.
        self._hurry = asyncio.Event()
        self._settled = asyncio.Event()
        self._refreshing: asyncio.Future[None] | None = None
        self._failure_told = False
        #: Set when the attempt under way ends (connected or failed), then replaced.
        self._attempt_end = asyncio.Event()
        self._backoff_first = backoff_first

    @property
    def name(self) -> str:
        return self.entry.name

    @property
    def connected(self) -> bool:
        return self._client is not None

    async def settled(self) -> None:
        """Wait until the first attempt has ended (connected or failed)."""
        await self._settled.wait()

    # -- the connection's task ------------------------------------------------------------

    async def run(self) -> None:
        attempt = 0
        while True:
            self._wake.clear()
            self._hurry.clear()
            was_up = False
            try:
                async with open_client(self.entry, self._setup_with_notices()) as (client, dropped):
                    await self._fetch(client)
                    self._client, self.status, self.error = client, "connected", None
                    self._failure_told = False
                    was_up = True
                    self.generation += 1
                    attempt = 0
                    self._settled.set()
                    self._end_attempt()
                    self._changed()
                    await self._until(dropped, client)
            except ConnectionError as exc:
                self.error = str(exc)
            except Exception as exc:  # noqa: BLE001 - a server's fault is reported, not raised
                self.error = describe_error(exc)
                log.debug("MCP server %s failed", self.name, exc_info=True)
            finally:
                self._client = None
            asked = self._wake.is_set()  # a reconnect asked for, not a failure
            if was_up and not asked:
                self.error = "the connection was lost" + (f" ({self.error})" if self.error else "")
            self.status = "pending" if asked else "failed"
            self._settled.set()
            self._end_attempt()
            # A failure is told once, not at every retry (nor after a reconnect asked for).
            if was_up or not (asked or self._failure_told):
                self._changed()
            self._failure_told = self._failure_told or not asked
            if asked:
                continue
            delay = min(BACKOFF_MAX, self._backoff_first * 2 ** attempt)
            attempt += 1
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay):
                    await _either(self._wake, self._hurry)

    def fail(self, error: str) -> None:
        """The connection cannot even be tried."""
        self.status, self.error = "failed", error
        self._settled.set()
        self._end_attempt()
        self._changed()

    def _end_attempt(self) -> None:
        self._attempt_end.set()
        self._attempt_end = asyncio.Event()

    async def _until(self, dropped: asyncio.Event, client: Client) -> None:
        """Serve until the connection drops or a reconnect is asked for; refetch the
        tools when the server says they changed."""
        waits: list[asyncio.Task[Any]] = [asyncio.ensure_future(dropped.wait()),
                                            asyncio.ensure_future(self._wake.wait()),
                                            asyncio.ensure_future(self._listen(client))]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            await cancel_and_wait(waits)

    async def _listen(self, client: Client) -> None:
        """On 2026-era servers, change events come through a subscription, whose end
        means the connection's; it returns when the connection is lost."""
        from mcp.client.subscriptions import SubscriptionLost

        try:
            async with client.listen(tools_list_changed=True, prompts_list_changed=True,
                                     resources_list_changed=True) as events:
                async for _event in events:
                    self._refresh_soon()
        except SubscriptionLost:
            log.debug("MCP server %s: change subscription lost", self.name)
        except Exception:  # noqa: BLE001 - no subscription (an older server notifies
            # through the message handler): the stream's end is the sign of a drop
            log.debug("MCP server %s: no change subscription", self.name, exc_info=True)
            await asyncio.Event().wait()

    def _setup_with_notices(self) -> ClientSetup:
        import dataclasses

        def on_message(message: Any) -> None:
            method = getattr(message, "method", "")
            if method.endswith("/list_changed"):
                self._refresh_soon()

        return dataclasses.replace(self.setup, on_message=on_message)

    async def _fetch(self, client: Client) -> None:
        caps = client.server_capabilities
        listing = Listing()
        if caps.tools is not None:
            tools = await list_tools(client)
            listing.tools, listing.rejected = tools.tools, tools.rejected
        if caps.prompts is not None:
            listing.prompts = await all_pages(client.list_prompts, "prompts")
        listing.resources = caps.resources is not None
        info = client.server_info
        if info is not None:
            listing.server_name, listing.server_version = info.name, info.version
        listing.instructions = client.instructions
        self.listing = listing

    def _refresh_soon(self) -> None:
        """Refetch in the background; a call under way waits for it before it returns
        (so a tool that adds tools has them offered with the next request)."""
        if self._refreshing is None or self._refreshing.done():
            self._refreshing = asyncio.ensure_future(self.refresh())

    async def refresh(self) -> None:
        """Fetch the lists again (the server said they changed)."""
        client = self._client
        if client is None:
            return
        try:
            await self._fetch(client)
        except Exception:  # noqa: BLE001
            log.debug("MCP server %s: refetch failed", self.name, exc_info=True)
            return
        self._changed()

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change(self)

    # -- requests -------------------------------------------------------------------------

    def reconnect(self) -> None:
        """Drop the connection (if any) and connect again at once; calls made meanwhile
        wait for the new one."""
        self._client = None
        if self.status != "disabled":
            self.status = "pending"
        self._wake.set()
        self._hurry.set()

    async def reconnected(self, timeout: float) -> bool:
        """`reconnect()`, then wait (up to `timeout` seconds) until that attempt has
        ended; whether the server is connected then. A disabled server stays off."""
        if self.status == "disabled":
            return False
        ended = self._attempt_end
        self.reconnect()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await ended.wait()
                if self._client is None and self.status == "pending":
                    await self._attempt_end.wait()  # the old connection closed; the new one
        return self.status == "connected"

    async def call(self, request: Callable[[Client], Awaitable[T]], timeout: float) -> T:
        """`request(client)` on the live connection, waiting for one up to `timeout`
        seconds in all. Raises `ServerDown`, `TimeoutError`, or the request's error."""
        async with asyncio.timeout(timeout):
            while (client := self._client) is None:
                if self.status == "disabled":
                    raise ServerDown(f"MCP server {self.name} is disabled")
                attempt = self._attempt_end
                self._hurry.set()
                await attempt.wait()
                if self._client is None and self.status == "failed":
                    raise ServerDown(f"MCP server {self.name} is not connected: {self.error}")
            result = await request(client)
        if self._refreshing is not None and not self._refreshing.done():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(REFRESH_WAIT):
                    await asyncio.shield(self._refreshing)
        return result


async def _either(*events: asyncio.Event) -> None:
    waits = [asyncio.ensure_future(e.wait()) for e in events]
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()
