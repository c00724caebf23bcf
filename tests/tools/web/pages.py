"""A real local web server for the web tools' tests (http.server in a thread).

    /page.html      an HTML page          /notes.txt   plain text
    /data.json      JSON                  /missing     404
    /moved          a redirect to /page.html (same host)
    /away           a redirect to the same server as `localhost` (another host)
    /huge           a body over any small cap (CC_WEBFETCH_MAX_BYTES in tests)
    /image.png      binary
    /slow           answers only once `release` is set (for the timeout)
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PAGE = (b"<!doctype html><html><head><title>Widgets</title><script>var x = 1;</script>"
        b"</head><body><h1>Widget guide</h1><p>The <a href='/spec'>spec</a> says "
        b"<b>42 widgets</b>.</p><ul><li>red</li><li>blue</li></ul></body></html>")
HUGE_SIZE = 64 * 1024


@dataclass
class Site:
    port: int
    release: threading.Event
    hits: list[str] = field(default_factory=list)

    def url(self, path: str, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"


def _handler(site: Site) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet
            pass

        def do_GET(self) -> None:
            site.hits.append(self.path)
            routes = {
                "/page.html": (200, "text/html; charset=utf-8", PAGE),
                "/notes.txt": (200, "text/plain", b"plain notes: 7 items\n"),
                "/data.json": (200, "application/json", b'{"answer": 42}'),
                "/missing": (404, "text/html", b"<h1>gone</h1>"),
                "/image.png": (200, "image/png", b"\x89PNG\r\n\x1a\n" + bytes(100)),
                "/huge": (200, "text/plain", b"x" * HUGE_SIZE),
            }
            if self.path == "/moved":
                return self._redirect(site.url("/page.html"))
            if self.path == "/away":
                return self._redirect(site.url("/page.html", host="localhost"))
            if self.path == "/slow":
                site.release.wait(30)
                return self._send(200, "text/plain", b"late")
            code, kind, body = routes.get(self.path, (404, "text/plain", b"no"))
            self._send(code, kind, body)

        def _redirect(self, location: str) -> None:
            self.send_response(301)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def _send(self, code: int, kind: str, body: bytes) -> None:
            try:
                self.send_response(code)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except OSError:  # the client gave up (a timeout or a size cap)
                pass

    return Handler


@contextmanager
def serve() -> Iterator[Site]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(Site(0, threading.Event())))
    site = Site(server.server_address[1], threading.Event())
    server.RequestHandlerClass = _handler(site)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield site
    finally:
        site.release.set()
        server.shutdown()
        server.server_close()
        thread.join()
