"""Asking a person: the `UserChannel` the core asks through, its requests and answers.

Everything the core asks a person (a permission, a choice, a tool's questions, a plan
to approve) goes through one
`UserChannel`. The REPL's dialogs implement it; print mode and sub-agents have
`NO_ONE`, so whatever would ask is denied at once; an SDK host (later) answers over
the control protocol.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from cc.tools.questions import Answers, PlanChoice, Question


@dataclass(frozen=True)
class PermissionRequest:
    tool_name: str
    tool_input: dict[str, Any]
    tool_use_id: str
    #: One line saying what would happen, e.g. "Bash command: rm -rf build".
    description: str
    #: Rules that "Yes, and don't ask again" would add, e.g. ["Bash(npm test *)"].
    suggestions: list[str] = field(default_factory=list)
    #: Why it asks (a matching ask rule, a protected file, the mode...).
    reason: str | None = None


@dataclass(frozen=True)
class HookRuling:
    """A PermissionRequest hook's answer to a request, given instead of asking anyone."""

    behavior: Literal["allow", "deny"]
    #: With "allow": the input to run the tool with instead.
    updated_input: dict[str, Any] | None = None
    #: With "allow": rules to add (("allow", "Bash(npm test)"), …) and whether to save them.
    rules: tuple[tuple[str, str, bool], ...] = ()
    #: With "allow": a permission mode to switch to.
    mode: str | None = None
    #: With "deny": what the model reads.
    message: str | None = None


class PermissionHooks(Protocol):
    """Asked before a permission prompt would be shown; None: they do not decide."""

    async def __call__(self, request: PermissionRequest) -> HookRuling | None: ...


@dataclass(frozen=True)
class AskAnswer:
    behavior: Literal["allow", "deny"]
    #: With "allow": also add the request's suggestions as allow rules (persisted).
    always: bool = False
    #: With "deny": what the user wants done instead; passed to the model.
    feedback: str | None = None
    #: With "allow": the input to run the tool with instead (an SDK host's answer).
    updated_input: dict[str, Any] | None = None


AskUser = Callable[[PermissionRequest], Awaitable[AskAnswer]]




class UserChannel(Protocol):
    """Who answers what the core asks."""

    #: False: nobody can answer (every question would be refused at once).
    present: bool

    async def ask_permission(self, request: PermissionRequest) -> AskAnswer: ...

    async def choose(self, title: str, options: Sequence[str]) -> int | None: ...

    async def ask_questions(self, questions: Sequence[Question]) -> Answers: ...

    async def approve_plan(self, plan: str, path: str) -> PlanChoice: ...


class NoOne:
    """The channel of a session nobody watches: print mode, sub-agents."""

    present = False

    async def ask_permission(self, request: PermissionRequest) -> AskAnswer:
        return AskAnswer("deny")

    async def choose(self, title: str, options: Sequence[str]) -> int | None:
        return None

    async def ask_questions(self, questions: Sequence[Question]) -> Answers:
        return None

    async def approve_plan(self, plan: str, path: str) -> PlanChoice:
        return "keep_planning"


NO_ONE = NoOne()


class AskingChannel:
    """A channel that answers permissions with `ask` (a test's script, say)."""

    present = True

    def __init__(self, ask: AskUser) -> None:
        self._ask = ask

    async def ask_permission(self, request: PermissionRequest) -> AskAnswer:
        return await self._ask(request)

    async def choose(self, title: str, options: Sequence[str]) -> int | None:
        return None

    async def ask_questions(self, questions: Sequence[Question]) -> Answers:
        return None

    async def approve_plan(self, plan: str, path: str) -> PlanChoice:
        return "keep_planning"
