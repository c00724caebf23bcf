"""Answers that end oddly: a refusal, an empty message. Handled, never swallowed."""

from __future__ import annotations

from pathlib import Path

from cc.core.events import AssistantEvent, Notice
from cc.core.query_loop import NUDGE_AFTER_EMPTY, REFUSAL_NOTE
from cc.models.messages import normalize_messages_for_api
from cc.prompts import load_text
from cc.tools.bash import BashTool
from tests.core.engines import collect, make_engine, terminal
from tests.fakeapi import FakeAPI, Reply, text, tool_use


def last_user_text(body: dict) -> str:
    return body["messages"][-1]["content"][-1]["text"]


async def test_a_refusal_is_noted_once_and_the_model_goes_on(
    fake_api: FakeAPI, tmp_path: Path
) -> None:
    marker = tmp_path / "made"
    fake_api.script(
        Reply([text("I can't help with that."), tool_use("Bash", {"command": f"touch {marker}"})],
              stop_reason="refusal"),
        Reply("Here is the part I can do."),
    )
    engine = make_engine(fake_api, tmp_path, BashTool())
    events = await collect(engine.submit("do the thing"))
    end = terminal(events)
    assert end.ok and end.summary.safety_stops == 1
    assert not marker.exists()
    second = fake_api.bodies[1]["messages"]
    assert second[1] == {"role": "assistant",
                         "content": [{"type": "text", "text": "I can't help with that."}]}
    assert last_user_text(fake_api.bodies[1]) == load_text(REFUSAL_NOTE).strip()
    assert any(isinstance(e, Notice) and "safeguards" in e.text for e in events)
    fake_api.assert_clean()


async def test_two_refusals_in_a_row_end_the_turn_as_an_error(
    fake_api: FakeAPI, tmp_path: Path
) -> None:
    fake_api.script(Reply("No.", stop_reason="refusal"), Reply("Still no.", stop_reason="refusal"),
                    Reply("a later question is fine"))
    engine = make_engine(fake_api, tmp_path)
    events = await collect(engine.submit("do the thing"))
    end = terminal(events)
    assert (end.reason, end.stop_reason, end.error_kind) == ("api_error", "refusal", "refusal")
    assert not end.ok and end.error and "refusal" in end.error
    assert end.summary.safety_stops == 2
    assert len(fake_api.bodies) == 2
    # What it said is kept, and the conversation goes on from there.
    shown = [e.message.text for e in events if isinstance(e, AssistantEvent)]
    assert shown == ["No.", "Still no."]
    await collect(engine.submit("something else"))
    assert normalize_messages_for_api(engine.messages)[-1]["role"] == "assistant"
    fake_api.assert_clean()


async def test_an_empty_answer_gets_one_nudge(fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.script(Reply([]), Reply("the real answer"))
    engine = make_engine(fake_api, tmp_path)
    events = await collect(engine.submit("hi"))
    assert terminal(events).ok and engine.messages[-1].text == "the real answer"
    first, second = fake_api.bodies
    assert last_user_text(second) == load_text(NUDGE_AFTER_EMPTY).strip()
    assert len(second["messages"]) == 1  # the empty reply is not sent back; the nudge joins
    assert terminal(events).summary.num_turns == 1  # the nudge is not a turn
    fake_api.assert_clean()


async def test_a_second_empty_answer_ends_the_turn_quietly(
    fake_api: FakeAPI, tmp_path: Path
) -> None:
    fake_api.script(Reply([]), Reply([text("  \n")]), Reply("next turn"))
    engine = make_engine(fake_api, tmp_path)
    events = await collect(engine.submit("hi"))
    end = terminal(events)
    assert end.ok and len(fake_api.bodies) == 2
    await collect(engine.submit("again"))
    assert engine.messages[-1].text == "next turn"  # the conversation is still valid
    fake_api.assert_clean()
