"""Background memory extraction against the fake API: one per turn, coalesced, confined
to the memory folder, secret-checked, and after print mode's result."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

from cc.app.session import Session
from cc.core.client import Credentials
from cc.session.paths import project_dir
from tests.conftest import Project
from tests.fakeapi import FakeAPI, Reply, tool_use
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


def keeper_route(api: FakeAPI, *turns: Any) -> Any:
    return api.route(lambda body: KEEPER in json.dumps(body["messages"]), *turns,
                     name="keeper")


def folder_of(project: Project) -> Path:
    return project_dir(project.root, project.config) / "memory"


def test_a_turn_ends_and_one_extraction_saves_a_memory(project: Project) -> None:
    project.env.pop("CC_DISABLE_MEMORY_EXTRACTION", None)
    project.env["CC_DISABLE_MEMORY_EXTRACTION"] = "0"
    folder = folder_of(project)
    outside = project.root / "stolen.md"
    api = project.api
    api.script(Reply("Noted: Friday deploys."))
    keeper = keeper_route(
        api,
        Reply([tool_use("Bash", {"command": f"touch {outside}"}),
               tool_use("Write", {"file_path": str(outside), "content": "x"}),
               tool_use("Write", {"file_path": str(folder / "deploys-on-fridays.md"),
                                  "content": NOTE})]),
        Reply("Saved deploys-on-fridays."),
    )
    run = project.run("-p", "we only deploy on Fridays", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    assert run.json()["result"] == "Noted: Friday deploys."
    assert len(keeper.requests) == 2
    asked = keeper.requests[0].body
    main = api.bodies[0]
    assert json.dumps(asked["tools"]) == json.dumps(main["tools"])  # the cache prefix
    assert json.dumps(asked["system"]) == json.dumps(main["system"])
    results = keeper.requests[1].body["messages"][-1]["content"]
    assert [r.get("is_error", False) for r in results] == [True, True, False]
    assert "may only read and write in" in results[0]["content"]
    assert not outside.exists()
    assert (folder / "deploys-on-fridays.md").read_text() == NOTE
    api.assert_clean()


def test_an_extraction_that_would_save_a_key_is_refused(project: Project) -> None:
    project.env["CC_DISABLE_MEMORY_EXTRACTION"] = "0"
    folder = folder_of(project)
    api = project.api
    api.script(Reply("ok"))
    key = "AKIA" + "ABCDEFGHIJKLMNOP"
    keeper = keeper_route(
        api, Reply([tool_use("Write", {"file_path": str(folder / "aws.md"),
                                       "content": f"{NOTE}key: {key}\n"})]),
        Reply("Could not save it."))
    assert project.run("-p", "my AWS key is that one").returncode == 0
    result = keeper.requests[1].body["messages"][-1]["content"][0]
    assert result["is_error"] is True and "AWS access key" in result["content"]
    assert not (folder / "aws.md").exists()


async def opened_session(tmp_path: Path, fake_api: FakeAPI) -> Session:
    """A session whose main agent is built, its memory extraction on."""
    cwd, config = tmp_path / "project", tmp_path / "config"
    cwd.mkdir()
    config.mkdir()
    session = make_session(cwd, config,
                           credentials=Credentials(api_key="test-key", base_url=fake_api.base_url))
    await session.open()
    return session


async def test_turns_that_end_while_it_runs_coalesce_into_one_more(
    tmp_path: Path, fake_api: FakeAPI
) -> None:
    session = await opened_session(tmp_path, fake_api)
    engine, coordinator = session.engine, session.extractor
    assert coordinator is not None
    release = threading.Event()
    keeper = keeper_route(fake_api, Reply("Nothing to save.", hold_after_block={0: release.is_set}),
                          Reply("Nothing to save."))
    fake_api.script(Reply("one"), Reply("two"), Reply("three"))
    try:
        for prompt in ("first", "second", "third"):
            async for _ in engine.submit(prompt):
                pass
        # The first extraction is held; the second and third turns ended meanwhile.
        await wait_for_async(lambda: len(keeper.requests) == 1)
        release.set()
        await wait_for_async(lambda: coordinator.running is not None and coordinator.running.done())
        assert coordinator.runs == 2 and len(keeper.requests) == 2
        later = json.dumps(keeper.requests[1].body["messages"][-1])
        assert "from message 2 onwards" in later  # only what came after the first look
        fake_api.assert_clean()
    finally:
        release.set()
        await session.close()
    assert not asyncio.all_tasks() - {asyncio.current_task()}


async def test_what_the_extraction_is_refused_is_not_the_sessions(
    tmp_path: Path, fake_api: FakeAPI
) -> None:
    """The keeper is the harness's own helper: the calls its guard refuses are not listed
    in the session's `permission_denials` (the user asked for none of them)."""
    session = await opened_session(tmp_path, fake_api)
    cwd, engine, coordinator = session.cwd, session.engine, session.extractor
    assert coordinator is not None
    outside = cwd / "stolen.md"
    keeper = keeper_route(fake_api, Reply([tool_use("Write", {"file_path": str(outside),
                                                                "content": "x"})]),
                          Reply("Nothing saved."))
    fake_api.script(Reply("one"))
    try:
        async for _ in engine.submit("first"):
            pass
        await wait_for_async(lambda: coordinator.running is not None and coordinator.running.done())
        refused = keeper.requests[1].body["messages"][-1]["content"][0]
        assert refused["is_error"] is True and not outside.exists()
        assert list(engine.denials) == []
        fake_api.assert_clean()
    finally:
        await session.close()
