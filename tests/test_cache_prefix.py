"""The check of the prompt cache's rule (tests/cache_prefix.py) on request bodies made
here: a break of the prefix is caught, and each named exception is told from a defect
that looks like it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cc.compact.micro import CLEARED_PREFIX
from cc.prompts import load_text
from tests.cache_prefix import breaks, check, extends
from tests.fakeapi import Recorded

pytest_plugins = ["pytester"]

REPO_ROOT = Path(__file__).resolve().parent.parent
TOOLS = [{"name": "Read", "input_schema": {}}, {"name": "ToolSearch", "input_schema": {}},
         {"name": "SendMessage", "description": "to agents", "input_schema": {}}]


def request(messages: list[dict[str, Any]], *, system: str = "s",
            tools: list[dict[str, Any]] | None = None, session: str = "a",
            agent: str | None = None, model: str = "m") -> Recorded:
    headers = {"x-claude-code-session-id": session}
    if agent is not None:
        headers["x-claude-code-agent-id"] = agent
    return Recorded("/v1/messages", headers, {
        "model": model, "tools": TOOLS if tools is None else tools, "system": system,
        "messages": messages})


def user(*texts: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": t} for t in texts]}


def said(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": [{"type": "text", "text": text}]}


def call(name: str, id: str, **input: Any) -> dict[str, Any]:  # noqa: A002
    return {"role": "assistant", "content": [
        {"type": "tool_use", "id": id, "name": name, "input": input}]}


def result(id: str, content: Any, is_error: bool = False) -> dict[str, Any]:  # noqa: A002
    block = {"type": "tool_result", "tool_use_id": id, "content": content}
    return {"role": "user", "content": [block | ({"is_error": True} if is_error else {})]}


def exceptions(*requests: Recorded) -> list[str | None]:
    return [b.exception for b in check(list(requests))]


def test_a_conversation_that_extends_itself_passes_and_breakpoints_may_move() -> None:
    one = {"role": "user", "content": [{"type": "text", "text": "hi",
                                        "cache_control": {"type": "ephemeral"}}]}
    assert breaks([request([one]), request([user("hi"), said("ok"), user("more")])]) == []


def test_a_rewritten_message_system_or_tool_list_is_caught() -> None:
    first = request([user("hi")])
    assert breaks([first, request([said("ok"), said("ok"), user("x")])]) == [
        "request 1: message 0 of the request before changed"]
    assert breaks([first, request([user("hi"), said("ok"), user("x")], system="t")]) == [
        "request 1: its system differs from the request before"]
    assert breaks([first, request([user("hi"), said("ok"), user("x")], tools=TOOLS[:2])]) == [
        "request 1: its tools differs from the request before"]
    # a reminder that changed in an earlier prompt is no branch: the words typed are the same
    assert breaks([request([user("hi", "<system-reminder>a</system-reminder>")]),
                   request([user("hi", "<system-reminder>b</system-reminder>"), said("ok"),
                            user("x")])]) == ["request 1: message 0 of the request before changed"]


def test_conversations_are_told_apart_and_side_requests_left_out() -> None:
    assert breaks([
        request([user("hi")]),
        request([user("other")], agent="sub"),  # another agent
        request([user("other")], session="b"),  # another session
        request([user("other")], model="haiku"),  # another model: a fallback
        request([user("summarise")], tools=[{"type": "web_search_20250305", "name": "web_search"}]),
        request([user("hi"), said("ok"), user("x")]),
    ]) == []


def test_a_compaction_starts_a_new_prefix_and_only_with_a_new_summary() -> None:
    summary = user(load_text("compact/continuation.md").split("$", 1)[0] + "/t.jsonl …")
    before = request([user("a"), said("b"), user("c")])
    after = request([summary, said("d"), user("e")])
    assert exceptions(before, after) == ["compaction"]
    # the same summary, then a rewritten message: a defect
    assert breaks([request([summary, said("b"), user("c")]),
                   request([summary, said("B"), user("c")])]) == [
        "request 1: message 1 of the request before changed"]
    # a summary with a new system prompt is more than a compaction
    assert exceptions(before, request([summary, said("d")], system="t")) == [None]


def test_a_trim_of_old_results_and_thinking_is_a_compaction() -> None:
    big = result("t1", [{"type": "text", "text": "x" * 900}])
    cleared = result("t1", [{"type": "text", "text": f"{CLEARED_PREFIX} to save context.]"}])
    thought = {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "hm", "signature": "s"}, {"type": "text", "text": "ok"}]}
    before = request([user("a"), call("Read", "t1"), big, thought, user("b")])
    after = request([user("a"), call("Read", "t1"), cleared, said("ok"), user("b"), said("c"),
                     user("d")])
    assert exceptions(before, after) == ["compaction"]
    # a result rewritten with other text is no trim
    other = result("t1", [{"type": "text", "text": "y"}])
    assert exceptions(before, request([user("a"), call("Read", "t1"), other, thought,
                                       user("b"), said("c"), user("d")])) == [None]


def test_a_tool_a_reference_names_may_join_and_no_other() -> None:
    edit = {"name": "NotebookEdit", "input_schema": {}, "defer_loading": True}
    search = [user("a"), call("ToolSearch", "t1", query="select:NotebookEdit")]
    loaded = result("t1", [{"type": "tool_reference", "tool_name": "NotebookEdit"}])
    assert exceptions(request([user("a")]),
                      request([*search, loaded], tools=[*TOOLS, edit])) == ["tool loaded"]
    # a tool nobody loaded
    plain = result("t1", [{"type": "text", "text": "nothing found"}])
    assert exceptions(request([user("a")]), request([*search, plain], tools=[*TOOLS, edit])) \
        == [None]
    # the load does not excuse another tool's changed description
    changed = [TOOLS[0] | {"description": "new"}, *TOOLS[1:], edit]
    assert exceptions(request([user("a")]), request([*search, loaded], tools=changed)) == [None]


def test_the_team_tools_change_after_a_team_is_made_and_only_then() -> None:
    team = [TOOLS[0], TOOLS[1], {"name": "SendMessage", "description": "to the team",
                                 "input_schema": {}}, {"name": "TeamDelete", "input_schema": {}}]
    made = [user("a"), call("TeamCreate", "t1", team_name="x"), result("t1", "created")]
    assert exceptions(request([user("a")]), request(made, tools=team)) == ["team wiring"]
    failed = [user("a"), call("TeamCreate", "t1", team_name="x"), result("t1", "no", True)]
    assert exceptions(request([user("a")]), request(failed, tools=team)) == [None]
    read = [user("a"), call("Read", "t1", file_path="x"), result("t1", "text")]
    assert exceptions(request([user("a")]), request(read, tools=team)) == [None]


def test_a_resume_from_an_earlier_answer_branches() -> None:
    before = request([user("a"), said("b"), user("c"), said("d"), user("e")])
    # resumed at "b" with another prompt
    assert exceptions(before, request([user("a"), said("b"), user("f")])) == ["branch"]
    # the same prompt, its reminder changed: a rewrite, not a branch
    assert exceptions(before, request([user("a"), said("b"), user(
        "c", "<system-reminder>x</system-reminder>"), said("d"), user("e")])) == [None]
    # rewound to before "c", the same prompt sent again
    assert exceptions(before, request([user("a"), said("b"), user("c")])) == ["branch"]
    # messages dropped back to a tool result is no rewind
    rounds = request([user("a"), call("Read", "t1"), result("t1", "r"), said("d"), user("e")])
    assert exceptions(rounds, request([user("a"), call("Read", "t1"), result("t1", "r")])) \
        == [None]
    # going on from a call with no answer is no branch
    pending = request([user("a"), call("Read", "t1"), result("t1", "r"), said("d"), user("e")])
    assert exceptions(pending, request([user("a"), call("Read", "t1"), user("f")])) == [None]


def test_the_last_message_may_go_on_with_more_blocks_and_no_earlier_one() -> None:
    # a killed session's prompt never had an answer: the next prompt joins it
    assert breaks([request([user("first")]), request([user("first", "continue")])]) == []
    assert breaks([request([user("first"), said("a"), user("b")]),
                   request([user("first", "more"), said("a"), user("b", "c")])]) == [
        "request 1: message 0 of the request before changed"]


def test_a_summary_request_extends_the_conversation_which_goes_on_without_it() -> None:
    instruction = load_text("compact/instruction.md")
    first = [user("a"), call("Read", "t1"), result("t1", "r")]
    summary = {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t2", "content": "s"},
        {"type": "text", "text": instruction}]}
    asked = request([*first, call("Read", "t2"), summary])
    after = request([*first, call("Read", "t2"), result("t2", "s")])
    assert breaks([request(first), asked, after]) == []
    # a summary request that rewrote the conversation is caught all the same
    assert breaks([request(first), request([user("A"), call("Read", "t2"), summary])]) == [
        "request 1: message 0 of the request before changed"]


def test_the_memory_keepers_fork_is_a_conversation_of_its_own_on_the_same_prefix() -> None:
    directive = user(load_text("memory/extract.md").split("$", 1)[0])
    main = [request([user("a")]), request([user("a"), said("b"), user("c")])]
    fork = [request([user("a"), said("b"), directive]),
            request([user("a"), said("b"), directive, call("Read", "t1"), result("t1", "r")])]
    after = request([user("a"), said("b"), user("c"), said("d"), user("e")])
    assert breaks([*main, *fork, after]) == []
    # a fork must keep the system and tools of the conversation it forks
    assert breaks([*main, request([user("a"), said("b"), directive], system="t")]) == [
        "request 2: its system differs from the request before"]
    # and its own requests extend each other
    assert breaks([*main, fork[0], request([user("A"), said("b"), directive, said("x"),
                                            user("y")])]) == [
        "request 3: message 0 of the request before changed"]


INNER = '''
import json
import urllib.request

import pytest


def post(api, *texts):
    body = {"model": "m", "max_tokens": 10, "tools": [{"name": "Read", "input_schema": {}}],
            "messages": [{"role": "user" if i % 2 == 0 else "assistant", "content": t}
                         for i, t in enumerate(texts)]}
    request = urllib.request.Request(api.base_url + "/v1/messages", json.dumps(body).encode(),
                                     {"content-type": "application/json",
                                      "user-agent": "cc/0 (external, test)"})
    with urllib.request.urlopen(request) as answer:
        answer.read()


def test_extends(fake_api):
    fake_api.script("one", "two")
    post(fake_api, "a")
    post(fake_api, "a", "one", "b")


def test_rewrites(fake_api):
    fake_api.script("one", "two")
    post(fake_api, "a")
    post(fake_api, "A", "one", "b")


@pytest.mark.cache_prefix_exempt("it rewrites on purpose")
def test_rewrites_exempt(fake_api):
    fake_api.script("one", "two")
    post(fake_api, "a")
    post(fake_api, "A", "one", "b")
'''


def test_the_fixture_fails_a_test_whose_requests_break_the_prefix(
        pytester: pytest.Pytester) -> None:
    pytester.makeconftest(f"import sys\nsys.path.insert(0, {str(REPO_ROOT)!r})\n"
                          "from tests.conftest import fake_api, pytest_configure  # noqa: F401")
    pytester.makepyfile(test_inner=INNER)
    # without pytest-asyncio: the inner tests are plain, and newer releases of it warn
    # (an error under -W error) that an option the inner run has no ini for is unset
    run = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:asyncio",
                                        "-W", "error")
    run.assert_outcomes(passed=3, errors=1)
    run.stdout.fnmatch_lines(["*ERROR at teardown of test_rewrites *",
                              "*request 1: message 0 of the request before changed*"])


def test_extends_says_why_one_request_does_not_read_another_whole() -> None:
    assert extends(request([user("a")]), request([user("a"), said("b"), user("c")])) == []
    assert extends(request([user("a")]), request([user("A")], system="t")) == [
        "its system differs from the request before",
        "message 0 of the request before changed"]
