"""The web tools end to end in print mode: a scripted model loads WebFetch with
ToolSearch and fetches a page from a local server; the page reaches a side request
without tools as Markdown, and the answer reaches the model. WebSearch's side request
carries the server search tool, and its links reach the model."""

from __future__ import annotations

import json
from typing import Any

from tests.conftest import Project
from tests.fakeapi import Reply, first_user_text, server_tool_use, text, tool_use, web_search_result
from tests.tools.web.pages import serve


def results(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in body["messages"][-1]["content"] if b.get("type") == "tool_result"]


def is_side(body: dict[str, Any]) -> bool:
    """The web tools' side requests: no client tools."""
    return not any("input_schema" in t for t in body.get("tools") or [])


def test_tool_search_loads_web_fetch_and_the_answer_reaches_the_model(
        project: Project) -> None:
    project.env["ENABLE_TOOL_SEARCH"] = "true"  # the fake stands for Anthropic's API
    with serve() as site:
        url = site.url("/page.html")
        side = project.api.route(is_side, "The page says there are 42 widgets.")
        project.api.script(
            Reply([tool_use("ToolSearch", {"query": "select:WebFetch", "max_results": 5})]),
            Reply([tool_use("WebFetch", {"url": url, "prompt": "How many widgets?"})]),
            Reply([text("There are 42 widgets.")]),
        )
        run = project.run("-p", "count the widgets", "--allowedTools",
                          "WebFetch(domain:127.0.0.1)", "--output-format", "stream-json",
                          "--verbose")
    assert run.returncode == 0, run.stderr + run.stdout
    [asked] = side.requests
    assert "tools" not in asked.body
    assert asked.body["model"] == project.api.bodies[0]["model"]
    question = first_user_text(asked.body)
    assert "# Widget guide\n\nThe [spec](/spec) says **42 widgets**." in question
    assert "How many widgets?" in question
    main = [b for b in project.api.bodies if not is_side(b)]
    assert len(main) == 3
    assert "WebFetch" in {t["name"] for t in main[1]["tools"]}
    [fetched] = results(main[2])
    assert not fetched.get("is_error")
    assert "The page says there are 42 widgets." in json.dumps(fetched["content"])
    records = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    used = [r["tool_use_result"] for r in records if isinstance(r.get("tool_use_result"), dict)
            and "codeText" in r["tool_use_result"]]
    assert used and used[0]["code"] == 200 and used[0]["url"] == url
    assert site.hits == ["/page.html"]
    project.api.assert_clean()


def test_web_fetch_without_a_rule_is_refused_in_print_mode(project: Project) -> None:
    project.env["ENABLE_TOOL_SEARCH"] = "false"
    with serve() as site:
        project.api.script(
            Reply([tool_use("WebFetch", {"url": site.url("/page.html"), "prompt": "p"})]),
            Reply([text("Could not fetch.")]),
        )
        run = project.run("-p", "fetch it", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    assert site.hits == []
    [refused] = results(project.api.bodies[-1])
    assert refused.get("is_error")
    assert json.loads(run.stdout)["permission_denials"][0]["tool_name"] == "WebFetch"
    project.api.assert_clean()


def test_web_search_sends_the_server_tool_and_returns_links(project: Project) -> None:
    project.env["ENABLE_TOOL_SEARCH"] = "false"
    call = server_tool_use("widgets 2026")
    side = project.api.route(is_side, Reply([
        call, web_search_result(call["id"], "https://widgets.example/guide"),
        text("Widgets are up."),
    ]))
    project.api.script(
        Reply([tool_use("WebSearch", {"query": "widgets 2026"})]),
        Reply([text("Widgets are up ([Example](https://widgets.example/guide)).")]),
    )
    run = project.run("-p", "news on widgets", "--allowedTools", "WebSearch")
    assert run.returncode == 0, run.stderr
    [asked] = side.requests
    assert asked.body["tools"] == [{"type": "web_search_20250305", "name": "web_search",
                                    "max_uses": 8}]
    assert asked.body["tool_choice"] == {"type": "auto"}
    [found] = results(project.api.bodies[-1])
    content = json.dumps(found["content"])
    assert "[Example](https://widgets.example/guide)" in content and "REMINDER" in content
    project.api.assert_clean()
