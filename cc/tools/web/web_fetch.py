"""WebFetch: fetch a page, then answer the model's question about it.

The page (HTML as Markdown) and the question go to the agent's own model in one side
request without tools, as Claude Code 2.1.328 does; its answer is the result. A page
that failed (HTTP 4xx/5xx) is reported without a side request; a redirect to another
host is reported with its address, for the model to fetch if it wants.
"""

from __future__ import annotations

import time
from typing import Any

from pydantic import ConfigDict, Field

from cc.tools.base import ReadOnlyTool, ToolContext, ToolInput, ToolResult, optional_without_null
from cc.tools.web.cache import PAGES, CachedPage, PageCache
from cc.tools.web.fetch import FetchFailed, Redirected, elapsed_ms, reason_of

#: The most of a page's text one side request carries; `offset` reads on from there.
MAX_CONTENT_CHARS = 100_000


class WebFetchInput(ToolInput):
    model_config = ConfigDict(json_schema_extra=optional_without_null)

    url: str = Field(json_schema_extra={"format": "uri"},
                     description="The address of the page to fetch (http or https).")
    prompt: str = Field(description="What to find out from the page.")
    offset: int | None = Field(default=None, ge=0, le=9007199254740991, description=(
        "Where in the page's text to start, in characters (to read on past a long "
        "page's first part)."))


class WebFetchTool(ReadOnlyTool):
    name = "WebFetch"
    input_model = WebFetchInput

    def __init__(self, cache: PageCache = PAGES) -> None:
        self._cache = cache

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, WebFetchInput)
        from cc.tools.web.fetch import normalise

        start = time.monotonic()
        url = normalise(inp.url)
        if isinstance(url, FetchFailed):
            return ToolResult.error(url.message)
        page = self._cache.get(url)
        if page is None:
            got = await _load(url)
            if not isinstance(got, CachedPage):
                return _unread(got, url, inp.prompt, start)
            page = got
            if 200 <= page.code < 300:
                self._cache.put(url, page)
        if not 200 <= page.code < 300:
            return _status_result(page, start)
        return await _answer(page, inp, ctx, start)


async def _load(url: str) -> CachedPage | Redirected | FetchFailed:
    from cc.tools.web.convert import Binary, to_text
    from cc.tools.web.fetch import fetch

    got = await fetch(url)
    if isinstance(got, Redirected | FetchFailed):
        return got
    if not 200 <= got.code < 300:
        return CachedPage(got.url, got.code, got.code_text, 0, "")
    text = to_text(got.body, got.content_type, got.charset)
    if isinstance(text, Binary):
        return FetchFailed(f"{url} is binary content ({text.content_type}, {len(got.body)} "
                           "bytes), which WebFetch does not read. Fetch an HTML or text page "
                           "instead.")
    return CachedPage(url, got.code, got.code_text, len(got.body), text)


async def _answer(page: CachedPage, inp: WebFetchInput, ctx: ToolContext,
                  start: float) -> ToolResult:
    from cc.prompts import load_text

    offset = inp.offset or 0
    part = page.content[offset: offset + MAX_CONTENT_CHARS]
    rest = len(page.content) - offset - len(part)
    guidelines = load_text("tools/WebFetch_answer.md").strip()
    question = f"\nWeb page content:\n---\n{part}\n---\n\n{inp.prompt}\n\n{guidelines}"
    answer = await ctx.services().side_query(question)
    if not answer.ok:
        return ToolResult.error(f"The page was fetched ({format_size(page.bytes)}), but the "
                                "model request to read it failed. Try again.")
    result = answer.text.strip() or "(The model gave no answer about the page.)"
    if rest > 0:
        result += (f"\n\n[The page has {rest} more characters. Call WebFetch again with "
                   f"offset={offset + len(part)} to read on.]")
    return ToolResult(result, data=_record(page, result, start),
                      summary=f"Received {format_size(page.bytes)} ({page.code} "
                              f"{page.code_text})")


def _status_result(page: CachedPage, start: float) -> ToolResult:
    text = (f"The server returned HTTP {page.code} {page.code_text}.\n\nThe response body "
            "was not retrieved. Check the address, or look for the information elsewhere.")
    return ToolResult(text, data=_record(page, text, start),
                      summary=f"{page.code} {page.code_text}")


def _unread(got: Redirected | FetchFailed, url: str, prompt: str, start: float) -> ToolResult:
    if isinstance(got, FetchFailed):
        return ToolResult.error(got.message)
    reason = reason_of(got.code)
    text = (f"The page moved to another host, and the redirect was not followed.\n\n"
            f"Requested: {got.url}\nRedirects to: {got.location}\n"
            f"Status: {got.code} {reason}\n\n"
            f"To read it, call WebFetch again with url \"{got.location}\" "
            f"and the same prompt: {prompt}")
    page = CachedPage(url, got.code, reason, 0, "")
    return ToolResult(text, data=_record(page, text, start),
                      summary=f"Redirects to {got.location}")


def _record(page: CachedPage, result: str, start: float) -> dict[str, Any]:
    return {"bytes": page.bytes, "code": page.code, "codeText": page.code_text,
            "result": result, "durationMs": elapsed_ms(start), "url": page.url}


def format_size(n: int) -> str:
    """`122 bytes`, `12.3KB`, `1.2MB`."""
    if n < 1024:
        return f"{n} bytes"
    value = n / 1024
    for unit in ("KB", "MB"):
        if value < 1024:
            return f"{value:.1f}".removesuffix(".0") + unit
        value /= 1024
    return f"{value:.1f}".removesuffix(".0") + "GB"
