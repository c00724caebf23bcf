"""QueryEngine: one conversation, and everything a request to the model needs.

It owns the messages, model, tools, system prompt, permission and hook gates,
and usage. Three entries:
  submit(text)             print mode: wrap the text as a user message, run a turn
  run_turn()               REPL: the message is already appended; run a turn
  submit_messages(msgs)    sub-agents: a separate message list; ours untouched
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field

from cc.core.events import (
    AssistantEvent,
    Event,
    PermissionDenied,
    RequestStart,
    Terminal,
)
from cc.core.query_loop import LoopDeps, ModelStreamer, query_loop
from cc.models.messages import Message, UserMessage, new_uuid
from cc.models.state import QueryState
from cc.models.usage import UsageTotals
from cc.prompts.builder import PromptSection
from cc.tools.executor import Denial, ToolExecutor
from cc.tools.registry import ToolRegistry

INTERRUPTED_TEXT = "[Request interrupted by user]"


@dataclass
class EngineConfig:
    model: str
    system: Sequence[PromptSection]
    max_turns: int | None = None
    thinking_budget: int | None = None
    max_output_tokens: int | None = None
    permission_mode: str = "default"
    session_id: str = field(default_factory=new_uuid)


class QueryEngine:
    def __init__(
        self,
        config: EngineConfig,
        client: ModelStreamer,
        registry: ToolRegistry,
        executor: ToolExecutor,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self.client = client
        self.registry = registry
        self.executor = executor
        self.messages: list[Message] = []
        self.usage = UsageTotals()
        self.permission_denials: list[Denial] = []
        self.last_state: QueryState | None = None
        self._clock = clock
        executor.on_denial = self.permission_denials.append

    @property
    def model(self) -> str:
        return self.config.model

    @property
    def session_id(self) -> str:
        return self.config.session_id

    def set_model(self, model: str) -> None:
        self.config.model = model

    async def submit(self, prompt: str | UserMessage) -> AsyncIterator[Event]:
        message = prompt if isinstance(prompt, UserMessage) else UserMessage.text(prompt)
        self.messages.append(message)
        async for event in self.run_turn():
            yield event

    async def run_turn(self) -> AsyncIterator[Event]:
        async for event in self._drive(self.messages):
            yield event

    async def submit_messages(self, messages: list[Message]) -> AsyncIterator[Event]:
        async for event in self._drive(messages):
            yield event

    async def _drive(self, messages: list[Message]) -> AsyncIterator[Event]:
        state = QueryState(model=self.config.model, max_turns=self.config.max_turns)
        self.last_state = state
        deps = LoopDeps(
            client=self.client,
            executor=self.executor,
            system=self.config.system,
            tools=self.registry.api_definitions,
            thinking_budget=self.config.thinking_budget,
            default_max_output=self.config.max_output_tokens,
            notifications=self._notifications,
        )
        seen_denials = len(self.permission_denials)
        request_started: float | None = None
        try:
            async for event in query_loop(messages, state, deps):
                if isinstance(event, RequestStart):
                    request_started = self._clock()
                elif isinstance(event, (AssistantEvent, Terminal)) and request_started:
                    self.usage.api_duration_ms += int((self._clock() - request_started) * 1000)
                    request_started = None
                if isinstance(event, AssistantEvent):
                    msg = event.message
                    self.usage.add(msg.model or state.model, msg.usage)
                for denial in self.permission_denials[seen_denials:]:
                    yield PermissionDenied(
                        denial.tool_name, denial.tool_use_id, denial.tool_input, denial.message
                    )
                seen_denials = len(self.permission_denials)
                if isinstance(event, Terminal):
                    event.details["num_turns"] = state.turn_count
                yield event
        except (asyncio.CancelledError, GeneratorExit):
            messages.append(UserMessage.text(INTERRUPTED_TEXT, is_meta=True))
            raise

    def _notifications(self) -> list[str]:
        tasks = self.executor.ctx.tasks
        return tasks.drain_notifications() if tasks is not None else []

    async def aclose(self) -> None:
        """End of the session: stop background commands, drop the shell, close the connection."""
        ctx = self.executor.ctx
        if ctx.tasks is not None:
            await ctx.tasks.close()
        if ctx.shell is not None:
            ctx.shell.close()
        await self.client.close()

    def clear(self) -> None:
        """Start a new conversation (the REPL's /clear)."""
        self.messages.clear()
        self.config.session_id = new_uuid()
