"""Engines for in-process tests: a QueryEngine on the fake API with the given tools.

Every engine made here is closed after its test (tests/core/conftest.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cc.core.client import ModelClient
from cc.core.credentials import Credentials
from cc.core.events import Event, Terminal
from cc.core.pipeline.executor import ToolExecutor
from cc.core.query_engine import EngineConfig, QueryEngine
from cc.permissions.gate import ModeGate
from cc.prompts.builder import PromptSection
from cc.tools.base import Tool, ToolContext
from cc.tools.read import ReadTool
from cc.tools.registry import ToolRegistry
from cc.tools.shell import BackgroundTasks, ShellSession
from tests.fakeapi import FakeAPI

made: list[QueryEngine] = []


def make_engine(api: FakeAPI, tmp_path: Path, *tools: Tool, **config: Any) -> QueryEngine:
    registry = ToolRegistry([ReadTool(), *tools])
    shell = ShellSession(tmp_path)
    ctx = ToolContext(cwd=tmp_path, shell=shell, tasks=BackgroundTasks(shell.tasks_dir))
    executor = ToolExecutor(registry, ctx, permissions=ModeGate("default"))
    client = ModelClient(Credentials(api_key="test-key", base_url=api.base_url))
    system = [PromptSection("intro", "You are a test agent.", cacheable=True)]
    engine = QueryEngine(
        EngineConfig(model="claude-test-1", system=system, **config), client, registry, executor
    )
    made.append(engine)
    return engine


async def collect(events: Any) -> list[Event]:
    return [e async for e in events]


def terminal(events: list[Event]) -> Terminal:
    last = events[-1]
    assert isinstance(last, Terminal)
    return last


async def close_all() -> None:
    while made:
        await made.pop().aclose()
