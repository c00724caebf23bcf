"""MCP servers in the REPL, in a real pty against the real test server: the question
about a project's new servers, /mcp, /context, and the notice of a server that fails."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from tests.fakeapi import Reply
from tests.ui.conftest import Setup
from tests.ui.terminal import TIMEOUT_S, Terminal
from tests.waiting import wait_for

SERVER = str(Path(__file__).resolve().parent.parent / "servers" / "mcp_server.py")
PICKER = "Reconnect or enable a server"


def _offered() -> tuple[int, int]:
    """How many tools and prompts the test server offers."""
    import asyncio

    from tests.servers.mcp_server import build

    server = build("demo", None)
    return len(asyncio.run(server.list_tools())), len(server._prompt_manager.list_prompts())


TOOLS, PROMPTS = _offered()


def server(name: str, *extra: str) -> dict[str, Any]:
    return {"command": sys.executable, "args": [SERVER, "--name", name, *extra]}



def project_servers(setup: Setup, servers: dict[str, Any]) -> None:
    (setup.root / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))


def recorded(setup: Setup) -> dict[str, Any] | None:
    path = setup.root / ".claude" / "settings.local.json"
    return json.loads(path.read_text()) if path.exists() else None


def starts(path: Path) -> int:
    return len(path.read_text().split()) if path.exists() else 0


def shows(screen: str, needle: str) -> bool:
    """Whether `needle` is on screen, be it folded (a long path) over lines."""
    return "".join(needle.split()) in "".join(screen.split())


def flat(screen: str) -> str:
    """The screen's words, one space apart (a long line wraps where the width says)."""
    return " ".join(screen.split())


def tool_names(body: dict[str, Any]) -> list[str]:
    return [t["name"] for t in body["tools"]]


def mcp_listing(term: Terminal, *needles: str) -> str:
    """/mcp until its listing shows every needle (servers connect in the background, and
    the listing is as things are when it is asked for); its picker closed with Esc."""
    end = time.monotonic() + TIMEOUT_S
    while True:
        term.enter("/mcp")
        screen = term.wait_for(PICKER)
        term.type("\x1b")
        term.wait_idle()
        listing = screen[screen.rindex("> /mcp"):]
        if all(shows(listing, n) for n in needles):
            return listing
        assert time.monotonic() < end, f"/mcp never showed {needles!r}:\n{listing}"


def test_approving_a_new_server_offers_its_tools_at_once(setup: Setup) -> None:
    pids = setup.root.parent / "demo.pids"
    project_servers(setup, {"demo": server("demo", "--pid-file", str(pids)),
                            "unusable": {"type": "http"}})
    setup.api.script(Reply("Hello."))
    term = setup.start()
    problem = 'MCP server "unusable": a server of type "http" needs a "url"'
    screen = term.wait_until(lambda s: "Don't use this server" in s and problem in flat(s))
    assert "New MCP server in this project: demo" in screen
    assert shows(screen, str(setup.root / ".mcp.json"))
    assert starts(pids) == 0  # nothing runs before the answer
    term.type("1")
    wait_for(lambda: recorded(setup) == {"enabledMcpjsonServers": ["demo"]},
             what="the answer recorded")
    mcp_listing(term, "✔ demo", f"connected · {TOOLS} tools · {PROMPTS} prompts · resources",
                f"Project · {setup.root / '.mcp.json'}")
    term.enter("hi")
    term.wait_for("● Hello.")
    assert "mcp__demo__shout" in tool_names(setup.api.bodies[-1])
    assert term.raw.decode(errors="replace").count('"unusable"') == 1  # told once
    term.wait_idle()
    term.enter("/context")
    screen = term.wait_for(f"{TOOLS} MCP tools · /context all lists them")
    line = next(ln for ln in screen.splitlines() if ln.strip().startswith("MCP tools"))
    assert int(line.split()[2]) > 100  # their definitions, counted
    setup.api.assert_clean()


def test_of_several_servers_the_unticked_one_is_refused_until_enabled(setup: Setup) -> None:
    used, refused = setup.root.parent / "used.pids", setup.root.parent / "refused.pids"
    project_servers(setup, {"used": server("used", "--pid-file", str(used)),
                            "refused": server("refused", "--pid-file", str(refused))})
    setup.api.script(Reply("Hello."))
    term = setup.start()
    term.wait_for("2 new MCP servers in this project", "[x] used", "[x] refused")
    term.type("2")
    term.wait_for("[ ] refused")
    term.enter()
    wait_for(lambda: recorded(setup) == {"enabledMcpjsonServers": ["used"],
                                         "disabledMcpjsonServers": ["refused"]},
             what="the answer recorded")
    listing = mcp_listing(term, "✔ used")
    assert "○ refused" in listing and "not used in this project" in listing
    term.enter("hi")
    term.wait_for("● Hello.")
    names = tool_names(setup.api.bodies[-1])
    assert "mcp__used__shout" in names and not any("refused" in n for n in names)
    assert starts(refused) == 0 and starts(used) == 1
    term.enter("/mcp enable refused")  # changing one's mind
    term.wait_for(f"Connected to refused ({TOOLS} tools)")
    assert recorded(setup) == {"enabledMcpjsonServers": ["used", "refused"],
                               "disabledMcpjsonServers": []}
    assert starts(refused) == 1
    setup.api.assert_clean()


def test_mcp_lists_connected_and_failed_servers_and_reconnects(setup: Setup) -> None:
    demo_pids, broken_starts = setup.root.parent / "demo.pids", setup.root.parent / "broken"
    config = setup.root.parent / "servers.json"
    config.write_text(json.dumps({"mcpServers": {
        "demo": server("demo", "--pid-file", str(demo_pids)),
        "broken": server("broken", "--crash", "--pid-file", str(broken_starts))}}))
    term = setup.start("--mcp-config", str(config), ENABLE_TOOL_SEARCH="true")
    notice = 'MCP server "broken" failed to connect'
    term.wait_for(notice)
    wait_for(lambda: starts(broken_starts) >= 3, what="two retries")
    listing = mcp_listing(term, "✔ demo", f"connected · {TOOLS} tools", "✘ broken",
                          "crashed on purpose", f"--mcp-config · {config}")
    assert term.raw.decode(errors="replace").count(notice) == 1  # not at each retry
    assert "Reconnect demo" in listing and "Reconnect broken" in listing

    term.enter("/mcp reconnect demo")
    term.wait_for(f"Reconnected to demo ({TOOLS} tools)")
    assert starts(demo_pids) == 2
    term.enter("/mcp")
    term.wait_for(PICKER)
    term.type("2")  # the picker's second line: broken
    term.wait_for("Could not connect to broken", "crashed on purpose")
    term.wait_idle()
    term.enter("/mcp reconnect nothing")
    term.wait_for('No MCP server is named "nothing" (configured: demo, broken).')

    term.enter("/context all")  # tool search on: MCP tools are deferred, and cost nothing
    screen = term.wait_for(f"{TOOLS} MCP tools ({TOOLS} deferred")
    assert "mcp__demo__shout" in screen and "deferred" in screen.split("mcp__demo__shout")[1]
    line = next(ln for ln in screen.splitlines() if ln.strip().startswith("MCP tools"))
    assert line.split()[2] == "0"


def test_leaving_the_repl_ends_every_server_it_started(setup: Setup) -> None:
    from tests.processes import alive

    pids = setup.root.parent / "pids.txt"
    config = setup.root.parent / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        "one": server("one", "--pid-file", str(pids)),
        "two": server("two", "--pid-file", str(pids))}}))
    term = setup.start("--mcp-config", str(config))
    mcp_listing(term, "✔ one", "✔ two")
    started = [int(p) for p in pids.read_text().split()]
    assert len(started) == 2 and all(alive(p) for p in started)
    term.enter("/exit")
    assert term.wait_exit() == 0
    for pid in started:
        wait_for(lambda pid=pid: not alive(pid), what=f"server {pid} ending")
