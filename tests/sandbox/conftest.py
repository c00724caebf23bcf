"""A real sandbox around real commands: bubblewrap, files in tmp_path, subprocesses."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cc.config.settings import load_settings
from cc.permissions.context import build_permission_context
from cc.sandbox.bwrap import find_bubblewrap
from cc.sandbox.config import load_sandbox_config
from cc.sandbox.sandbox import Sandbox
from cc.tools.base import ToolContext, ToolResult
from cc.tools.bash import BashInput, BashTool
from cc.tools.shell import BackgroundTasks, ShellSession

_FOUND = find_bubblewrap()
needs_bwrap = pytest.mark.skipif(
    not _FOUND.usable,
    reason=f"the sandbox tests need a working bubblewrap ({_FOUND.problem}); "
    "apt-get install bubblewrap",
)


@dataclass
class Box:
    """A project folder, a folder outside it, and a Bash tool whose commands are sandboxed."""

    root: Path
    outside: Path
    ctx: ToolContext
    sandbox: Sandbox

    async def bash(self, command: str, **fields: Any) -> ToolResult:
        return await BashTool().call(BashInput(command=command, **fields), self.ctx)


def make_sandbox(root: Path, home: Path, config: Path, settings: dict[str, Any],
                 add_dirs: list[str] | None = None) -> Sandbox:
    loaded = load_settings(root, config, flag_settings=json.dumps(settings))
    perms = build_permission_context(
        loaded, cwd=root, config_dir=config, mode="default", allowed_tools=[],
        disallowed_tools=[], add_dirs=add_dirs or [], home=home)
    return Sandbox(load_sandbox_config(loaded, perms))


@pytest.fixture
def outside() -> Iterator[Path]:
    """A folder outside the project, and not under /tmp (the sandbox has its own /tmp)."""
    path = Path(tempfile.mkdtemp(prefix="cc-sandbox-test-", dir="/var/tmp")).resolve()
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
async def box_factory(tmp_path: Path, outside: Path) -> AsyncIterator[Callable[..., Box]]:
    made: list[Box] = []
    base = tmp_path.resolve()

    def make(sandbox: dict[str, Any] | None = None, **other: Any) -> Box:
        root = base / "project"
        for folder in (root, base / "home", base / "config"):
            folder.mkdir(exist_ok=True)
        settings = {"sandbox": {"enabled": True, **(sandbox or {})}, **other}
        box_sandbox = make_sandbox(root, base / "home", base / "config", settings)
        shell = ShellSession(root)
        ctx = ToolContext(cwd=root, shell=shell, tasks=BackgroundTasks(shell.tasks_dir),
                          sandbox=box_sandbox)
        made.append(Box(root, outside, ctx, box_sandbox))
        return made[-1]

    yield make
    for box in made:
        assert box.ctx.tasks is not None and box.ctx.shell is not None
        await box.ctx.tasks.close()
        await box.sandbox.close()
        box.ctx.shell.close()


@pytest.fixture
def box(box_factory: Callable[..., Box]) -> Box:
    return box_factory()
