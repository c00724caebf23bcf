"""The hub and its connections against the real test server (stdio): what listeners are
told as servers connect, fail and reconnect; servers held for the user's approval."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cc.cancelling import cancel_and_wait
from cc.mcp.client import ClientSetup
from cc.mcp.config import Found, ServerEntry, StdioServer
from cc.mcp.hub import McpHub
from tests.waiting import wait_for_async

SERVER = str(Path(__file__).resolve().parent.parent / "servers" / "mcp_server.py")


def entry(name: str, *extra: str, scope: str = "dynamic") -> ServerEntry:
    config = StdioServer(sys.executable, (SERVER, "--name", name, *extra))
    return ServerEntry(name, config, scope)  # type: ignore[arg-type]


class Running:
    """A hub whose connections run as tasks of the test, cancelled at its end."""

    def __init__(self, hub: McpHub) -> None:
        self.hub = hub
        self.tasks: list[asyncio.Task[None]] = []
        #: Each server's status, every time a listener was told of a change.
        self.told: list[dict[str, str]] = []
        hub.on_change(lambda: self.told.append(
            {c.name: c.status for c in hub.connections.values()}))

    def start(self) -> None:
        self.hub.start(lambda coro: self.tasks.append(asyncio.ensure_future(coro)))

    def seen(self, name: str) -> list[str]:
        return [t[name] for t in self.told]


@pytest.fixture
async def running(tmp_path: Path) -> AsyncIterator[list[Running]]:
    made: list[Running] = []
    yield made
    assert await cancel_and_wait([t for r in made for t in r.tasks]) == []


def hub_of(tmp_path: Path, made: list[Running], *entries: ServerEntry,
           held: tuple[str, ...] = (), asking: tuple[str, ...] = (),
           backoff: float = 0.01) -> Running:
    found = Found({e.name: e for e in entries})
    setup = ClientSetup(tmp_path, log_dir=tmp_path / "logs", connect_timeout=20)
    run = Running(McpHub(found, setup, held=held, asking=asking, backoff_first=backoff))
    made.append(run)
    return run


async def test_a_failing_server_is_told_once_not_at_each_retry(
        tmp_path: Path, running: list[Running]) -> None:
    starts = tmp_path / "starts"
    run = hub_of(tmp_path, running, entry("broken", "--crash", "--pid-file", str(starts)))
    run.start()
    await wait_for_async(lambda: starts.exists() and len(starts.read_text().split()) >= 3,
                         what="three attempts")
    connection = run.hub.connections["broken"]
    assert connection.status == "failed" and "crashed on purpose" in (connection.error or "")
    assert run.seen("broken") == ["failed"]


async def test_a_reconnect_asked_for_is_no_failure(tmp_path: Path,
                                                   running: list[Running]) -> None:
    pids = tmp_path / "pids"
    run = hub_of(tmp_path, running, entry("demo", "--pid-file", str(pids)))
    run.start()
    connection = run.hub.connections["demo"]
    await connection.settled()
    assert connection.status == "connected" and len(connection.listing.tools) >= 8
    assert await connection.reconnected(20) is True
    assert connection.generation == 2 and len(pids.read_text().split()) == 2
    assert run.seen("demo") == ["connected", "pending", "connected"]
    assert run.hub.entries()  # its tools are offered again


async def test_reconnecting_a_failed_server_reports_it_failed(
        tmp_path: Path, running: list[Running]) -> None:
    # No retry comes before the one asked for.
    run = hub_of(tmp_path, running, entry("broken", "--crash"), backoff=600)
    run.start()
    connection = run.hub.connections["broken"]
    await connection.settled()
    assert await connection.reconnected(20) is False
    assert connection.status == "failed" and run.seen("broken") == ["failed"]


async def test_held_servers_wait_for_an_answer(tmp_path: Path,
                                               running: list[Running]) -> None:
    run = hub_of(tmp_path, running, entry("a", scope="project"), entry("b", scope="project"),
                 entry("c", scope="project"), held=("a", "b", "c"), asking=("a", "b"))
    hub = run.hub
    run.start()
    assert [c.name for c in hub.awaiting()] == ["a", "b"]
    assert {s["name"]: s["status"] for s in hub.statuses()} == {
        "a": "disabled", "b": "disabled", "c": "disabled"}
    assert await hub.connections["b"].reconnected(1) is False  # a disabled server stays off
    hub.refuse("b")
    hub.enable("a")
    assert hub.awaiting() == [] and not hub.is_awaiting("a")
    await hub.connections["a"].settled()
    assert hub.connections["a"].status == "connected"
    assert hub.connections["b"].status == "disabled" == hub.connections["c"].status
    assert {e.name.split("__")[1] for e in hub.entries() if e.name.startswith("mcp__")} == {"a"}
