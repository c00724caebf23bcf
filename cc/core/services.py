"""The engine's side of the services a tool sees (`cc.tools.services`): small adapters
over the parts of one engine, made once the engine exists and bound to its tools'
`engine_ref` by the factory."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cc.permissions.ask import Answers, PlanChoice, Question
from cc.tools.services import AgentServices, SideAnswer

if TYPE_CHECKING:
    from cc.core.query_engine import QueryEngine


def services_of(engine: QueryEngine, agents: Any = None) -> AgentServices:
    """The services `engine`'s tools see; `agents` is what starts and finds agents (None:
    this agent starts none)."""
    return AgentServices(
        channel=_Channel(engine),
        mode=_Mode(engine),
        side_query=_SideQuery(engine),
        toolset=engine.toolset,
        agents=agents,
        task_hooks=engine.hooks,
        end_turn=engine.end_turn_after_tools,
        grant_for_turn=engine.grant_for_turn,
    )


class _Channel:
    """The engine's channel as it is now (the REPL gives it one after start-up)."""

    def __init__(self, engine: QueryEngine) -> None:
        self._engine = engine

    @property
    def present(self) -> bool:
        return self._engine.channel.present

    async def choose(self, title: str, options: Sequence[str]) -> int | None:
        return await self._engine.channel.choose(title, options)

    async def ask_questions(self, questions: Sequence[Question]) -> Answers:
        return await self._engine.channel.ask_questions(questions)

    async def approve_plan(self, plan: str, path: str) -> PlanChoice:
        return await self._engine.channel.approve_plan(plan, path)


class _Mode:
    def __init__(self, engine: QueryEngine) -> None:
        self._gate = engine.executor.permissions

    @property
    def mode(self) -> str:
        return str(getattr(self._gate, "mode", "default"))

    @property
    def plan_file(self) -> Path | None:
        context = getattr(self._gate, "context", None)
        return getattr(context, "plan_file", None)

    def set_mode(self, mode: str) -> None:
        if not hasattr(self._gate, "on_mode_change"):
            raise ValueError("this agent's permission mode cannot change")
        self._gate.mode = mode  # type: ignore[attr-defined]  # the checker validates it

    def on_mode_change(self, listener: Callable[[str], None]) -> None:
        listen = getattr(self._gate, "on_mode_change", None)
        if listen is not None:
            listen(listener)


class _SideQuery:
    """One request without tools, on the agent's model and connection; what it costs is
    the agent's."""

    def __init__(self, engine: QueryEngine) -> None:
        self._engine = engine

    async def __call__(self, prompt: str, *, system: str | None = None,
                       max_tokens: int | None = None,
                       server_tools: Sequence[dict[str, Any]] = (),
                       tool_choice: dict[str, Any] | None = None) -> SideAnswer:
        from cc.core.client import ModelRequest
        from cc.core.query_loop import output_caps
        from cc.prompts.builder import PromptSection

        engine = self._engine
        cap = max_tokens or output_caps(engine.model, engine.config.max_output_tokens)[0]
        request = ModelRequest(
            model=engine.model, max_tokens=cap,
            system=[PromptSection("side", system, cacheable=False)] if system else [],
            messages=[{"role": "user", "content": prompt}], tools=list(server_tools),
            tool_choice=tool_choice, headers={"x-claude-code-session-id": engine.session_id},
            session_id=engine.session_id,
        )
        answer = await engine.ask(request)
        if answer is None:
            return SideAnswer("", ok=False)
        return SideAnswer(answer.text, [b.to_api() for b in answer.content])
