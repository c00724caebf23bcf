"""--resume-session-at cuts a transcript at a line; --resume-drops-turn refuses a cut that
would drop more than the declared turn."""

from __future__ import annotations

import json

import pytest

from cc.errors import UsageError
from cc.session.chain import parse_lines
from cc.session.loader import validate_transcript
from cc.session.resume_at import REFUSED, check_dropped_turn


def line(uuid: str, parent: str | None, kind: str, content: object, **extra: object) -> str:
    role = "assistant" if kind == "assistant" else "user"
    message: dict = {"role": role, "content": content}
    if kind == "assistant":
        message |= {"id": f"msg_{uuid}", "type": "message", "model": "m",
                    "stop_reason": "end_turn"}
    return json.dumps({"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": "s",
                       "message": message, **extra})


def result(tool_id: str) -> list[dict]:
    return [{"type": "tool_result", "tool_use_id": tool_id, "content": "ok"}]


def call(tool_id: str) -> list[dict]:
    return [{"type": "tool_use", "id": tool_id, "name": "Read", "input": {}}]


TURN_ONE = [line("u1", None, "user", "first"),
            line("a1", "u1", "assistant", [{"type": "text", "text": "one"}])]
TURN_TWO = [line("u2", "a1", "user", "second"),
            line("a2", "u2", "assistant", call("t1")),
            line("r1", "a2", "user", result("t1")),
            line("m1", "r1", "user", "<system-reminder>a note</system-reminder>", isMeta=True),
            line("a3", "m1", "assistant", [{"type": "text", "text": "two"}])]


def test_the_conversation_as_it_stood_at_a_line() -> None:
    loaded = validate_transcript([*TURN_ONE, *TURN_TWO], at="a1")
    assert [m.uuid for m in loaded.messages] == ["u1", "a1"] and loaded.last_uuid == "a1"
    with pytest.raises(UsageError, match="no message nope"):
        validate_transcript(TURN_ONE, at="nope")


def test_a_cut_that_drops_exactly_the_declared_turn_is_allowed() -> None:
    entries, _ = parse_lines([*TURN_ONE, *TURN_TWO])
    check_dropped_turn(entries, "a1", "u2")
    check_dropped_turn(entries, "a3", "u9")  # nothing dropped, nothing to lose


@pytest.mark.parametrize(("extra", "why"), [
    ([line("u3", "a3", "user", "third")], "a prompt of its own"),
    ([line("n1", "a3", "user", "<task-notification>done</task-notification>", isMeta=True)],
     "notification"),
])
def test_a_cut_that_drops_more_than_the_turn_is_refused(extra: list[str], why: str) -> None:
    entries, _ = parse_lines([*TURN_ONE, *TURN_TWO, *extra])
    with pytest.raises(UsageError) as refused:
        check_dropped_turn(entries, "a1", "u2")
    assert str(refused.value).startswith(REFUSED) and why in str(refused.value)


def test_a_cut_whose_first_dropped_line_is_not_the_declared_prompt_is_refused() -> None:
    entries, _ = parse_lines([*TURN_ONE, *TURN_TWO])
    with pytest.raises(UsageError, match="not the prompt of turn a1"):
        check_dropped_turn(entries, "a1", "a1")
