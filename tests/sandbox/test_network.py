"""sandbox.network.allowedDomains: only those hosts, through the session's proxy."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from cc.sandbox.proxy import domain_allowed
from tests.sandbox.conftest import Box, needs_bwrap

#: The real interpreter behind a venv's link: a venv under /tmp (as CI makes) is hidden
#: by the sandbox's private /tmp; the standard library is all these snippets need.
PYTHON = os.path.realpath(sys.executable)


class _Hello(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - http.server's spelling
        body = b"hello from the host\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def web() -> Iterator[int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Hello)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _fetch(url: str) -> str:
    code = (f"import urllib.request as u; print(u.urlopen({url!r}, timeout=20).read()"
            ".decode(), end='')")
    return f"{PYTHON} -I -c \"{code}\""


def test_domain_matching() -> None:
    assert domain_allowed("github.com", ["github.com"])
    assert domain_allowed("API.GitHub.com.", ["*.github.com"])
    assert not domain_allowed("github.com", ["*.github.com"])
    assert not domain_allowed("evilgithub.com", ["*.github.com", "github.com"])
    assert not domain_allowed("example.org", [])


@needs_bwrap
async def test_allowed_domain_is_reached_through_the_proxy(
        box_factory: Callable[..., Box], web: int) -> None:
    box = box_factory({"network": {"allowedDomains": ["localhost"]}})
    ok = await box.bash(_fetch(f"http://localhost:{web}/"))
    assert ok.content == "hello from the host", ok.content
    env = await box.bash("echo $HTTPS_PROXY")
    assert env.content.startswith("http://127.0.0.1:")


@needs_bwrap
async def test_other_hosts_are_refused_and_the_model_is_told(
        box_factory: Callable[..., Box], web: int) -> None:
    box = box_factory({"network": {"allowedDomains": ["localhost"]}})
    refused = await box.bash(_fetch(f"http://127.0.0.1:{web}/"))
    assert refused.is_error
    assert "hello" not in refused.content
    assert "proxy refused 127.0.0.1" in refused.content
    direct = await box.bash(f"exec 3<>/dev/tcp/127.0.0.1/{web} && echo connected")
    assert "connected" not in direct.content


@needs_bwrap
async def test_connect_tunnels_to_allowed_hosts_only(
        box_factory: Callable[..., Box], web: int) -> None:
    box = box_factory({"network": {"allowedDomains": ["localhost"]}})
    code = ("import http.client as h, os, sys; p = os.environ['HTTPS_PROXY'].rsplit(':', 1); "
            "c = h.HTTPConnection(p[0][7:], int(p[1]), timeout=20); "
            "c.set_tunnel(sys.argv[1], int(sys.argv[2])); c.request('GET', '/'); "
            "print(c.getresponse().read().decode(), end='')")
    tunnel = f"{PYTHON} -I -c \"{code}\""
    ok = await box.bash(f"{tunnel} localhost {web}")
    assert ok.content == "hello from the host", ok.content
    refused = await box.bash(f"{tunnel} 127.0.0.1 {web}")
    assert refused.is_error and "403" in refused.content, refused.content
