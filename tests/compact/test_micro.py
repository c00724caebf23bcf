"""The cheap trims: what they clear, what they must never clear, and when they run."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from cc.compact.micro import (
    CLEARED_PREFIX,
    LARGE_SAVING_TOKENS,
    Trim,
    dedupe_reads,
    drop_old_thinking,
    snip_old_results,
    trim,
    worth_trimming,
)
from cc.models.content_blocks import (
    ContentBlock,
    RedactedThinkingBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from cc.models.messages import (
    MISSING_RESULT_TEXT,
    AssistantMessage,
    Message,
    UserMessage,
    normalize_messages_for_api,
)
from tests.fakeapi import validate

CWD = "/proj"
BIG = "x" * 4000  # 1,000 tokens
SMALL = "y" * 400  # 100 tokens: under the 200-token floor


class Talk:
    """Builds a conversation one call at a time, each with its own result."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.n = 0

    def prompt(self, text: str = "do it", *, is_meta: bool = False) -> Talk:
        self.messages.append(UserMessage.text(text, is_meta=is_meta))
        return self

    def call(self, *calls: tuple[str, dict[str, Any], str], thinking: str | None = None,
             is_error: bool = False) -> Talk:
        """One assistant message with these (name, input, result) calls, and their results."""
        uses = []
        for name, inp, _ in calls:
            self.n += 1
            uses.append(ToolUseBlock(f"toolu_{self.n}", name, inp))
        head: list[ContentBlock] = [ThinkingBlock(thinking, "sig")] if thinking else []
        self.messages.append(AssistantMessage([*head, *uses]))
        self.messages.append(UserMessage(
            [ToolResultBlock(u.id, out, is_error=is_error) for u, (_, _, out) in zip(uses, calls)]))
        return self

    def read(self, path: str, out: str = BIG, *, thinking: str | None = None,
             **window: int) -> Talk:
        return self.call(("Read", {"file_path": path, **window}, out), thinking=thinking)

    def bash(self, command: str, out: str = BIG, *, thinking: str | None = None) -> Talk:
        return self.call(("Bash", {"command": command}, out), thinking=thinking)

    def results(self) -> list[ToolResultBlock]:
        return [b for m in self.messages if isinstance(m, UserMessage)
                for b in m.content if isinstance(b, ToolResultBlock)]

    def uses(self) -> list[ToolUseBlock]:
        return [u for m in self.messages if isinstance(m, AssistantMessage) for u in m.tool_uses]


def assert_every_call_answered(messages: list[Message]) -> None:
    """The API form has each tool_use answered by a real result in the next message."""
    api = normalize_messages_for_api(messages)
    assert validate({"model": "claude-sonnet-4-6", "max_tokens": 100, "messages": api}) == []
    for i, msg in enumerate(api):
        if msg["role"] != "assistant":
            continue
        ids = [b["id"] for b in msg["content"] if b["type"] == "tool_use"]
        answers = {b["tool_use_id"]: b for b in api[i + 1]["content"] if b["type"] == "tool_result"}
        assert list(answers) == ids
        assert all(a["content"] != MISSING_RESULT_TEXT for a in answers.values())


# --- snip_old_results ----------------------------------------------------------------


def test_snip_clears_old_large_results_and_keeps_the_recent_ones() -> None:
    talk = Talk().prompt()
    for i in range(12):
        talk.bash(f"cat log{i}")
    before = copy.deepcopy(talk.uses())

    done = snip_old_results(talk.messages, keep_recent=8)

    contents = [r.content for r in talk.results()]
    assert all(isinstance(c, str) and c.startswith(CLEARED_PREFIX) for c in contents[:4])
    assert contents[4:] == [BIG] * 8
    assert done.cleared == 4
    assert done.saved_tokens == sum(1000 - len(str(c).encode()) // 4 for c in contents[:4])
    assert talk.uses() == before  # the tool_use side is untouched
    assert_every_call_answered(talk.messages)


def test_the_placeholder_names_the_call_so_it_can_be_run_again() -> None:
    talk = Talk().prompt()
    talk.read("/proj/src/app.py", offset=10, limit=50)
    talk.bash("pytest -q tests/")
    talk.call(("Grep", {"pattern": "def main", "path": "/proj/src"}, BIG))
    talk.call(("Glob", {"pattern": "**/*.md"}, BIG))
    talk.call(("mcp__db__query", {"sql": "select 1"}, BIG))

    snip_old_results(talk.messages, keep_recent=0)

    read, bash, grep, glob, mcp = (str(r.content) for r in talk.results())
    assert "/proj/src/app.py" in read and "offset 10" in read and "limit 50" in read
    assert "Read" in read and "save context" in read and "again" in read
    assert "Bash" in bash and "pytest -q tests/" in bash
    assert "Grep" in grep and "def main" in grep and "/proj/src" in grep
    assert "Glob" in glob and "**/*.md" in glob
    assert "mcp__db__query" in mcp


def test_snip_keeps_ids_and_errors_and_skips_small_results() -> None:
    talk = Talk().prompt()
    talk.call(("Bash", {"command": "make"}, BIG), is_error=True)
    talk.bash("echo hi", SMALL)
    talk.bash("ls", [{"type": "text", "text": BIG}])  # type: ignore[arg-type]

    done = snip_old_results(talk.messages, keep_recent=0)

    failed, small, listed = talk.results()
    assert (failed.tool_use_id, failed.is_error) == ("toolu_1", True)
    assert str(failed.content).startswith(CLEARED_PREFIX)
    assert small.content == SMALL
    assert isinstance(listed.content, str) and listed.content.startswith(CLEARED_PREFIX)
    assert done.cleared == 2
    assert_every_call_answered(talk.messages)


def test_snip_twice_clears_nothing_more() -> None:
    talk = Talk().prompt()
    for i in range(10):
        talk.bash(f"cat {i}")
    snip_old_results(talk.messages, keep_recent=2, min_tokens=0)
    assert snip_old_results(talk.messages, keep_recent=2, min_tokens=0) == Trim(0, 0)


def test_a_very_long_command_is_clipped_in_the_placeholder() -> None:
    talk = Talk().prompt().bash("echo " + "a" * 5000)
    snip_old_results(talk.messages, keep_recent=0)
    assert len(str(talk.results()[0].content)) < 400


# --- dedupe_reads --------------------------------------------------------------------


def test_repeated_identical_reads_keep_only_the_newest() -> None:
    talk = Talk().prompt().read("/proj/a.py").read("/proj/b.py").read("a.py").read("/proj/a.py")

    done = dedupe_reads(talk.messages, cwd=CWD)

    first, other, second, third = (r.content for r in talk.results())
    assert str(first).startswith(CLEARED_PREFIX) and str(second).startswith(CLEARED_PREFIX)
    assert "further down" in str(first)
    assert (other, third) == (BIG, BIG)
    assert done.cleared == 2 and done.saved_tokens > 1900
    assert_every_call_answered(talk.messages)


@pytest.mark.parametrize("between", [
    ("Edit", {"file_path": "/proj/a.py", "old_string": "x", "new_string": "y"}),
    ("Write", {"file_path": "a.py", "content": "new"}),
    ("Bash", {"command": "echo unrelated"}),
    ("mcp__fs__write", {"target": "anything"}),
])
def test_a_read_is_kept_when_the_file_may_have_changed_in_between(
        between: tuple[str, dict[str, Any]]) -> None:
    name, inp = between
    talk = Talk().prompt().read("/proj/a.py").call((name, inp, "done")).read("/proj/a.py")
    assert dedupe_reads(talk.messages, cwd=CWD) == Trim(0, 0)
    assert [r.content for r in talk.results()] == [BIG, "done", BIG]


def test_an_edit_of_another_file_or_a_search_does_not_count_as_a_change() -> None:
    talk = (Talk().prompt().read("/proj/a.py")
            .call(("Edit", {"file_path": "/proj/b.py", "old_string": "x", "new_string": "y"}, "ok"))
            .call(("Grep", {"pattern": "x"}, "a.py:1"))
            .read("/proj/a.py"))
    assert dedupe_reads(talk.messages, cwd=CWD).cleared == 1


def test_reads_of_other_lines_or_with_other_output_are_kept() -> None:
    talk = (Talk().prompt()
            .read("/proj/a.py", offset=1, limit=100).read("/proj/a.py", offset=101, limit=100)
            .read("/proj/c.py", "old text " * 500).read("/proj/c.py", "new text " * 500))
    assert dedupe_reads(talk.messages, cwd=CWD) == Trim(0, 0)


def test_a_change_in_the_same_message_as_a_read_splits_it_from_both_sides() -> None:
    read = ("Read", {"file_path": "/proj/a.py"}, BIG)
    edit = ("Edit", {"file_path": "/proj/a.py", "old_string": "x", "new_string": "y"}, "ok")
    talk = Talk().prompt().call(read).call(edit, read).call(read, edit).call(read)
    assert dedupe_reads(talk.messages, cwd=CWD) == Trim(0, 0)


def test_failed_reads_are_not_copies() -> None:
    talk = Talk().prompt()
    talk.call(("Read", {"file_path": "/proj/a.py"}, BIG), is_error=True).read("/proj/a.py")
    assert dedupe_reads(talk.messages, cwd=CWD) == Trim(0, 0)


# --- drop_old_thinking ---------------------------------------------------------------


def thinking_blocks(msg: Message) -> list[ContentBlock]:
    assert isinstance(msg, AssistantMessage)
    return [b for b in msg.content if isinstance(b, ThinkingBlock | RedactedThinkingBlock)]


def test_thinking_of_earlier_turns_goes_and_the_current_turn_keeps_its_own() -> None:
    talk = Talk().prompt("first")
    talk.bash("ls", "a", thinking="plan " * 100).bash("cat a", "b", thinking="more " * 100)
    talk.messages.append(AssistantMessage([RedactedThinkingBlock("opaque" * 50), TextBlock("done")]))
    talk.prompt("note", is_meta=True)  # a reminder is no new turn
    talk.prompt("second")
    talk.bash("ls", "a", thinking="again " * 100).bash("pwd", "b", thinking="now " * 100)

    done = drop_old_thinking(talk.messages)

    assistants = [m for m in talk.messages if isinstance(m, AssistantMessage)]
    assert [len(thinking_blocks(m)) for m in assistants] == [0, 0, 0, 1, 1]
    assert assistants[2].content == [TextBlock("done")]
    assert done.cleared == 3 and done.saved_tokens > 300
    assert_every_call_answered(talk.messages)


def test_tool_results_alone_start_no_new_turn() -> None:
    talk = Talk().prompt().bash("ls", "a", thinking="t1").bash("pwd", "b", thinking="t2")
    assert drop_old_thinking(talk.messages) == Trim(0, 0)


def test_an_assistant_message_of_only_thinking_is_left_whole() -> None:
    talk = Talk().prompt("first")
    talk.messages.append(AssistantMessage([ThinkingBlock("hmm", "sig")]))
    talk.prompt("second").bash("ls", "a")
    assert drop_old_thinking(talk.messages) == Trim(0, 0)
    assert all(m.content for m in talk.messages if isinstance(m, AssistantMessage))


def test_the_last_assistant_message_keeps_its_thinking_even_after_a_prompt() -> None:
    # A prompt typed while a call ran joins the results: the call's thinking must stay.
    talk = Talk().prompt("first").bash("ls", "a", thinking="old").bash("make", "b", thinking="last")
    talk.prompt("also check the docs")
    drop_old_thinking(talk.messages)
    assistants = [m for m in talk.messages if isinstance(m, AssistantMessage)]
    assert [len(thinking_blocks(m)) for m in assistants] == [0, 1]


# --- worth_trimming ------------------------------------------------------------------


@pytest.mark.parametrize(("saved", "context", "since", "expected"), [
    (1_000, 100_000, 10.0, False),  # warm cache, small saving
    (1_000, 100_000, 300.0, True),  # the cache has expired
    (1_000, 100_000, None, True),  # unknown: a fresh or resumed session
    (25_000, 100_000, 10.0, True),  # a quarter of the context
    (24_999, 100_000, 10.0, False),
    (LARGE_SAVING_TOKENS, 900_000, 10.0, True),  # large in absolute terms
    (LARGE_SAVING_TOKENS - 1, 900_000, 10.0, False),
    (0, 100_000, None, False),  # nothing to gain
])
def test_policy(saved: int, context: int, since: float | None, expected: bool) -> None:
    assert worth_trimming(saved_tokens=saved, context_tokens=context,
                          seconds_since_last_response=since) is expected


def test_policy_honours_a_custom_ttl() -> None:
    assert worth_trimming(saved_tokens=10, context_tokens=1_000_000,
                          seconds_since_last_response=90.0, cache_ttl_s=60.0)


# --- trim ----------------------------------------------------------------------------


def long_talk() -> Talk:
    talk = Talk().prompt("first")
    for i in range(6):
        talk.read("/proj/a.py", thinking="think " * 50)
        talk.call(("Grep", {"pattern": f"p{i}"}, BIG), thinking="think " * 50)
    talk.prompt("second")
    for i in range(10):
        talk.bash(f"cat {i}", thinking="t")
    return talk


def test_trim_with_a_warm_cache_and_a_small_saving_changes_nothing() -> None:
    talk = long_talk()
    before = copy.deepcopy(talk.messages)
    done = trim(talk.messages, cwd=CWD, context_tokens=10_000_000, seconds_since_last_response=5)
    assert done == Trim(0, 0)
    assert talk.messages == before


def test_trim_with_a_cold_cache_applies_all_three_and_counts_each_block_once() -> None:
    talk = long_talk()
    expected = copy.deepcopy(talk.messages)
    dedupe = dedupe_reads(expected, cwd=CWD)
    snip = snip_old_results(expected)
    thinking = drop_old_thinking(expected)

    done = trim(talk.messages, cwd=CWD, context_tokens=30_000, seconds_since_last_response=None)

    assert dedupe.cleared == 5 and snip.cleared > 0 and thinking.cleared == 12
    assert done.cleared == dedupe.cleared + snip.cleared + thinking.cleared
    assert done.saved_tokens == dedupe.saved_tokens + snip.saved_tokens + thinking.saved_tokens
    assert talk.messages == expected
    assert_every_call_answered(talk.messages)


def test_trim_with_a_warm_cache_and_a_large_saving_applies() -> None:
    talk = long_talk()
    done = trim(talk.messages, cwd=CWD, context_tokens=20_000, seconds_since_last_response=5)
    assert done.saved_tokens >= 5_000
    again = trim(talk.messages, cwd=CWD, context_tokens=20_000, seconds_since_last_response=None)
    assert again == Trim(0, 0)
