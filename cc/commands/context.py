"""What a slash command runs with, and what it hands back.

The control plane wires `Services` (callables into permissions, hooks, sessions);
the UI adds a Console to print to and, when it is interactive, a picker and a way
to run an editor on the terminal. Every service is optional: a command whose
service is missing says so.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from rich.console import Console

    from cc.app.session import Session
    from cc.commands.registry import CommandRegistry
    from cc.core.query_engine import QueryEngine
    from cc.models.messages import Message, UserMessage

T = TypeVar("T")

#: The permission modes Shift+Tab cycles through, in order.
MODE_CYCLE = ("default", "acceptEdits", "plan")


@dataclass(frozen=True)
class SessionSummary:
    """One resumable conversation, as `/resume` lists it."""

    session_id: str
    first_prompt: str
    modified: float  #: epoch seconds
    message_count: int


Sessions = Sequence[SessionSummary]


@dataclass
class Services:
    """Hooks into parts the UI does not own. All optional."""

    #: Change the permission mode (Shift+Tab). Default: set the permission checker's `mode`,
    #: its one owner. May raise ValueError (shown, mode unchanged).
    set_mode: Callable[[str], None] | None = None
    #: {"allow": [...], "deny": [...], "ask": [...]} for /permissions.
    #: Default: runtime.permissions.rules_summary(), else the settings' lists.
    permission_rules: Callable[[], Mapping[str, Sequence[str]]] | None = None
    #: The configured hooks ({event: [{matcher, hooks: [...]}]}) for /hooks.
    hooks_config: Callable[[], Mapping[str, Any]] | None = None
    #: Recent sessions of this project, newest first (may be async).
    list_sessions: Callable[[], Sessions | Awaitable[Sessions]] | None = None
    #: Load a session into the engine (may be async).
    resume_session: Callable[[str], Any] | None = None
    #: May this `` !`cmd` `` of a custom command run, given its allowed-tools? (may be async)
    permit_shell: Callable[[str, Sequence[str]], bool | Awaitable[bool]] | None = None
    #: Called once when the REPL ends (save the session, SessionEnd hooks). May be async.
    on_exit: Callable[[], Any] | None = None


@dataclass
class CommandResult:
    """What the caller does after a command: send a prompt, end, or nothing."""

    submit: UserMessage | None = None
    #: The model for that one prompt (a custom command's `model`).
    model: str | None = None
    allowed_tools: tuple[str, ...] = ()
    exit: bool = False
    #: Clear the terminal before the command's output is shown (/clear).
    clear_screen: bool = False
    #: Text to put in the input box, to edit and send again (/rewind's prompt).
    prefill: str | None = None


@dataclass
class CommandContext:
    engine: QueryEngine
    runtime: Session
    console: Console
    commands: CommandRegistry
    services: Services = field(default_factory=Services)
    started: float = field(default_factory=time.monotonic)
    #: The clock `started` is on (a test passes its own).
    clock: Callable[[], float] = time.monotonic
    #: A picker: (title, options) -> chosen index, None if cancelled. None: not interactive.
    choose: Callable[[str, Sequence[str]], Awaitable[int | None]] | None = None
    #: Open a file in the user's editor on the terminal; returns the exit status.
    edit_file: Callable[[Path], Awaitable[int]] | None = None
    #: Show a conversation as the REPL would (after /resume). None: not shown.
    replay: Callable[[Sequence[Message]], None] | None = None

    @property
    def cwd(self) -> Path:
        return self.runtime.cwd

    @property
    def config_dir(self) -> Path:
        return self.runtime.config_dir

    def say(self, text: str, style: str | None = None) -> None:
        """Print plain text (no markup, no highlighting)."""
        self.console.print(text, style=style, markup=False, highlight=False, overflow="fold")


async def maybe_await(value: T | Awaitable[T]) -> T:
    if inspect.isawaitable(value):
        return await value
    return value  # type: ignore[return-value]
