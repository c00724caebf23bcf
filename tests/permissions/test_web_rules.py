"""WebFetch asks per domain (its "always" rule is `WebFetch(domain:host)`), is refused
with no one to ask, and `WebFetch(domain:…)` rules decide it; WebSearch asks too."""

from __future__ import annotations

import json

import pytest

from cc.permissions.ask import AskAnswer
from cc.permissions.checker import PermissionChecker
from cc.permissions.gate import Decision
from cc.tools.web.web_fetch import WebFetchInput, WebFetchTool
from cc.tools.web.web_search import WebSearchInput, WebSearchTool
from tests.permissions.conftest import Proj, answering, make_checker


async def fetch(checker: PermissionChecker, url: str) -> Decision:
    return await checker.check(WebFetchTool(), WebFetchInput(url=url, prompt="p"), "toolu_w")


async def test_default_mode_asks_per_domain_and_always_saves_the_domain(proj: Proj) -> None:
    ask, seen = answering(AskAnswer("allow", always=True))
    checker = make_checker(proj, asker=ask)
    assert (await fetch(checker, "https://docs.example.com/a")).behavior == "allow"
    assert (await fetch(checker, "https://docs.example.com/b")).behavior == "allow"
    assert len(seen) == 1
    assert seen[0].suggestions == ["WebFetch(domain:docs.example.com)"]
    assert seen[0].description == "Fetch: https://docs.example.com/a"
    saved = json.loads((proj.root / ".claude" / "settings.local.json").read_text())
    assert saved["permissions"]["allow"] == ["WebFetch(domain:docs.example.com)"]
    assert (await fetch(checker, "https://other.example.com/")).behavior == "allow"
    assert len(seen) == 2  # another domain asks again


async def test_print_mode_refuses_without_a_rule(proj: Proj) -> None:
    decision = await fetch(make_checker(proj), "https://example.com/")
    assert decision.behavior == "deny"
    assert "fetch https://example.com/" in (decision.message or "")


@pytest.mark.parametrize(("rules", "url", "behavior"), [
    (("WebFetch(domain:example.com)",), "https://example.com/x", "allow"),
    (("WebFetch(domain:example.com)",), "https://www.example.com/x", "deny"),
    (("WebFetch(domain:*.example.com)",), "https://a.b.example.com/x", "allow"),
    (("WebFetch(domain:127.0.0.1)",), "http://127.0.0.1:8080/x", "allow"),
    (("WebFetch",), "https://anything.example/", "allow"),
])
async def test_domain_rules(proj: Proj, rules: tuple[str, ...], url: str,
                            behavior: str) -> None:
    assert (await fetch(make_checker(proj, allow=rules), url)).behavior == behavior


async def test_deny_rules_win(proj: Proj) -> None:
    checker = make_checker(proj, "bypassPermissions", deny=("WebFetch(domain:evil.example)",))
    assert (await fetch(checker, "https://evil.example/")).behavior == "deny"
    assert (await fetch(checker, "https://good.example/")).behavior == "allow"


async def test_web_search_asks_and_its_rule_is_the_bare_name(proj: Proj) -> None:
    ask, seen = answering(AskAnswer("allow"))
    inp = WebSearchInput(query="widgets")
    decision = await make_checker(proj, asker=ask).check(WebSearchTool(), inp, "toolu_s")
    assert decision.behavior == "allow"
    assert seen[0].suggestions == ["WebSearch"]
    assert (await make_checker(proj).check(WebSearchTool(), inp, "t")).behavior == "deny"
    allowed = make_checker(proj, allow=("WebSearch",))
    assert (await allowed.check(WebSearchTool(), inp, "t")).behavior == "allow"


async def test_plan_mode_lets_the_web_tools_ask_instead_of_refusing_them(proj: Proj) -> None:
    """They change nothing: in plan mode they ask, as in default mode (only what writes is
    refused there)."""
    ask, seen = answering(AskAnswer("allow"))
    checker = make_checker(proj, "plan", asker=ask)
    search = await checker.check(WebSearchTool(), WebSearchInput(query="python asyncio"),
                                 "toolu_s")
    assert search.behavior == "allow"
    assert (await fetch(checker, "https://docs.example.com/a")).behavior == "allow"
    assert [r.tool_name for r in seen] == ["WebSearch", "WebFetch"]
