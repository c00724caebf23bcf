"""WebSearch: one side request carrying the API's server-side search tool.

The model's reply holds `server_tool_use` calls, `web_search_tool_result` blocks (the
found pages' titles and links) and its text; the tool gives the model the links and
the text, and a reminder to cite them. The server blocks are read here only: what the
side request returned is never added to the conversation.
"""

from __future__ import annotations

import time
from typing import Any

from pydantic import ConfigDict, Field

from cc.tools.base import Tool, ToolContext, ToolInput, ToolResult, optional_without_null

SERVER_TOOL = {"type": "web_search_20250305", "name": "web_search", "max_uses": 8}
BOTH_DOMAIN_LISTS = "Cannot specify both allowed_domains and blocked_domains in the same request"
REMINDER = ("REMINDER: You MUST include the sources above in your response to the user "
            "using markdown hyperlinks.")


class WebSearchInput(ToolInput):
    model_config = ConfigDict(json_schema_extra=optional_without_null)

    query: str = Field(min_length=2, description="What to search the web for.")
    allowed_domains: list[str] | None = Field(
        default=None, description="Only return results from these domains.")
    blocked_domains: list[str] | None = Field(
        default=None, description="Never return results from these domains.")


class WebSearchTool(Tool):
    """Asks before it runs (like Claude Code), but changes nothing and runs alongside
    other calls."""

    name = "WebSearch"
    input_model = WebSearchInput

    def is_concurrency_safe(self, inp: ToolInput) -> bool:
        return True

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, WebSearchInput)
        from cc.prompts import load_text

        if inp.allowed_domains and inp.blocked_domains:
            return ToolResult.error(BOTH_DOMAIN_LISTS)
        start = time.monotonic()
        tool: dict[str, Any] = dict(SERVER_TOOL)
        if inp.allowed_domains:
            tool["allowed_domains"] = inp.allowed_domains
        if inp.blocked_domains:
            tool["blocked_domains"] = inp.blocked_domains
        answer = await ctx.services().side_query(
            f"Perform a web search for the query: {inp.query}",
            system=load_text("tools/WebSearch_system.md").strip(),
            server_tools=[tool], tool_choice={"type": "auto"})
        if not answer.ok:
            return ToolResult.error("The web search request failed. Try again, or rephrase "
                                    "the query.")
        results, searches = read_blocks(answer.blocks)
        links = sum(len(r["content"]) for r in results if isinstance(r, dict))
        data = {"query": inp.query, "results": results,
                "durationSeconds": round(time.monotonic() - start, 3),
                "searchCount": searches}
        noun = "search" if searches == 1 else "searches"
        return ToolResult(format_results(inp.query, results), data=data,
                          summary=f"Did {searches} {noun}, {links} "
                                  f"result{'' if links == 1 else 's'}")


def read_blocks(blocks: list[dict[str, Any]]) -> tuple[list[str | dict[str, Any]], int]:
    """The reply's text and found links, in order, and how many searches it ran."""
    results: list[str | dict[str, Any]] = []
    searches = 0
    for block in blocks:
        kind = block.get("type")
        if kind == "server_tool_use" and block.get("name") == "web_search":
            searches += 1
        elif kind == "web_search_tool_result":
            content = block.get("content")
            if isinstance(content, list):
                found = [{"title": str(r.get("title") or r.get("url") or ""),
                          "url": str(r.get("url") or "")}
                         for r in content if isinstance(r, dict) and r.get("url")]
                results.append({"tool_use_id": block.get("tool_use_id"), "content": found})
            elif isinstance(content, dict):  # web_search_tool_result_error
                results.append(f"Web search error: {content.get('error_code', 'unknown')}")
        elif kind == "text" and str(block.get("text") or "").strip():
            results.append(str(block["text"]).strip())
    return results, searches


def format_results(query: str, results: list[str | dict[str, Any]]) -> str:
    parts: list[str] = []
    for item in results:
        if isinstance(item, str):
            parts.append(item)
        elif item["content"]:
            parts.append("Links:\n" + "\n".join(f"- [{r['title']}]({r['url']})"
                                                 for r in item["content"]))
        else:
            parts.append("No results found.")
    body = "\n\n".join(parts) or "No results found."
    return f'Web search results for query: "{query}"\n\n{body}\n\n\n{REMINDER}'
