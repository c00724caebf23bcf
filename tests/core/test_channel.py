"""What the core asks a person goes through the engine's channel, and shows as events."""

from __future__ import annotations

from pathlib import Path

from cc.core.events import PermissionAnswered, PermissionAsked, ToolDone
from cc.permissions.ask import AskAnswer, AskingChannel, PermissionRequest
from cc.permissions.gate import ModeGate
from cc.tools.write import WriteTool
from tests.core.engines import collect, make_engine, terminal
from tests.fakeapi import FakeAPI, Reply, tool_use


async def test_an_ask_and_its_answer_are_events(fake_api: FakeAPI, tmp_path: Path) -> None:
    target = tmp_path / "note.txt"
    fake_api.script(Reply([tool_use("Write", {"file_path": str(target), "content": "hi"})]),
                    Reply("written"))
    engine = make_engine(fake_api, tmp_path, WriteTool())
    engine.executor.permissions = ModeGate("default")
    asked: list[PermissionRequest] = []

    async def yes(request: PermissionRequest) -> AskAnswer:
        asked.append(request)
        return AskAnswer("allow")

    engine.use_channel(AskingChannel(yes))
    events = await collect(engine.submit("write it"))
    kinds = [type(e).__name__ for e in events if isinstance(e, (PermissionAsked,
                                                                PermissionAnswered, ToolDone))]
    assert kinds == ["PermissionAsked", "PermissionAnswered", "ToolDone"]
    answered = next(e for e in events if isinstance(e, PermissionAnswered))
    assert answered.request is asked[0] and answered.answer.behavior == "allow"
    assert target.read_text() == "hi" and terminal(events).ok


async def test_nobody_to_ask_denies_without_asking(fake_api: FakeAPI, tmp_path: Path) -> None:
    target = tmp_path / "note.txt"
    fake_api.script(Reply([tool_use("Write", {"file_path": str(target), "content": "hi"})]),
                    Reply("could not"))
    engine = make_engine(fake_api, tmp_path, WriteTool())
    engine.executor.permissions = ModeGate("default")
    assert not engine.channel.present
    events = await collect(engine.submit("write it"))
    assert not [e for e in events if isinstance(e, PermissionAsked)]
    done = next(e for e in events if isinstance(e, ToolDone))
    assert done.result.is_error and not target.exists()
