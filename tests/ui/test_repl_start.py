"""The REPL's prompt is up before its session: what is typed meanwhile is kept, and takes
effect once the session opens."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from cc.commands.context import Services
from cc.core.credentials import Credentials
from cc.ui.repl import Dialogs, Opened, Screen, run_repl
from tests.fakeapi import FakeAPI, Reply
from tests.sessions import make_session
from tests.waiting import wait_for_async

SHIFT_TAB, CTRL_D = "\x1b[Z", "\x04"


async def test_what_is_typed_while_the_session_opens_goes_out_once_it_is_open(
    tmp_path: Path, fake_api: FakeAPI
) -> None:
    fake_api.script(Reply("Hello from the model"))
    session = make_session(tmp_path, tmp_path / "config", argv=[],
                           credentials=Credentials(api_key="k", base_url=fake_api.base_url))
    may_open, opened = asyncio.Event(), asyncio.Event()

    async def opening() -> Opened:
        await may_open.wait()
        notes = await session.open()
        opened.set()
        return Opened(session, Services(), list(notes))

    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        screen = Screen(session.facts, Dialogs(tmp_path))
        repl = asyncio.create_task(run_repl(screen, opening))
        await wait_for_async(lambda: screen.session is not None and screen.session.app.is_running)
        keys.send_text(SHIFT_TAB + "/co")
        keys.send_text("st\r" + "say hello\r")
        await wait_for_async(lambda: screen.live.queued == ["/cost", "say hello"],
                             what="both inputs queued")
        assert screen.mode == "default"  # no mode to cycle yet
        assert not fake_api.requests and not opened.is_set()

        may_open.set()
        await wait_for_async(lambda: len(fake_api.requests) == 1, what="the queued prompt sent")
        await wait_for_async(lambda: not screen.live.queued and not screen.busy)
        assert session.engine.permission_mode == "acceptEdits"  # Shift+Tab, once
        assert screen.mode == "acceptEdits"
        last = fake_api.bodies[-1]["messages"][-1]["content"]
        assert any(b.get("text") == "say hello" for b in last if isinstance(b, dict))
        history = [json.loads(line) for line in
                   (tmp_path / "config" / "history.jsonl").read_text().splitlines()]
        assert [(h["display"], h["sessionId"]) for h in history] == [
            ("/cost", session.engine.session_id), ("say hello", session.engine.session_id)]

        keys.send_text(CTRL_D)
        assert await asyncio.wait_for(repl, 30) == 0
    fake_api.assert_clean()


async def test_leaving_before_the_session_opens_closes_nothing_it_did_not_open(
    tmp_path: Path, fake_api: FakeAPI
) -> None:
    session = make_session(tmp_path, tmp_path / "config", argv=[],
                           credentials=Credentials(api_key="k", base_url=fake_api.base_url))
    started, cancelled = asyncio.Event(), asyncio.Event()

    async def opening() -> Opened:
        started.set()
        try:
            await asyncio.Event().wait()  # never opens
        except asyncio.CancelledError:
            cancelled.set()
            raise
        raise AssertionError("unreachable")

    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        screen = Screen(session.facts, Dialogs(tmp_path))
        repl = asyncio.create_task(run_repl(screen, opening))
        await asyncio.wait_for(started.wait(), 30)
        keys.send_text(CTRL_D)
        assert await asyncio.wait_for(repl, 30) == 0
    assert cancelled.is_set() and not fake_api.requests


async def test_a_session_that_fails_to_open_is_said_and_the_repl_ends_with_1(
    tmp_path: Path, fake_api: FakeAPI, capsys: pytest.CaptureFixture[str]
) -> None:
    session = make_session(tmp_path, tmp_path / "config", argv=[],
                           credentials=Credentials(api_key="k", base_url=fake_api.base_url))

    async def opening() -> Opened:
        raise OSError("the disk is gone")

    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        screen = Screen(session.facts, Dialogs(tmp_path))
        assert await asyncio.wait_for(run_repl(screen, opening), 30) == 1
    shown = capsys.readouterr().out
    assert "cwd:" in shown  # the banner, then
    assert "The session could not start: OSError: the disk is gone" in shown
