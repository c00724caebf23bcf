"""The engine's side of the `UserChannel`: every ask, and its answer, is an event too.

The executor sets where events of the call it runs go (`emitting`); `ObservedChannel`
wraps whoever answers (the REPL's dialogs, an SDK host) and reports each permission
question and answer there, so a writer or host sees them in the event stream.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from cc.core.events import Event, PermissionAnswered, PermissionAsked
from cc.permissions.ask import (
    Answers,
    AskAnswer,
    PermissionRequest,
    PlanChoice,
    Question,
    UserChannel,
)

_emit: ContextVar[Callable[[Event], None] | None] = ContextVar("cc_call_events", default=None)


@contextmanager
def emitting(emit: Callable[[Event], None] | None) -> Iterator[None]:
    """Within this block (one tool call's task), asks are reported to `emit`."""
    token = _emit.set(emit)
    try:
        yield
    finally:
        _emit.reset(token)


class ObservedChannel:
    def __init__(self, inner: UserChannel) -> None:
        self.inner = inner

    @property
    def present(self) -> bool:
        return self.inner.present

    async def ask_permission(self, request: PermissionRequest) -> AskAnswer:
        emit = _emit.get()
        if emit is not None:
            emit(PermissionAsked(request))
        answer = await self.inner.ask_permission(request)
        if emit is not None:
            emit(PermissionAnswered(request, answer))
        return answer

    async def choose(self, title: str, options: Sequence[str]) -> int | None:
        return await self.inner.choose(title, options)

    async def ask_questions(self, questions: Sequence[Question]) -> Answers:
        return await self.inner.ask_questions(questions)

    async def approve_plan(self, plan: str, path: str) -> PlanChoice:
        return await self.inner.approve_plan(plan, path)
