"""Each hook command's start, output so far and end, for whoever watches them: print
mode writes them as stream-json's `system/hook_started`, `hook_progress` and
`hook_response` records (always for
SessionStart, for every event with `--include-hook-events`, as Claude Code does).

`hook_name` is the event, with the value its matcher was tested on for the events that
have matchers (`PreToolUse:Bash`, `SessionStart:startup`); `hook_id` ties a command's
two notes together.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cc.hooks.process import HookResult


@dataclass(frozen=True)
class HookStarted:
    hook_id: str
    hook_name: str
    hook_event: str


@dataclass(frozen=True)
class HookFinished:
    hook_id: str
    hook_name: str
    hook_event: str
    result: HookResult

    @property
    def outcome(self) -> str:
        """success (exit 0), cancelled (timed out) or error (any other end)."""
        if self.result.timed_out:
            return "cancelled"
        return "success" if self.result.exit_code == 0 else "error"


@dataclass(frozen=True)
class HookProgress:
    """A running command's output so far (stream-json's `system/hook_progress`)."""

    hook_id: str
    hook_name: str
    hook_event: str
    stdout: str
    stderr: str


HookNote = HookStarted | HookProgress | HookFinished
HookWatcher = Callable[[HookNote], None]
