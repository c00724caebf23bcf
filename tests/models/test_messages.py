"""normalize_messages_for_api(): any conversation in, a request the API accepts out."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from cc.models.content_blocks import TextBlock, ThinkingBlock, ToolResultBlock, ToolUseBlock
from cc.models.messages import (
    AssistantMessage,
    CompactBoundaryMessage,
    Message,
    SystemMessage,
    UserMessage,
    normalize_messages_for_api,
)
from tests.fakeapi import validate

MISSING = "[Tool result missing due to internal error]"


def user(text: str) -> UserMessage:
    return UserMessage.text(text)


def results(*ids: str, content: str = "ok") -> UserMessage:
    return UserMessage([ToolResultBlock(i, f"{content}:{i}") for i in ids])


def asst(text: str | None = None, *tool_ids: str) -> AssistantMessage:
    blocks: list[Any] = [TextBlock(text)] if text else []
    blocks += [ToolUseBlock(i, "Bash", {"command": f"echo {i}"}) for i in tool_ids]
    return AssistantMessage(blocks)


def t(s: str) -> dict[str, Any]:
    return {"type": "text", "text": s}


def res(tid: str, content: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": tid, "content": content}


def missing(tid: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": tid, "content": MISSING, "is_error": True}


def tu(tid: str) -> dict[str, Any]:
    return {"type": "tool_use", "id": tid, "name": "Bash", "input": {"command": f"echo {tid}"}}


def api_problems(messages: list[dict[str, Any]]) -> list[str]:
    return validate({"model": "claude-sonnet-4-6", "max_tokens": 100, "messages": messages})


# --- the simple cases ------------------------------------------------------------------


def test_well_formed_conversation_passes_through_unchanged() -> None:
    msgs: list[Message] = [user("hi"), asst("Looking.", "t1"), results("t1"), asst("Done.")]
    out = normalize_messages_for_api(msgs)
    assert out == [
        {"role": "user", "content": [t("hi")]},
        {"role": "assistant", "content": [t("Looking."), tu("t1")]},
        {"role": "user", "content": [res("t1", "ok:t1")]},
        {"role": "assistant", "content": [t("Done.")]},
    ]
    assert api_problems(out) == []


def test_results_after_text_in_their_own_message_are_moved_first() -> None:
    """Alternating and all answered, but out of order: not passed through as it is."""
    msgs: list[Message] = [user("go"), asst(None, "a", "b"),
                           UserMessage([TextBlock("note"), ToolResultBlock("b", "ok:b"),
                                        ToolResultBlock("a", "ok:a")])]
    out = normalize_messages_for_api(msgs)
    assert [b["type"] for b in out[-1]["content"]] == ["tool_result", "tool_result", "text"]
    validate({"model": "m", "max_tokens": 1, "messages": out})


def test_consecutive_users_merge_with_tool_results_first() -> None:
    msgs: list[Message] = [
        user("do it"),
        asst(None, "t1", "t2"),
        user("also, hurry"),  # typed while tools ran
        results("t1"),
        results("t2"),
    ]
    out = normalize_messages_for_api(msgs)
    assert out == [
        {"role": "user", "content": [t("do it")]},
        {"role": "assistant", "content": [tu("t1"), tu("t2")]},
        {"role": "user", "content": [res("t1", "ok:t1"), res("t2", "ok:t2"), t("also, hurry")]},
    ]
    assert api_problems(out) == []


def test_plain_consecutive_users_merge_in_order() -> None:
    out = normalize_messages_for_api([user("one"), user("two"), user("three")])
    assert out == [{"role": "user", "content": [t("one"), t("two"), t("three")]}]


def test_two_assistants_get_continue_between() -> None:
    out = normalize_messages_for_api([user("hi"), asst("a"), asst("b")])
    assert out == [
        {"role": "user", "content": [t("hi")]},
        {"role": "assistant", "content": [t("a")]},
        {"role": "user", "content": [t("Continue.")]},
        {"role": "assistant", "content": [t("b")]},
    ]


def test_leading_assistant_gets_begin_first() -> None:
    out = normalize_messages_for_api([asst("I start"), user("ok")])
    assert out == [
        {"role": "user", "content": [t("Begin.")]},
        {"role": "assistant", "content": [t("I start")]},
        {"role": "user", "content": [t("ok")]},
    ]


# --- missing tool results --------------------------------------------------------------


def test_interrupted_turn_then_new_prompt_gets_synthetic_result_before_text() -> None:
    out = normalize_messages_for_api([user("go"), asst("Running.", "t1"), user("stop, do this instead")])
    assert out[2] == {"role": "user", "content": [missing("t1"), t("stop, do this instead")]}
    assert len(out) == 3
    assert api_problems(out) == []


def test_assistant_with_tool_use_last_gets_synthetic_results() -> None:
    out = normalize_messages_for_api([user("go"), asst(None, "t1", "t2")])
    assert out[-1] == {"role": "user", "content": [missing("t1"), missing("t2")]}
    assert len(out) == 3
    assert api_problems(out) == []


def test_assistant_followed_by_assistant_gets_synthetic_results_not_continue() -> None:
    out = normalize_messages_for_api([user("go"), asst(None, "t1"), asst("next")])
    assert out == [
        {"role": "user", "content": [t("go")]},
        {"role": "assistant", "content": [tu("t1")]},
        {"role": "user", "content": [missing("t1")]},
        {"role": "assistant", "content": [t("next")]},
    ]


def test_partially_answered_tool_uses_get_the_rest_filled_in_call_order() -> None:
    out = normalize_messages_for_api([user("go"), asst(None, "t1", "t2", "t3"), results("t2")])
    # the real answer is kept, not replaced; the missing ones are filled in call order
    assert out[2]["content"] == [missing("t1"), missing("t3"), res("t2", "ok:t2")]
    assert api_problems(out) == []


# --- orphans and duplicates ------------------------------------------------------------


def test_orphan_tool_result_is_dropped_and_the_rest_kept() -> None:
    msgs: list[Message] = [
        user("go"),
        asst(None, "t1"),
        UserMessage([ToolResultBlock("t1", "real"), ToolResultBlock("ghost", "lost"), TextBlock("note")]),
    ]
    out = normalize_messages_for_api(msgs)
    assert out[2] == {"role": "user", "content": [res("t1", "real"), t("note")]}


def test_user_message_emptied_by_dropping_orphans_is_removed_keeping_alternation() -> None:
    msgs: list[Message] = [user("hi"), asst("a"), results("ghost"), asst("b"), user("bye")]
    out = normalize_messages_for_api(msgs)
    assert out == [
        {"role": "user", "content": [t("hi")]},
        {"role": "assistant", "content": [t("a")]},
        {"role": "user", "content": [t("Continue.")]},
        {"role": "assistant", "content": [t("b")]},
        {"role": "user", "content": [t("bye")]},
    ]
    assert api_problems(out) == []


def test_leading_orphan_only_user_is_removed_and_begin_inserted() -> None:
    out = normalize_messages_for_api([results("ghost"), asst("a")])
    assert out == [{"role": "user", "content": [t("Begin.")]}, {"role": "assistant", "content": [t("a")]}]


def test_result_answering_an_earlier_assistant_is_an_orphan() -> None:
    msgs: list[Message] = [user("go"), asst(None, "t1"), user("interrupt"), asst("ok"), results("t1")]
    out = normalize_messages_for_api(msgs)
    assert out[2] == {"role": "user", "content": [missing("t1"), t("interrupt")]}
    assert out[3] == {"role": "assistant", "content": [t("ok")]}
    assert len(out) == 4  # the late result answered nothing: dropped, and its message with it
    assert api_problems(out) == []


def test_duplicate_results_for_one_id_keep_the_first() -> None:
    msgs: list[Message] = [
        user("go"),
        asst(None, "t1"),
        UserMessage([ToolResultBlock("t1", "first")]),
        UserMessage([ToolResultBlock("t1", "second")]),
    ]
    out = normalize_messages_for_api(msgs)
    assert out[2] == {"role": "user", "content": [res("t1", "first")]}
    assert api_problems(out) == []


# --- message kinds ---------------------------------------------------------------------


def test_system_message_is_never_sent() -> None:
    msgs: list[Message] = [SystemMessage("Compacting…"), user("hi"), SystemMessage("note", level="warning"),
                           asst("hello")]
    out = normalize_messages_for_api(msgs)
    assert out == [{"role": "user", "content": [t("hi")]}, {"role": "assistant", "content": [t("hello")]}]
    assert "Compacting" not in repr(out) and "note" not in repr(out)


def test_system_message_between_assistants_does_not_hide_the_gap() -> None:
    out = normalize_messages_for_api([user("hi"), asst("a"), SystemMessage("x"), asst("b")])
    assert [m["role"] for m in out] == ["user", "assistant", "user", "assistant"]
    assert out[2] == {"role": "user", "content": [t("Continue.")]}


def test_compact_boundary_is_sent_as_user_text() -> None:
    summary = "Summary of the earlier conversation: the user asked for X."
    out = normalize_messages_for_api([CompactBoundaryMessage(summary), asst("Carrying on."), user("thanks")])
    assert out[0] == {"role": "user", "content": [t(summary)]}
    assert [m["role"] for m in out] == ["user", "assistant", "user"]


def test_compact_boundary_followed_by_user_merges() -> None:
    out = normalize_messages_for_api([CompactBoundaryMessage("S"), user("next")])
    assert out == [{"role": "user", "content": [t("S"), t("next")]}]


def test_empty_assistant_is_dropped() -> None:
    out = normalize_messages_for_api([user("a"), AssistantMessage([]), user("b")])
    assert out == [{"role": "user", "content": [t("a"), t("b")]}]


def test_thinking_blocks_are_kept_with_signature() -> None:
    msg = AssistantMessage([ThinkingBlock("hmm", "sig=="), TextBlock("x")])
    out = normalize_messages_for_api([user("q"), msg])
    assert out[1]["content"][0] == {"type": "thinking", "thinking": "hmm", "signature": "sig=="}


def test_input_messages_are_not_mutated() -> None:
    msgs: list[Message] = [user("go"), asst(None, "t1"), user("x"), results("ghost"), asst("a"), asst("b")]
    before = copy.deepcopy(msgs)
    normalize_messages_for_api(msgs)
    assert msgs == before


def test_empty_list_stays_empty() -> None:
    assert normalize_messages_for_api([]) == []


# --- property: random conversations always come out valid -------------------------------


def random_conversation(rng: random.Random) -> list[Message]:
    msgs: list[Message] = []
    issued: list[str] = []  # every tool_use id so far
    last_ids: list[str] = []  # ids of the latest assistant message
    counter = 0
    for _ in range(rng.randint(0, 14)):
        kind = rng.choice(["user", "user", "asst", "asst_tools", "asst_tools", "results", "results",
                           "system", "boundary", "empty_asst"])
        if kind == "user":
            msgs.append(user(f"u{rng.randint(0, 99)}"))
        elif kind == "asst":
            msgs.append(asst(f"a{rng.randint(0, 99)}"))
        elif kind == "asst_tools":
            ids = []
            for _ in range(rng.randint(1, 3)):
                counter += 1
                ids.append(f"toolu_{counter}")
            issued += ids
            last_ids = ids
            msgs.append(asst(rng.choice([None, "calling"]), *ids))
        elif kind == "results":
            pool = last_ids + issued + [f"ghost_{rng.randint(0, 9)}"]
            chosen = [rng.choice(pool) for _ in range(rng.randint(1, 4))]
            blocks: list[Any] = [ToolResultBlock(i, f"r{i}", is_error=rng.random() < 0.2) for i in chosen]
            if rng.random() < 0.3:
                blocks.insert(rng.randint(0, len(blocks)), TextBlock("and also"))
            msgs.append(UserMessage(blocks))
        elif kind == "system":
            msgs.append(SystemMessage("notice"))
        elif kind == "boundary":
            msgs.append(CompactBoundaryMessage("summary so far"))
        else:
            msgs.append(AssistantMessage([]))
    return msgs


def check_invariants(out: list[dict[str, Any]]) -> None:
    if not out:
        return
    assert out[0]["role"] == "user"
    for i, msg in enumerate(out):
        assert msg["role"] == ("user" if i % 2 == 0 else "assistant"), f"alternation broken at {i}"
        assert msg["content"], f"empty content at {i}"
    for i, msg in enumerate(out):
        if msg["role"] != "assistant":
            continue
        uses = [b["id"] for b in msg["content"] if b["type"] == "tool_use"]
        if not uses:
            continue
        assert i + 1 < len(out), "tool_use not answered: nothing follows"
        answered = [b["tool_use_id"] for b in out[i + 1]["content"] if b["type"] == "tool_result"]
        assert sorted(answered) == sorted(uses)
    for i, msg in enumerate(out):
        if msg["role"] != "user":
            continue
        prev = out[i - 1]["content"] if i > 0 else []
        uses = {b["id"] for b in prev if b["type"] == "tool_use"}
        results_ = [b for b in msg["content"] if b["type"] == "tool_result"]
        assert all(b["tool_use_id"] in uses for b in results_), "orphan tool_result"
        kinds = [b["type"] for b in msg["content"]]
        assert kinds[: len(results_)] == ["tool_result"] * len(results_), "results not first"


@pytest.mark.parametrize("seed", range(400))
def test_random_conversations_always_normalize_to_a_valid_request(seed: int) -> None:
    rng = random.Random(seed)
    msgs = random_conversation(rng)
    before = copy.deepcopy(msgs)
    out = normalize_messages_for_api(msgs)
    check_invariants(out)
    if out:
        assert api_problems(out) == []
    assert msgs == before


def test_random_conversations_exercise_every_repair() -> None:
    """The generator above really produces the broken shapes the property is about."""
    seen = {"missing": 0, "orphan": 0, "continue": 0, "begin": 0, "merged": 0}
    for seed in range(400):
        msgs = random_conversation(random.Random(seed))
        out = normalize_messages_for_api(msgs)
        text = repr(out)
        seen["missing"] += MISSING in text
        seen["orphan"] += "ghost_" in repr(msgs) and "ghost_" not in text
        seen["continue"] += "'Continue.'" in text
        seen["begin"] += "'Begin.'" in text
        seen["merged"] += len(out) < len([m for m in msgs if not isinstance(m, SystemMessage)])
    assert all(n >= 20 for n in seen.values()), seen


def test_property_checker_rejects_broken_output() -> None:
    """The invariants above are real: raw, unrepaired conversations violate them."""
    bad = [
        [{"role": "assistant", "content": [t("a")]}],
        [{"role": "user", "content": [t("a")]}, {"role": "user", "content": [t("b")]}],
        [{"role": "user", "content": [t("a")]}, {"role": "assistant", "content": [tu("x")]}],
        [{"role": "user", "content": [res("ghost", "r")]}],
        [{"role": "user", "content": []}],
    ]
    for out in bad:
        with pytest.raises(AssertionError):
            check_invariants(out)
    # the fake API's validator agrees on all but the trailing unanswered tool_use, which it
    # cannot judge (a request may end on an assistant prefill)
    assert all(api_problems(out) for i, out in enumerate(bad) if i != 2)
