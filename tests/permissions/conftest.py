"""A small project on disk for permission tests: files inside, a folder outside, a home."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cc.config.settings import Settings
from cc.permissions.ask import NO_ONE, AskAnswer, AskingChannel, AskUser, PermissionRequest
from cc.permissions.checker import PermissionChecker
from cc.permissions.context import build_permission_context
from cc.permissions.gate import Decision
from cc.tools.base import Tool
from cc.tools.bash import BashTool
from cc.tools.edit import EditTool
from cc.tools.glob import GlobTool
from cc.tools.grep import GrepTool
from cc.tools.read import ReadTool
from cc.tools.write import WriteTool


@dataclass
class Proj:
    root: Path  # the working folder
    outside: Path  # a folder next to it, not a working folder
    home: Path
    config: Path


@pytest.fixture
def proj(tmp_path: Path) -> Proj:
    root, outside, home, config = (tmp_path / n for n in ("proj", "outside", "home", "config"))
    for folder in (root / "src", root / "sub", root / "build", outside, home, config):
        folder.mkdir(parents=True)
    for name in ("README.md", "a", "b", ".env", "sub/.env", "src/main.py"):
        (root / name).write_text("x\n")
    (outside / "secret.txt").write_text("s\n")
    return Proj(root, outside, home, config)


def make_checker(
    proj: Proj,
    mode: str = "default",
    *,
    allow: tuple[str, ...] = (),
    deny: tuple[str, ...] = (),
    ask: tuple[str, ...] = (),
    asker: AskUser | None = None,
    settings: Settings | None = None,
    add_dirs: tuple[str, ...] = (),
) -> PermissionChecker:
    ctx = build_permission_context(
        settings or Settings(), cwd=proj.root, config_dir=proj.config, mode=mode,
        allowed_tools=list(allow), disallowed_tools=list(deny), add_dirs=list(add_dirs),
        home=proj.home,
    )
    ctx.add_rule_texts("ask", list(ask), source="session")
    return PermissionChecker(ctx, AskingChannel(asker) if asker else NO_ONE)


TOOLS: dict[str, Tool] = {t.name: t for t in (ReadTool(), EditTool(), WriteTool(), GlobTool(),
                                              GrepTool(), BashTool())}
DEFAULT_INPUT: dict[str, dict[str, Any]] = {
    "Edit": {"old_string": "x", "new_string": "y"},
    "Write": {"content": "y"},
    "Glob": {"pattern": "**/*"},
    "Grep": {"pattern": "x"},
}


async def check(checker: PermissionChecker, tool_name: str, **inp: Any) -> Decision:
    """The checker's decision for one call of a real tool."""
    tool = TOOLS[tool_name]
    data = {**DEFAULT_INPUT.get(tool_name, {}), **inp}
    return await checker.check(tool, tool.input_model.model_validate(data), "toolu_1")


def answering(answer: AskAnswer) -> tuple[AskUser, list[PermissionRequest]]:
    """An AskUser that records each request and gives `answer`."""
    seen: list[PermissionRequest] = []

    async def ask(request: PermissionRequest) -> AskAnswer:
        seen.append(request)
        await asyncio.sleep(0)
        return answer

    return ask, seen
