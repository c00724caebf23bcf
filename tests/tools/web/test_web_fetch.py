"""WebFetch against a local server, its side request answered by the fake API."""

from __future__ import annotations

import pytest

from cc.tools.base import ToolContext, ToolResult
from cc.tools.web.cache import PageCache
from cc.tools.web.web_fetch import WebFetchInput, WebFetchTool, format_size
from tests.fakeapi import FakeAPI, first_user_text
from tests.tools.web.pages import PAGE, Site


async def run(ctx: ToolContext, url: str, prompt: str = "How many widgets?",
              cache: PageCache | None = None, **more: int) -> ToolResult:
    tool = WebFetchTool(cache or PageCache())
    return await tool.call(WebFetchInput(url=url, prompt=prompt, **more), ctx)


async def test_the_page_goes_to_the_model_as_markdown(
        site: Site, web_ctx: ToolContext, fake_api: FakeAPI) -> None:
    fake_api.script("The page says 42 widgets.")
    result = await run(web_ctx, site.url("/page.html"))
    assert not result.is_error
    assert result.content == "The page says 42 widgets."
    assert result.summary == f"Received {len(PAGE)} bytes (200 OK)"
    data = dict(result.data)
    assert data.pop("durationMs") >= 0
    assert data == {"bytes": len(PAGE), "code": 200, "codeText": "OK",
                    "result": "The page says 42 widgets.", "url": site.url("/page.html")}
    [body] = fake_api.bodies
    assert "tools" not in body and "tool_choice" not in body
    asked = first_user_text(body)
    assert asked.startswith("\nWeb page content:\n---\nWidgets\n\n# Widget guide\n\n"
                            "The [spec](/spec) says **42 widgets**.")
    assert "\n---\n\nHow many widgets?\n\n" in asked
    assert "var x" not in asked
    fake_api.assert_clean()


async def test_a_cached_page_is_not_fetched_again(
        site: Site, web_ctx: ToolContext, fake_api: FakeAPI) -> None:
    fake_api.script("first", "second")
    cache = PageCache()
    await run(web_ctx, site.url("/notes.txt"), cache=cache)
    result = await run(web_ctx, site.url("/notes.txt"), "Anything else?", cache=cache)
    assert result.content == "second"
    assert site.hits == ["/notes.txt"]
    assert "plain notes: 7 items" in first_user_text(fake_api.bodies[1])


async def test_http_errors_are_reported_without_a_side_request(
        site: Site, web_ctx: ToolContext, fake_api: FakeAPI) -> None:
    result = await run(web_ctx, site.url("/missing"))
    assert not result.is_error
    assert isinstance(result.content, str)
    assert result.content.startswith("The server returned HTTP 404 Not Found.\n\nThe response "
                                     "body was not retrieved.")
    assert (result.data["code"], result.data["bytes"]) == (404, 0)
    assert fake_api.bodies == []


async def test_a_redirect_to_another_host_names_the_new_url(
        site: Site, web_ctx: ToolContext, fake_api: FakeAPI) -> None:
    result = await run(web_ctx, site.url("/away"))
    assert not result.is_error
    assert f'call WebFetch again with url "{site.url("/page.html", "localhost")}"' in str(
        result.content)
    assert result.data["code"] == 301
    assert fake_api.bodies == []


@pytest.mark.parametrize(("path", "env", "said"), [
    ("/image.png", {}, "is binary content (image/png"),
    ("/huge", {"CC_WEBFETCH_MAX_BYTES": "1000"}, "larger than"),
    ("/slow", {"CC_WEBFETCH_TIMEOUT_MS": "200"}, "timed out"),
])
async def test_unreadable_pages_are_errors_the_model_can_act_on(
        site: Site, web_ctx: ToolContext, fake_api: FakeAPI, monkeypatch: pytest.MonkeyPatch,
        path: str, env: dict[str, str], said: str) -> None:
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    result = await run(web_ctx, site.url(path))
    assert result.is_error and said in str(result.content)
    assert fake_api.bodies == []


async def test_invalid_url_is_an_error(web_ctx: ToolContext) -> None:
    result = await run(web_ctx, "ftp://example.com/x")
    assert result.is_error and "only http and https" in str(result.content)


async def test_a_long_page_is_read_in_parts(
        site: Site, web_ctx: ToolContext, fake_api: FakeAPI,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("cc.tools.web.web_fetch.MAX_CONTENT_CHARS", 10)
    fake_api.script("part one", "part two")
    first = await run(web_ctx, site.url("/notes.txt"))
    assert "Call WebFetch again with offset=10" in str(first.content)
    assert "\n---\nplain note\n---\n" in first_user_text(fake_api.bodies[0])
    await run(web_ctx, site.url("/notes.txt"), offset=10)
    assert "\n---\ns: 7 items" in first_user_text(fake_api.bodies[1])


async def test_a_failed_side_request_is_an_error(
        site: Site, web_ctx: ToolContext, fake_api: FakeAPI,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.fakeapi import Fault

    monkeypatch.setenv("CC_RETRY_SCALE", "0.001")
    fake_api.script(*[Fault(400)] * 1)
    result = await run(web_ctx, site.url("/notes.txt"))
    assert result.is_error and "model request to read it failed" in str(result.content)


def test_sizes_read_as_claude_code_shows_them() -> None:
    assert [format_size(n) for n in (122, 2048, 12_595, 3 * 1024 * 1024)] == [
        "122 bytes", "2KB", "12.3KB", "3MB"]
