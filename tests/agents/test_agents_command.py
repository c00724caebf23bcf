"""/agents against a real engine: the types by source, their tools, and the warnings."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console

from cc.app.options import SessionOptions
from cc.commands.context import CommandContext
from cc.commands.registry import CommandRegistry, dispatch
from cc.core.client import ModelClient
from cc.core.credentials import Credentials
from cc.core.pipeline.executor import ToolExecutor
from cc.core.query_engine import EngineConfig, QueryEngine
from cc.permissions.gate import ModeGate
from cc.tools.base import ToolContext
from cc.tools.bash import BashTool
from cc.tools.read import ReadTool
from cc.tools.registry import ToolRegistry
from tests.fakeapi import FakeAPI
from tests.sessions import make_session


@pytest.fixture
async def engine(fake_api: FakeAPI, tmp_path: Path) -> AsyncIterator[QueryEngine]:
    registry = ToolRegistry([ReadTool(), BashTool()])
    executor = ToolExecutor(registry, ToolContext(cwd=tmp_path), permissions=ModeGate("default"))
    client = ModelClient(Credentials(api_key="test-key", base_url=fake_api.base_url))
    engine = QueryEngine(EngineConfig(model="claude-test-1", system=[]), client, registry, executor)
    yield engine
    await engine.aclose()


def make_ctx(engine: QueryEngine, tmp_path: Path, agents_json: str | None = None) -> CommandContext:
    cwd, config = tmp_path / "proj", tmp_path / "config"
    cwd.mkdir(exist_ok=True)
    config.mkdir(exist_ok=True)
    runtime = make_session(cwd, config, credentials=Credentials(api_key="k"),
                           options=SessionOptions(model="claude-test-1",
                                                  permission_mode="default",
                                                  agents_json=agents_json))
    console = Console(file=StringIO(), width=1000, color_system=None)
    return CommandContext(engine, runtime, console, CommandRegistry.default(cwd, config))


async def run_agents(ctx: CommandContext) -> list[str]:
    assert await dispatch("/agents", ctx) is not None
    return [line.rstrip() for line in ctx.console.file.getvalue().splitlines()]  # type: ignore[attr-defined]


async def test_only_the_builtins(engine: QueryEngine, tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    lines = await run_agents(ctx)
    assert lines[0] == ("4 agent types; a later source overrides an earlier one: "
                        "built-in < user < project < --agents")
    assert lines[2] == "Built-in agents"
    assert [line.split(":")[0] for line in lines[3:11:2]] == ["  Explore", "  fork",
                                                              "  general-purpose", "  Plan"]
    assert lines[4] == "    Tools: All tools except Agent, Edit, Write, NotebookEdit"
    assert lines[6] == "    Tools: The same as yours"
    assert lines[8] == "    Tools: All tools"
    assert lines[-1] == (f"Add your own as Markdown files in {ctx.cwd}/.claude/agents or "
                         f"{ctx.config_dir}/agents.")


async def test_every_source_with_overrides_and_warnings(engine: QueryEngine, tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path, json.dumps({
        "jsonagent": {"description": "From JSON", "prompt": "p", "tools": ["Read"], "model": "sonnet"},
        "broken": {"description": "no prompt"},
    }))
    user = ctx.config_dir / "agents"
    project = ctx.cwd / ".claude" / "agents"
    user.mkdir()
    project.mkdir(parents=True)
    (user / "helper.md").write_text("---\ndescription: Helps out\nmaxTurns: 4\n---\nHelp.")
    (project / "reviewer.md").write_text(
        "---\ndescription: Reviews diffs\ntools: Read, Grep, Bash\npermissionMode: plan\n---\nReview.")
    (project / "Plan.md").write_text("---\ndescription: Our planner\ndisallowedTools: Bash\n---\nPlan.")
    (project / "bad.md").write_text("---\ndescription: x\nmaxTurns: lots\n---\n")
    lines = await run_agents(ctx)
    assert lines[0].startswith("7 agent types;")
    assert lines[2:] == [
        "Built-in agents",
        "  Explore: " + lines[3].split(": ", 1)[1],
        "    Tools: All tools except Agent, Edit, Write, NotebookEdit",
        "  fork: " + lines[5].split(": ", 1)[1],
        "    Tools: The same as yours",
        "  general-purpose: " + lines[7].split(": ", 1)[1],
        "    Tools: All tools",
        "",
        f"User agents ({user})",
        "  helper: Helps out",
        f"    Tools: All tools · max turns: 4 · {user / 'helper.md'}",
        "",
        f"Project agents ({project})",
        "  Plan: Our planner",
        f"    Tools: All tools except Bash · overrides the built-in agent · {project / 'Plan.md'}",
        "  reviewer: Reviews diffs",
        f"    Tools: Read, Bash · permission mode: plan · {project / 'reviewer.md'}",
        "",
        "From --agents",
        "  jsonagent: From JSON",
        "    Tools: Read · model: sonnet",
        f"Warning: Skipped agent file {project / 'bad.md'}: maxTurns must be a whole number of "
        "at least 1, not 'lots'",
        "Warning: Skipped agent 'broken' from --agents: prompt must be a non-empty string",
    ]


async def test_help_lists_agents(engine: QueryEngine, tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    await dispatch("/help", ctx)
    assert "/agents" in ctx.console.file.getvalue()  # type: ignore[attr-defined]
