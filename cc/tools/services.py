"""What a tool may ask of the agent it runs in: narrow services, not the engine.

A tool reaches its agent through the context's late-bound `engine_ref`, which resolves
to one `AgentServices` record (the factory binds it once the engine exists):

    channel      ask the person at the terminal: choose, answer questions, approve a
                 plan (nobody, in print mode)
    mode         the permission mode: read it, set it, hear of changes; the plan file
    side_query   one request to the model without tools (summaries, web pages)
    toolset      this conversation's offered, deferred and loaded tools
    agents       spawn, continue and find agents (`cc.agents.control.AgentControl`)
    task_hooks   the TaskCreated / TaskCompleted hooks
    end_turn     end the current turn once this message's results are in
    grant_for_turn  allow rules for this agent until its turn ends (a skill's tools)

Each is a small protocol here, where the tools that use it live; the engine and the
factory implement them (`cc.core.services`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from pathlib import Path

    from cc.tools.base import Tool
    from cc.tools.questions import Answers, PlanChoice, Question


class QuestionChannel(Protocol):
    """Who answers a tool's question (the REPL's person; nobody in print mode)."""

    @property
    def present(self) -> bool: ...

    async def choose(self, title: str, options: Sequence[str]) -> int | None: ...

    async def ask_questions(self, questions: Sequence[Question]) -> Answers:
        """The answers, per question text; None: the person declined."""
        ...

    async def approve_plan(self, plan: str, path: str) -> PlanChoice: ...


class ModeControl(Protocol):
    @property
    def mode(self) -> str: ...

    @property
    def plan_file(self) -> Path | None:
        """The one file this agent may write in plan mode (None: it has none)."""
        ...

    def set_mode(self, mode: str) -> None:
        """Raises ValueError for a mode that does not exist or is disabled."""
        ...

    def on_mode_change(self, listener: Callable[[str], None]) -> None: ...


@dataclass(frozen=True)
class SideAnswer:
    """The model's answer to a side request: its text and its content blocks as sent
    (server tool blocks included)."""

    text: str
    blocks: list[dict[str, Any]] = field(default_factory=list)
    #: False: the request failed (after its retries), and `text` is empty.
    ok: bool = True


class SideQuery(Protocol):
    async def __call__(self, prompt: str, *, system: str | None = None,
                       max_tokens: int | None = None,
                       server_tools: Sequence[dict[str, Any]] = (),
                       tool_choice: dict[str, Any] | None = None) -> SideAnswer: ...


class Toolset(Protocol):
    """This conversation's tools: what its requests offer, what is announced by name
    only (deferred) and what of that has been loaded."""

    def offered(self) -> list[str]: ...

    def deferred(self) -> list[str]: ...

    def loaded(self) -> list[str]: ...

    def get(self, name: str) -> Tool | None: ...

    def load(self, names: Sequence[str]) -> list[str]:
        """Load deferred tools (their full definitions go with the next request); the
        names newly loaded."""
        ...

    def search(self, query: str, limit: int) -> list[str]:
        """Deferred tools matching keywords, best first."""
        ...

    def register(self, tool: Tool) -> None:
        """A tool joins (or replaces one of the same name): the second wiring."""
        ...

    def remove(self, name: str) -> None: ...


class HookVerdict(Protocol):
    blocked: bool
    reason: str | None


class TaskHooks(Protocol):
    async def task_created(self, task_id: str, subject: str,
                           description: str) -> HookVerdict: ...

    async def task_completed(self, task_id: str, subject: str,
                             description: str) -> HookVerdict: ...


@dataclass(frozen=True)
class AgentServices:
    channel: QuestionChannel
    mode: ModeControl
    side_query: SideQuery
    toolset: Toolset
    #: A `cc.agents.control.AgentControl` (a layer above this one; its users narrow it
    #: with `cc.agents.control.agent_control`). None: this agent starts no agents.
    agents: Any
    task_hooks: TaskHooks | None
    end_turn: Callable[[str], None]
    #: Allow these rules (a skill's `allowed-tools`) in this agent until its turn ends;
    #: the warnings for rules that do not parse.
    grant_for_turn: Callable[[Sequence[str]], list[str]] = lambda rules: [
        "this agent cannot be granted rules"] if rules else []
