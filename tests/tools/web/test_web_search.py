"""WebSearch: a side request with the server search tool; its result blocks read back."""

from __future__ import annotations

import pytest

from cc.tools.base import ToolContext, ToolResult
from cc.tools.web.web_search import REMINDER, WebSearchInput, WebSearchTool
from tests.fakeapi import (
    FakeAPI,
    Reply,
    first_user_text,
    server_tool_use,
    system_text,
    text,
    web_search_result,
)


async def search(ctx: ToolContext, **inp: object) -> ToolResult:
    return await WebSearchTool().call(WebSearchInput.model_validate(inp), ctx)


async def test_the_search_carries_the_server_tool_and_returns_links_and_text(
        web_ctx: ToolContext, fake_api: FakeAPI) -> None:
    call = server_tool_use("widgets 2026")
    fake_api.script(Reply([
        call, web_search_result(call["id"], "https://widgets.example/guide"),
        text("Widgets are up 4% this year."),
    ]))
    result = await search(web_ctx, query="widgets 2026", allowed_domains=["widgets.example"])
    assert not result.is_error
    assert result.content == (
        'Web search results for query: "widgets 2026"\n\n'
        "Links:\n- [Example](https://widgets.example/guide)\n\n"
        f"Widgets are up 4% this year.\n\n\n{REMINDER}")
    assert result.summary == "Did 1 search, 1 result"
    data = dict(result.data)
    assert data.pop("durationSeconds") >= 0
    assert data == {"query": "widgets 2026", "searchCount": 1, "results": [
        {"tool_use_id": call["id"],
         "content": [{"title": "Example", "url": "https://widgets.example/guide"}]},
        "Widgets are up 4% this year."]}
    [body] = fake_api.bodies
    assert body["tools"] == [{"type": "web_search_20250305", "name": "web_search",
                              "max_uses": 8, "allowed_domains": ["widgets.example"]}]
    assert body["tool_choice"] == {"type": "auto"}
    assert first_user_text(body) == "Perform a web search for the query: widgets 2026"
    assert "search" in system_text(body)
    fake_api.assert_clean()


async def test_blocked_domains_go_with_the_tool(web_ctx: ToolContext, fake_api: FakeAPI) -> None:
    fake_api.script("Nothing found.")
    result = await search(web_ctx, query="widgets", blocked_domains=["spam.example"])
    assert result.data["searchCount"] == 0
    assert result.data["results"] == ["Nothing found."]
    assert fake_api.bodies[0]["tools"][0]["blocked_domains"] == ["spam.example"]


async def test_both_domain_lists_are_refused(web_ctx: ToolContext, fake_api: FakeAPI) -> None:
    result = await search(web_ctx, query="widgets", allowed_domains=["a.example"],
                          blocked_domains=["b.example"])
    assert result.is_error and "Cannot specify both" in str(result.content)
    assert fake_api.bodies == []


async def test_a_search_error_is_told(web_ctx: ToolContext, fake_api: FakeAPI) -> None:
    call = server_tool_use("widgets")
    fake_api.script(Reply([call, {"type": "web_search_tool_result", "tool_use_id": call["id"],
                                  "content": {"type": "web_search_tool_result_error",
                                              "error_code": "max_uses_exceeded"}}]))
    result = await search(web_ctx, query="widgets")
    assert "Web search error: max_uses_exceeded" in str(result.content)


def test_a_one_letter_query_is_invalid() -> None:
    tool = WebSearchTool()
    problem = tool.validate({"query": "x"})
    assert isinstance(problem, str) and "query" in problem
    assert tool.input_schema()["properties"]["query"]["minLength"] == 2


#: The input schemas of Claude Code 2.1.328 (descriptions aside).
CLAUDE_CODE_SCHEMAS = {
    "WebFetch": {"type": "object", "properties": {
        "url": {"type": "string", "format": "uri"}, "prompt": {"type": "string"},
        "offset": {"type": "integer", "minimum": 0, "maximum": 9007199254740991}},
        "required": ["url", "prompt"], "additionalProperties": False},
    "WebSearch": {"type": "object", "properties": {
        "query": {"type": "string", "minLength": 2},
        "allowed_domains": {"type": "array", "items": {"type": "string"}},
        "blocked_domains": {"type": "array", "items": {"type": "string"}}},
        "required": ["query"], "additionalProperties": False},
}


@pytest.mark.parametrize("name", sorted(CLAUDE_CODE_SCHEMAS))
def test_schemas_are_claude_codes(name: str) -> None:
    from cc.tools.catalog import builtin_entries

    [entry] = [e for e in builtin_entries() if e.name == name]
    assert entry.deferred
    tool = entry.load()
    schema = tool.input_schema()
    for prop in schema["properties"].values():
        assert prop.pop("description")
    assert schema == CLAUDE_CODE_SCHEMAS[name]
    assert tool.description()
