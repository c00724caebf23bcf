"""Settings `statusLine`: a command whose first line of output shows under the prompt.

    {"statusLine": {"type": "command", "command": "~/.claude/statusline.sh", "padding": 2}}

The command runs through the shell with the status JSON (`cc.ui.status_input`) on
stdin, `CLAUDECODE=1` in its environment. `refresh()` asks for a run: runs do not
overlap, and asks that come while one runs make one more run after it, so a burst of
asks costs at most two runs. A command that fails (exit status other than 0, no output,
over `TIMEOUT_S`, cannot start) shows nothing; the REPL goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TIMEOUT_S = 5.0


@dataclass(frozen=True)
class StatusLineConfig:
    command: str
    padding: int = 0


def status_line_config(value: object) -> tuple[StatusLineConfig | None, str | None]:
    """The settings value read: (config, None), (None, why it is ignored), or (None, None)
    when it is not set."""
    if value is None:
        return None, None
    if not isinstance(value, dict):
        return None, 'statusLine must be an object such as {"type": "command", "command": "…"}'
    if value.get("type", "command") != "command":
        return None, f'statusLine type {value.get("type")!r} is not supported (only "command")'
    command = value.get("command")
    if not isinstance(command, str) or not command.strip():
        return None, "statusLine.command must be a shell command"
    padding = value.get("padding", 0)
    if isinstance(padding, bool) or not isinstance(padding, int) or padding < 0:
        return StatusLineConfig(command), "statusLine.padding must be a whole number ≥ 0; 0 used"
    return StatusLineConfig(command, padding), None


class StatusLine:
    def __init__(self, config: StatusLineConfig, cwd: Path,
                 status: Callable[[], dict[str, Any]], on_change: Callable[[], None]) -> None:
        self.config, self._cwd = config, cwd
        self._status, self._on_change = status, on_change
        #: The line shown (may hold ANSI colours); "" shows nothing.
        self.text = ""
        self._task: asyncio.Task[None] | None = None
        self._again = False

    def refresh(self) -> None:
        if self._task is not None and not self._task.done():
            self._again = True
            return
        self._task = asyncio.get_running_loop().create_task(self._runs())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _runs(self) -> None:
        while True:
            self._again = False
            text = await run_status_command(self.config.command, self._status(), self._cwd)
            if text != self.text:
                self.text = text
                self._on_change()
            if not self._again:
                return


async def run_status_command(command: str, status: dict[str, Any], cwd: Path,
                             timeout: float = TIMEOUT_S) -> str:
    """The command's first line of output, or "" when it fails."""
    try:
        proc = await asyncio.create_subprocess_shell(
            os.path.expanduser(command) if command.startswith("~") else command,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL, cwd=cwd,
            env={**os.environ, "CLAUDECODE": "1"}, start_new_session=True)
    except OSError:
        return ""
    try:
        out, _ = await asyncio.wait_for(proc.communicate(json.dumps(status).encode()), timeout)
    except (TimeoutError, asyncio.CancelledError) as exc:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, 9)
        await proc.wait()
        if isinstance(exc, asyncio.CancelledError):
            raise
        return ""
    except (BrokenPipeError, ConnectionResetError):
        out = b""
        await proc.wait()
    if proc.returncode != 0:
        return ""
    lines = out.decode("utf-8", errors="replace").splitlines()
    return lines[0].rstrip() if lines else ""
