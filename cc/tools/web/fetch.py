"""One GET of a web page, as WebFetch makes it.

`http://` becomes `https://` except on loopback hosts. A redirect to the same host (or
its `www.` twin) is followed; one to another host is not: the caller gets `Redirected`
and tells the model the new address, so a permission for one host never reaches
another unasked. The body is read up to a cap; a slow server meets a timeout. Every
failure is a value (`FetchFailed`) phrased for the model.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from http import HTTPStatus
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit, urlunsplit

from cc.config.env import env_number

if TYPE_CHECKING:
    import httpx

MAX_URL_CHARS = 2000
MAX_REDIRECTS = 10
#: The largest body read (bytes); `CC_WEBFETCH_MAX_BYTES` overrides it.
MAX_BYTES = 10 * 1024 * 1024
#: The whole fetch's time limit (ms); `CC_WEBFETCH_TIMEOUT_MS` overrides it.
TIMEOUT_MS = 60_000
LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})
USER_AGENT = "cc-webfetch/1.0 (a Claude Code clone; +https://github.com/)"


@dataclass(frozen=True)
class Response:
    """A response read whole (any status)."""

    url: str
    code: int
    content_type: str
    charset: str | None
    body: bytes

    @property
    def code_text(self) -> str:
        return reason_of(self.code)


@dataclass(frozen=True)
class Redirected:
    """The server sent us to another host; the model decides whether to follow."""

    url: str
    location: str
    code: int


@dataclass(frozen=True)
class FetchFailed:
    message: str


def reason_of(code: int) -> str:
    try:
        return HTTPStatus(code).phrase
    except ValueError:
        return ""


def normalise(url: str) -> str | FetchFailed:
    """The URL to fetch: checked, and upgraded to https unless it is a loopback host."""
    if len(url) > MAX_URL_CHARS:
        return FetchFailed(f"The URL is longer than {MAX_URL_CHARS} characters.")
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname
    except ValueError:
        return FetchFailed(f"Invalid URL: {url}")
    if parts.scheme not in ("http", "https") or not host:
        return FetchFailed(f"Invalid URL: {url} (only http and https URLs can be fetched)")
    if parts.username or parts.password:
        return FetchFailed("URLs with a user name or password cannot be fetched.")
    if parts.scheme == "http" and host.lower() not in LOOPBACK:
        parts = parts._replace(scheme="https")
    return urlunsplit(parts)


def same_site(a: str, b: str) -> bool:
    """Whether a redirect from `a` to `b` stays on the host (`www.` aside) and port."""
    pa, pb = urlsplit(a), urlsplit(b)
    ha = (pa.hostname or "").lower().removeprefix("www.")
    hb = (pb.hostname or "").lower().removeprefix("www.")
    return ha == hb and pa.port == pb.port and pb.scheme in ("http", "https")


async def fetch(url: str, *, timeout_s: float | None = None,
                max_bytes: int | None = None) -> Response | Redirected | FetchFailed:
    """GET `url` (already `normalise`d), following same-host redirects."""
    timeout = timeout_s if timeout_s is not None else (
        env_number("CC_WEBFETCH_TIMEOUT_MS", TIMEOUT_MS) / 1000)
    cap = max_bytes if max_bytes is not None else env_number("CC_WEBFETCH_MAX_BYTES", MAX_BYTES)
    try:
        async with asyncio.timeout(timeout):
            return await _follow(url, timeout, cap)
    except TimeoutError:
        return FetchFailed(f"Fetching {url} timed out after {timeout:g} seconds. The site may "
                           "be slow or unreachable; try again later or another source.")


async def _follow(url: str, timeout: float, cap: int) -> Response | Redirected | FetchFailed:
    import httpx

    headers = {"User-Agent": USER_AGENT, "Accept": "text/markdown, text/html, */*"}
    async with httpx.AsyncClient(follow_redirects=False, timeout=timeout, headers=headers,
                                 trust_env=False) as client:
        current = url
        for _ in range(MAX_REDIRECTS + 1):
            try:
                got = await _get(client, current, cap)
            except httpx.ConnectError as exc:
                return FetchFailed(_connect_problem(current, exc))
            except httpx.TimeoutException:
                raise TimeoutError from None
            except httpx.HTTPError as exc:
                return FetchFailed(f"Fetching {current} failed: {exc or type(exc).__name__}")
            if not isinstance(got, tuple):
                return got
            code, location = got
            target = urljoin(current, location)
            if not same_site(current, target):
                return Redirected(current, target, code)
            current = target
        return FetchFailed(f"Too many redirects (more than {MAX_REDIRECTS}) from {url}.")


async def _get(client: httpx.AsyncClient, url: str, cap: int
               ) -> Response | FetchFailed | tuple[int, str]:
    """One request: the response, a failure, or (code, location) of a redirect."""
    async with client.stream("GET", url) as resp:
        location = resp.headers.get("location")
        if resp.is_redirect and location:
            return resp.status_code, location
        declared = resp.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > cap:
            return _too_large(url, cap)
        chunks: list[bytes] = []
        size = 0
        async for chunk in resp.aiter_bytes():
            size += len(chunk)
            if size > cap:
                return _too_large(url, cap)
            chunks.append(chunk)
        content_type = resp.headers.get("content-type", "")
        return Response(str(resp.url), resp.status_code,
                        content_type.split(";")[0].strip().lower(), resp.charset_encoding,
                        b"".join(chunks))


def _too_large(url: str, cap: int) -> FetchFailed:
    return FetchFailed(f"The content at {url} is larger than the {cap / 1024 / 1024:.1f} MB "
                       "limit and was not read. Look for a smaller page or a specific section.")


def _connect_problem(url: str, exc: Exception) -> str:
    text = str(exc)
    if "SSL" in text or "TLS" in text or "certificate" in text.lower():
        return (f"The secure (TLS) connection to {url} failed: {text}. The site's certificate "
                "or TLS set-up is not accepted; it cannot be fetched this way.")
    return f"Could not connect to {url}: {text or type(exc).__name__}"


def elapsed_ms(start: float) -> int:
    return int((time.monotonic() - start) * 1000)
