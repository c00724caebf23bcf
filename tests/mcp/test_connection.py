"""One server's connection, in process, against the real test server over stdio."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cc.cancelling import cancel_and_wait
from cc.mcp.client import ClientSetup
from cc.mcp.config import ServerEntry, StdioServer
from cc.mcp.connection import ServerConnection, ServerDown
from tests.processes import wait_dead
from tests.waiting import wait_for_async

SERVER = str(Path(__file__).resolve().parent.parent / "servers" / "mcp_server.py")


def entry(*args: str, command: str = sys.executable) -> ServerEntry:
    return ServerEntry("demo", StdioServer(command, (SERVER, *args) if command ==
                                           sys.executable else args), "dynamic")


@pytest.fixture
async def running(tmp_path: Path) -> AsyncIterator[tuple[ServerConnection, list[int]]]:
    changes: list[int] = []
    connection = ServerConnection(entry(), ClientSetup(tmp_path, log_dir=tmp_path / "logs"),
                                  on_change=lambda c: changes.append(c.generation),
                                  backoff_first=0.01)
    task = asyncio.ensure_future(connection.run())
    try:
        await connection.settled()
        yield connection, changes
    finally:
        assert await cancel_and_wait([task]) == []


async def pid_of(connection: ServerConnection) -> int:
    result = await connection.call(lambda c: c.call_tool("pid", {}), 30)
    return int(result.content[0].text)


async def test_it_connects_and_lists_what_the_server_offers(running) -> None:
    connection, changes = running
    assert connection.status == "connected" and connection.error is None
    assert {t.name for t in connection.listing.tools} >= {"shout", "add", "pid"}
    assert "review" in [p.name for p in connection.listing.prompts]
    assert connection.listing.resources and connection.listing.server_name == "demo"
    assert changes == [1]


async def test_a_reconnect_asked_for_gives_a_new_server_and_calls_wait_for_it(running) -> None:
    connection, changes = running
    first = await pid_of(connection)
    connection.reconnect()
    second = await pid_of(connection)  # made while it reconnects: it waits
    assert second != first and connection.generation == 2
    await wait_dead(first)


async def test_a_killed_server_comes_back_with_its_tools(running) -> None:
    connection, changes = running
    first = await pid_of(connection)
    os.kill(first, signal.SIGKILL)
    await wait_for_async(lambda: connection.generation == 2, what="the reconnect")
    assert connection.status == "connected" and await pid_of(connection) != first


async def test_a_server_that_never_starts_fails_a_call_at_once(tmp_path: Path) -> None:
    connection = ServerConnection(entry(command="/nonexistent/server"),
                                  ClientSetup(tmp_path), backoff_first=60)
    task = asyncio.ensure_future(connection.run())
    try:
        await connection.settled()
        assert connection.status == "failed" and "not found" in (connection.error or "")
        with pytest.raises(ServerDown, match="not connected"):
            await connection.call(lambda c: c.list_tools(), 30)
    finally:
        assert await cancel_and_wait([task]) == []


async def test_a_server_that_does_not_answer_times_out(tmp_path: Path) -> None:
    connection = ServerConnection(entry("100", command="sleep"),
                                  ClientSetup(tmp_path, connect_timeout=0.5), backoff_first=60)
    task = asyncio.ensure_future(connection.run())
    try:
        await connection.settled()
        assert connection.status == "failed" and "timed out" in (connection.error or "")
    finally:
        assert await cancel_and_wait([task]) == []


async def test_the_working_folders_are_the_roots(tmp_path: Path) -> None:
    """Roots exist in the 2025 protocol (the 2026 one retired them): the handshake-era
    session hears the working folder and the added ones."""
    extra = tmp_path / "other"
    extra.mkdir()
    setup = ClientSetup(tmp_path, roots=[extra], protocol="legacy")
    connection = ServerConnection(entry(), setup)
    task = asyncio.ensure_future(connection.run())
    try:
        await connection.settled()
        result = await connection.call(lambda c: c.call_tool("roots", {}), 30)
        assert result.content[0].text.split("\n") == [tmp_path.resolve().as_uri(),
                                                      extra.resolve().as_uri()]
    finally:
        assert await cancel_and_wait([task]) == []
