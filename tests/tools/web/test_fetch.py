"""fetch.py against a real local server: redirects, caps, timeouts, TLS."""

from __future__ import annotations

import pytest

from cc.tools.web.fetch import FetchFailed, Redirected, Response, fetch, normalise, same_site
from tests.tools.web.pages import HUGE_SIZE, PAGE, Site


@pytest.mark.parametrize(("given", "wanted"), [
    ("http://example.com/a?b=1", "https://example.com/a?b=1"),
    ("https://example.com/", "https://example.com/"),
    ("http://127.0.0.1:8080/x", "http://127.0.0.1:8080/x"),
    ("http://localhost/x", "http://localhost/x"),
    ("http://[::1]:9/x", "http://[::1]:9/x"),
])
def test_http_is_upgraded_except_on_loopback(given: str, wanted: str) -> None:
    assert normalise(given) == wanted


@pytest.mark.parametrize("bad", ["ftp://example.com/f", "not a url", "https://", "/relative",
                                 "https://user:pw@example.com/", "https://e.com/" + "a" * 2000])
def test_bad_urls_are_refused(bad: str) -> None:
    assert isinstance(normalise(bad), FetchFailed)


def test_same_site_ignores_www_but_not_port_or_host() -> None:
    assert same_site("https://example.com/a", "https://www.example.com/b")
    assert not same_site("https://example.com/a", "https://evil.com/a")
    assert not same_site("http://127.0.0.1:1/a", "http://localhost:1/a")
    assert not same_site("http://127.0.0.1:1/a", "http://127.0.0.1:2/a")


async def test_a_page_is_read_whole(site: Site) -> None:
    got = await fetch(site.url("/page.html"))
    assert isinstance(got, Response)
    assert (got.code, got.code_text, got.content_type, got.body) == (200, "OK", "text/html", PAGE)


async def test_a_same_host_redirect_is_followed(site: Site) -> None:
    got = await fetch(site.url("/moved"))
    assert isinstance(got, Response) and got.body == PAGE
    assert got.url == site.url("/page.html")
    assert site.hits == ["/moved", "/page.html"]


async def test_a_redirect_to_another_host_is_reported_not_followed(site: Site) -> None:
    got = await fetch(site.url("/away"))
    assert got == Redirected(site.url("/away"), site.url("/page.html", "localhost"), 301)
    assert site.hits == ["/away"]


async def test_a_body_over_the_cap_is_not_read(site: Site) -> None:
    got = await fetch(site.url("/huge"), max_bytes=HUGE_SIZE - 1)
    assert isinstance(got, FetchFailed) and "larger than" in got.message
    assert isinstance(await fetch(site.url("/huge"), max_bytes=HUGE_SIZE), Response)


async def test_a_slow_server_times_out(site: Site) -> None:
    got = await fetch(site.url("/slow"), timeout_s=0.2)
    assert isinstance(got, FetchFailed) and "timed out after 0.2 seconds" in got.message


async def test_a_tls_failure_is_explained(site: Site) -> None:
    # https to a plain-HTTP server: the TLS handshake fails.
    got = await fetch(f"https://127.0.0.1:{site.port}/page.html")
    assert isinstance(got, FetchFailed) and "TLS" in got.message


async def test_a_refused_connection_is_explained(site: Site) -> None:
    got = await fetch("http://127.0.0.1:9/x")
    assert isinstance(got, FetchFailed) and "Could not connect" in got.message
