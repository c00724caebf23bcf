"""Background memory extraction against the fake API: only turns worth keeping are
looked at, several in one look, when the session sits idle or ends; the look reads the
main request's cache prefix, is confined to the memory folder and secret-checked; print
mode neither extracts nor waits."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import threading
from pathlib import Path
from typing import Any

from cc.app.session import Session
from cc.core.credentials import Credentials
from cc.session.paths import project_dir
from tests.cache_prefix import extends
from tests.conftest import Project
from tests.fakeapi import FakeAPI, Recorded, Reply, Route, tool_use
from tests.sessions import make_session
from tests.waiting import wait_for_async

#: In every extraction request (the start of cc/prompts/memory/extract.md).
KEEPER = "it comes from the memory keeper"
NOTE = """---
name: deploys-on-fridays
description: The team deploys on Fridays only
type: project
---
Deploys happen on Fridays (said on 2026-12-01).
"""
INDEX_LINE = "- [deploys-on-fridays](deploys-on-fridays.md) - deploys on Fridays only\n"


def keeper_route(api: FakeAPI, *turns: Any) -> Route:
    return api.route(lambda body: KEEPER in json.dumps(body["messages"]), *turns,
                     name="keeper")


def main_requests(api: FakeAPI) -> list[Recorded]:
    return [r for r in api.requests if r.path == "/v1/messages" and r.route != "keeper"]


def folder_of(project: Project) -> Path:
    return project_dir(project.root, project.config) / "memory"


def saving(folder: Path) -> Reply:
    """The keeper's reply that writes the memory and the index in one batch."""
    return Reply([tool_use("Write", {"file_path": str(folder / "deploys-on-fridays.md"),
                                     "content": NOTE}),
                  tool_use("Write", {"file_path": str(folder / "MEMORY.md"),
                                     "content": INDEX_LINE})])


async def opened_session(tmp_path: Path, fake_api: FakeAPI, *,
                         idle: float = 3600.0) -> Session:
    """An interactive session whose main agent is built, its memory extraction on (it
    waits `idle` seconds of idleness before a look)."""
    cwd, config = tmp_path / "project", tmp_path / "config"
    cwd.mkdir()
    config.mkdir()
    session = make_session(cwd, config,
                           credentials=Credentials(api_key="test-key", base_url=fake_api.base_url))
    session = make_session(cwd, config, credentials=session.credentials,
                           options=dataclasses.replace(session.options, interactive=True))
    await session.open()
    assert session.extractor is not None
    session.extractor.idle_seconds = idle
    return session


async def turns(session: Session, *prompts: str) -> None:
    for prompt in prompts:
        async for _ in session.engine.submit(prompt):
            pass


def test_print_mode_neither_extracts_nor_waits(project: Project) -> None:
    """As Claude Code does: the result is written and the process ends; no request of the
    keeper's, even for a turn worth keeping."""
    project.env["CC_DISABLE_MEMORY_EXTRACTION"] = "0"
    api = project.api
    api.script(Reply("Noted: Friday deploys."))
    keeper = keeper_route(api, Reply("Nothing to save."))
    run = project.run("-p", "we only deploy on Fridays", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    assert run.json()["result"] == "Noted: Friday deploys."
    assert keeper.requests == [] and len(api.bodies) == 1
    assert not folder_of(project).exists() or not list(folder_of(project).glob("*.md"))


async def test_the_end_of_a_session_looks_at_a_turn_worth_keeping(
    tmp_path: Path, fake_api: FakeAPI
) -> None:
    session = await opened_session(tmp_path, fake_api)
    folder, coordinator = session.memory_dir, session.extractor
    assert folder is not None and coordinator is not None
    outside = session.cwd / "stolen.md"
    fake_api.script(Reply("Noted: Friday deploys."))
    keeper = keeper_route(
        fake_api,
        Reply([tool_use("Bash", {"command": f"touch {outside}"}),
               tool_use("Write", {"file_path": str(outside), "content": "x"}),
               tool_use("Write", {"file_path": str(folder / "deploys-on-fridays.md"),
                                  "content": NOTE})]),
        Reply("Saved deploys-on-fridays."),
    )
    try:
        await turns(session, "we only deploy on Fridays")
        assert coordinator.waiting == "about the project" and keeper.requests == []
        await session.end("prompt_input_exit", look_back=True)
        assert len(keeper.requests) == 2  # refusals to look at: the keeper is asked again
        assert extends(main_requests(fake_api)[-1], keeper.requests[0]) == []  # a cache read
        directive = json.dumps(keeper.requests[0].body["messages"][-1])
        assert "from message 0 onwards" in directive and "(no memories yet)" in directive
        results = keeper.requests[1].body["messages"][-1]["content"]
        assert [r.get("is_error", False) for r in results] == [True, True, False]
        assert "may only read and write in" in results[0]["content"]
        assert not outside.exists()
        assert (folder / "deploys-on-fridays.md").read_text() == NOTE
        assert coordinator.saved == [folder / "deploys-on-fridays.md"]
        fake_api.assert_clean()
    finally:
        await session.close()


async def test_an_extraction_that_would_save_a_key_is_refused(
    tmp_path: Path, fake_api: FakeAPI
) -> None:
    session = await opened_session(tmp_path, fake_api)
    folder = session.memory_dir
    assert folder is not None
    fake_api.script(Reply("ok"))
    key = "AKIA" + "ABCDEFGHIJKLMNOP"
    keeper = keeper_route(
        fake_api, Reply([tool_use("Write", {"file_path": str(folder / "aws.md"),
                                            "content": f"{NOTE}key: {key}\n"})]),
        Reply("Could not save it."))
    try:
        await turns(session, "remember: my AWS key is that one")
        await session.end("prompt_input_exit", look_back=True)
        result = keeper.requests[1].body["messages"][-1]["content"][0]
        assert result["is_error"] is True and "AWS access key" in result["content"]
        assert not (folder / "aws.md").exists()
    finally:
        await session.close()


async def test_turns_with_nothing_worth_keeping_are_never_looked_at(
    tmp_path: Path, fake_api: FakeAPI
) -> None:
    session = await opened_session(tmp_path, fake_api, idle=0.01)
    coordinator = session.extractor
    assert coordinator is not None
    keeper = keeper_route(fake_api, Reply("Nothing to save."))
    fake_api.script(Reply("It parses lines."), Reply("Fixed."))
    try:
        await turns(session, "what does parser.py do?", "fix the failing test")
        assert coordinator.waiting is None and coordinator.settled
        await session.end("prompt_input_exit", look_back=True)
        assert keeper.requests == [] and coordinator.runs == 0
    finally:
        await session.close()


async def test_several_turns_share_one_look_that_ends_with_the_index(
    tmp_path: Path, fake_api: FakeAPI
) -> None:
    """The writes of the memory and the index went well: nothing is left for the keeper
    to look at, so it is not asked again."""
    session = await opened_session(tmp_path, fake_api)
    folder, coordinator = session.memory_dir, session.extractor
    assert folder is not None and coordinator is not None
    keeper = keeper_route(fake_api, saving(folder))
    fake_api.script(Reply("a"), Reply("b"), Reply("c"), Reply("d"))
    try:
        await turns(session, "read a.py", "we only deploy on Fridays", "now run the tests",
                    "I prefer short answers")
        await session.end("prompt_input_exit", look_back=True)
        assert coordinator.runs == 1 and len(keeper.requests) == 1
        assert extends(main_requests(fake_api)[-1], keeper.requests[0]) == []
        assert (folder / "MEMORY.md").read_text() == INDEX_LINE
        assert (folder / "deploys-on-fridays.md").read_text() == NOTE
        fake_api.assert_clean()
    finally:
        await session.close()


async def test_an_idle_session_looks_at_what_waits_and_the_next_look_starts_after_it(
    tmp_path: Path, fake_api: FakeAPI
) -> None:
    session = await opened_session(tmp_path, fake_api, idle=0.05)
    folder, coordinator = session.memory_dir, session.extractor
    assert folder is not None and coordinator is not None
    index = INDEX_LINE + "- [parses-dates](parses-dates.md) - a.py parses dates\n"
    keeper = keeper_route(fake_api, saving(folder), Reply([
        tool_use("Write", {"file_path": str(folder / "parses-dates.md"), "content": NOTE}),
        tool_use("Write", {"file_path": str(folder / "MEMORY.md"), "content": index})]))
    fake_api.script(Reply("one"), Reply("two"), Reply("three"))
    try:
        await turns(session, "remember that we deploy on Fridays")
        await wait_for_async(lambda: len(keeper.requests) == 1 and coordinator.settled)
        assert extends(main_requests(fake_api)[-1], keeper.requests[0]) == []
        assert (folder / "deploys-on-fridays.md").exists()
        await turns(session, "what does a.py do?")
        assert coordinator.waiting is None  # nothing new worth a look
        await turns(session, "no, that's wrong: it parses dates")
        await session.end("prompt_input_exit", look_back=True)
        assert len(keeper.requests) == 2  # its writes went well: not asked again
        later = json.dumps(keeper.requests[1].body["messages"][-1])
        assert "from message 2 onwards" in later  # only what came after the first look
        assert INDEX_LINE.strip() in later  # the index as it stands, no Read needed
        assert (folder / "MEMORY.md").read_text() == index
        fake_api.assert_clean()
    finally:
        await session.close()
    assert not asyncio.all_tasks() - {asyncio.current_task()}


async def test_turns_that_end_while_a_look_runs_wait_for_one_more(
    tmp_path: Path, fake_api: FakeAPI
) -> None:
    session = await opened_session(tmp_path, fake_api, idle=0.05)
    coordinator = session.extractor
    assert coordinator is not None
    release = threading.Event()
    keeper = keeper_route(fake_api, Reply("Nothing to save.", hold_after_block={0: release.is_set}),
                          Reply("Nothing to save."))
    fake_api.script(Reply("one"), Reply("two"), Reply("three"))
    try:
        await turns(session, "I prefer tabs")
        await wait_for_async(lambda: len(keeper.requests) == 1)  # held
        coordinator.idle_seconds = 3600.0
        await turns(session, "we use poetry", "our deadline is March 3")
        assert coordinator.waiting is not None
        release.set()
        await session.end("prompt_input_exit", look_back=True)
        assert coordinator.runs == 2 and len(keeper.requests) == 2
        assert "from message 2 onwards" in json.dumps(keeper.requests[1].body["messages"][-1])
        fake_api.assert_clean()
    finally:
        release.set()
        await session.close()
    assert not asyncio.all_tasks() - {asyncio.current_task()}


async def test_a_cleared_conversation_is_looked_at_as_it_was(
    tmp_path: Path, fake_api: FakeAPI
) -> None:
    """What waited is not lost with the conversation: it is looked at once the next turn
    ends, in the conversation as it last was (its prefix still cached)."""
    session = await opened_session(tmp_path, fake_api)
    coordinator = session.extractor
    assert coordinator is not None
    keeper = keeper_route(fake_api, Reply("Nothing to save."))
    fake_api.script(Reply("Tabs it is."), Reply("It parses lines."))
    try:
        await turns(session, "I prefer tabs")
        before = main_requests(fake_api)[-1]
        session.engine.clear()
        await turns(session, "what does parser.py do?")
        await wait_for_async(lambda: len(keeper.requests) == 1 and coordinator.settled)
        assert extends(before, keeper.requests[0]) == []
        assert coordinator.waiting is None
    finally:
        await session.close()


async def test_what_the_extraction_is_refused_is_not_the_sessions(
    tmp_path: Path, fake_api: FakeAPI
) -> None:
    """The keeper is the harness's own helper: the calls its guard refuses are not listed
    in the session's `permission_denials` (the user asked for none of them)."""
    session = await opened_session(tmp_path, fake_api)
    cwd, engine = session.cwd, session.engine
    outside = cwd / "stolen.md"
    keeper = keeper_route(fake_api, Reply([tool_use("Write", {"file_path": str(outside),
                                                                "content": "x"})]),
                          Reply("Nothing saved."))
    fake_api.script(Reply("one"))
    try:
        await turns(session, "remember this")
        await session.end("prompt_input_exit", look_back=True)
        refused = keeper.requests[1].body["messages"][-1]["content"][0]
        assert refused["is_error"] is True and not outside.exists()
        assert list(engine.denials) == []
        fake_api.assert_clean()
    finally:
        await session.close()


async def test_a_rewound_conversation_is_looked_at_again_from_the_cut(
    tmp_path: Path, fake_api: FakeAPI
) -> None:
    session = await opened_session(tmp_path, fake_api, idle=0.05)
    engine, coordinator = session.engine, session.extractor
    assert coordinator is not None
    keeper = keeper_route(fake_api, Reply("Nothing to save."), Reply("Nothing to save."))
    fake_api.script(Reply("It parses."), Reply("Tabs."), Reply("Poetry."))
    try:
        await turns(session, "what does a.py do?", "I prefer tabs")
        await wait_for_async(lambda: len(keeper.requests) == 1 and coordinator.settled)
        assert engine.rewind_to(engine.messages[2].uuid) is not None  # "I prefer tabs" goes
        await turns(session, "we use poetry, not pip")
        await wait_for_async(lambda: len(keeper.requests) == 2 and coordinator.settled)
        later = json.dumps(keeper.requests[1].body["messages"])
        assert "from message 2 onwards" in later and "I prefer tabs" not in later
        fake_api.assert_clean()
    finally:
        await session.close()


async def test_a_driven_session_looks_at_idle_but_its_end_waits_for_nothing(
    tmp_path: Path, fake_api: FakeAPI
) -> None:
    """A program driving cc over stdin (print mode): the session lives between its
    messages, so it looks when idle; its end, like one-shot print mode's, waits on no
    look."""
    cwd, config = tmp_path / "project", tmp_path / "config"
    cwd.mkdir()
    config.mkdir()
    credentials = Credentials(api_key="test-key", base_url=fake_api.base_url)
    session = make_session(cwd, config, credentials=credentials,
                           argv=("-p", "--input-format", "stream-json",
                                 "--output-format", "stream-json", "--verbose"))
    assert session.options.sdk_host and not session.options.interactive
    await session.open()
    coordinator = session.extractor
    assert coordinator is not None
    keeper = keeper_route(fake_api, Reply("Nothing to save."))
    fake_api.script(Reply("Noted."), Reply("Noted again."), Reply("No emoji."))
    try:
        await turns(session, "I prefer tabs")
        coordinator.idle_seconds = 0.01
        await turns(session, "and short answers, please")
        await wait_for_async(lambda: len(keeper.requests) == 1 and coordinator.settled)
        coordinator.idle_seconds = 3600.0
        await turns(session, "from now on, no emoji")
        await session.end("other")
        assert len(keeper.requests) == 1 and coordinator.waiting is not None
    finally:
        await session.close()
    assert not asyncio.all_tasks() - {asyncio.current_task()}
