"""The structured answer in the loop, in process: what ends the turn and what counts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cc.core.events import UserEvent
from cc.tools.structured_output import StructuredOutputTool
from tests.core.engines import collect, make_engine, terminal
from tests.fakeapi import FakeAPI, Reply, tool_use

SCHEMA: dict[str, Any] = {"type": "object", "properties": {"n": {"type": "integer"}},
                          "required": ["n"]}


def call(n: Any) -> dict[str, Any]:
    return tool_use("StructuredOutput", {"n": n})


async def test_a_miss_and_a_conforming_call_in_one_message_end_the_turn(
    fake_api: FakeAPI, tmp_path: Path
) -> None:
    fake_api.script(Reply([call("one"), call(1)]))
    engine = make_engine(fake_api, tmp_path, StructuredOutputTool(SCHEMA), structured_output=1)
    events = await collect(engine.submit("count"))
    end = terminal(events)
    assert (end.reason, end.structured_output, end.stop_reason) == ("completed", {"n": 1},
                                                                    "tool_use")
    assert end.summary is not None and end.summary.num_turns == 2
    assert len(fake_api.bodies) == 1
    fake_api.assert_clean()


async def test_a_limit_of_zero_ends_at_the_first_miss_and_each_turn_starts_afresh(
    fake_api: FakeAPI, tmp_path: Path
) -> None:
    fake_api.script(Reply([call("one")]), Reply("plain"), Reply("plain again"))
    engine = make_engine(fake_api, tmp_path, StructuredOutputTool(SCHEMA), structured_output=0)
    end = terminal(await collect(engine.submit("count")))
    assert end.reason == "structured_output_retry_exhausted" and end.structured_output is None
    assert end.error is not None and "at /n: 'one' is not of type 'integer'" in end.error
    # The next turn asks for the call again, once.
    events = await collect(engine.submit("count again"))
    asked = [e for e in events if isinstance(e, UserEvent) and e.synthetic]
    assert len(asked) == 1 and asked[0].message.is_meta
    assert terminal(events).reason == "completed" and terminal(events).structured_output is None
    fake_api.assert_clean()


async def test_without_structured_output_a_text_answer_just_ends(
    fake_api: FakeAPI, tmp_path: Path
) -> None:
    fake_api.script(Reply("plain"))
    engine = make_engine(fake_api, tmp_path, StructuredOutputTool(SCHEMA))
    events = await collect(engine.submit("count"))
    assert not any(isinstance(e, UserEvent) and e.synthetic for e in events)
    assert terminal(events).reason == "completed"
    fake_api.assert_clean()
