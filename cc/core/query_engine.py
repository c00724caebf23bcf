"""QueryEngine: one conversation, and everything a request to the model needs.

It owns the messages (it is their only writer), model, tools, system prompt,
permission and hook gates, usage, and one news queue. Two entries:
  submit(text)             a prompt: UserPromptSubmit hooks, then a turn
  run_turn()               a turn on the conversation as it is (news, a resumed run)
Named operations change the conversation otherwise: `compact()`, `replace_messages()`
(resume), `clear()`, `rewind_to()` (back to before a prompt).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from cc.core.budget import Budget
from cc.core.controls import RequestControls
from cc.core.denials import Denial, DenialLog
from cc.core.events import (
    AssistantEvent,
    Event,
    Notice,
    PermissionDenied,
    RequestStart,
    Terminal,
    ToolDone,
    TurnSummary,
    UserEvent,
)
from cc.core.news import NewsQueue, Source
from cc.core.pipeline.executor import ToolExecutor
from cc.core.query_loop import ContextManager, LoopDeps, ModelStreamer, query_loop, result_line
from cc.core.supervisor import Supervisor
from cc.core.timing import TurnTiming
from cc.core.toolset import Toolset
from cc.models.content_blocks import TextBlock
from cc.models.messages import Message, UserMessage, new_uuid, system_reminder
from cc.models.state import QueryState
from cc.models.usage import UsageTotals
from cc.prompts.builder import PromptSection
from cc.tools.base import ToolContext
from cc.tools.registry import ToolRegistry

if TYPE_CHECKING:
    from pathlib import Path

    from cc.core.client import ModelRequest
    from cc.core.events import AgentInfo
    from cc.core.news import NewsSource
    from cc.core.pipeline.checkpoints import Checkpoints
    from cc.hooks.runner import HookOutcome, HookRunner
    from cc.models.messages import AssistantMessage
    from cc.permissions.ask import UserChannel
    from cc.tools.services import AgentServices

INTERRUPTED_TEXT = "[Request interrupted by user]"
#: (session id, its transcript) -> the checkpoints of that session (None: untracked).
CheckpointFactory = Callable[[str, "TranscriptSink | None"], "Checkpoints | None"]


class TranscriptSink(Protocol):
    """Where the conversation is saved as it happens (`cc.session.transcript`)."""

    path: Path

    def sync(self, messages: Iterable[Message]) -> None: ...

    def record_tool_result(self, user_line: UserMessage) -> None: ...

    def lines_of(self, messages: Iterable[Message]) -> list[str]: ...

    def branch_from(self, messages: Sequence[Message]) -> None:
        """The next line hangs off the last line of `messages` (a rewind's cut)."""
        ...

    def close(self) -> None: ...


class ContextKeeper(ContextManager, Protocol):
    """Compaction, as the engine uses it (`cc.compact.compactor`)."""

    def compact(self, messages: list[Message], trigger: str,
                custom: str | None = None) -> AsyncIterator[Event]: ...


@dataclass
class EngineConfig:
    model: str
    system: Sequence[PromptSection]
    max_turns: int | None = None
    thinking_budget: int | None = None
    max_output_tokens: int | None = None
    session_id: str = field(default_factory=new_uuid)
    #: The answer is a StructuredOutput call, and this many that do not conform end a
    #: turn (`--json-schema`); None: the answer is the model's text.
    structured_output: int | None = None
    #: `--max-budget-usd`: what the session may spend (its agents' spending included).
    max_budget_usd: float | None = None
    #: `--fallback-model`: where a turn goes when its model is busy or missing.
    fallback_models: tuple[str, ...] = ()
    #: Thinking mode, effort, task budget, betas (`cc.core.controls`).
    controls: RequestControls = field(default_factory=RequestControls)


class QueryEngine:
    def __init__(
        self,
        config: EngineConfig,
        client: ModelStreamer,
        registry: ToolRegistry,
        executor: ToolExecutor,
        *,
        hooks: HookRunner | None = None,
        clock: Callable[[], float] = time.monotonic,
        shares_with_parent: bool = False,
        denials: DenialLog | None = None,
        agent: AgentInfo | None = None,
        is_fork: bool = False,
        messages: Sequence[Message] = (),
        news: Sequence[NewsSource] = (),
        tool_search: bool = False,
    ) -> None:
        self.config = config
        self.hooks = hooks
        self.client = client
        self.registry = registry
        self.executor = executor
        self.messages: list[Message] = list(messages)
        #: The conversation's tools: offered, deferred, loaded (`cc.core.toolset`).
        self.toolset = Toolset(registry, lambda: self.messages, search=tool_search)
        self.usage = UsageTotals()
        #: The session's refused calls, its agents' too (a sub-agent is given its
        #: parent's log; the main agent's engine starts it).
        self.denials = denials if denials is not None else DenialLog()
        self.last_state: QueryState | None = None
        #: Where the current (or last) turn started: clock, tokens, tool uses so far.
        self._turn_start = (0.0, 0, 0)
        #: How long the current (or last) turn took to reach the model and hear back.
        self._timing = TurnTiming(0.0)
        self._tool_uses = 0
        #: Where the conversation is saved as it happens (None: not saved), and how
        #: to start a new one for a new session id (after /clear).
        self.transcript: TranscriptSink | None = None
        self.transcript_factory: Callable[[str], TranscriptSink] | None = None
        #: The checkpoints of the session a transcript belongs to (its file history),
        #: made each time the transcript changes (None: files are not tracked).
        self.checkpoint_factory: CheckpointFactory | None = None
        #: Problems saving the transcript, for the UI to show once.
        self.warnings: list[str] = []
        #: The client and sandbox belong to someone else (the session), who closes them.
        self.shares_with_parent = shares_with_parent
        #: A sub-agent's engine: who it is (None: the session's main agent).
        self.agent = agent
        #: A fork sub-agent (it holds its parent's context, and may not fork again).
        self.is_fork = is_fork
        #: What keeps the conversation within the window (the factory gives it one
        #: while it builds the engine; None: never compacted).
        self.compactor: ContextKeeper | None = None
        #: What its tools see of it (bound by the factory while it builds the engine).
        self.services: AgentServices | None = None
        #: When the model last answered (on `clock`); None: not in this process.
        self._last_response_at: float | None = None
        #: Called when a turn of this conversation starts, and when one completes
        #: (memory extraction: it waits for the session to sit idle).
        self._start_listeners: list[Callable[[], None]] = []
        self._turn_listeners: list[Callable[[], None]] = []
        #: Undoes of the grants that last until the running turn ends.
        self._turn_grants: list[Callable[[], None]] = []
        #: What waits for the next request: background commands and agents that ended,
        #: letters (a team's, a teammate's mailbox), texts posted to it.
        ctx = executor.ctx
        commands = Source(lambda: ctx.tasks.drain_notifications() if ctx.tasks else [])
        agents = Source(lambda: ctx.agent_tasks.drain_notifications() if ctx.agent_tasks else [],
                        lambda: ctx.agent_tasks is not None and ctx.agent_tasks.has_news)
        announce = Source(self.toolset.announcement)
        self.news = NewsQueue([commands, agents, *news, announce], on_wake=lambda: (
            ctx.agent_tasks.wake() if ctx.agent_tasks is not None else None))
        #: Background work and open resources, all ended by `aclose()`.
        self.supervisor = Supervisor()
        self._own_resources(executor.ctx)
        #: Unknown content block types already warned about (once per session).
        self._warned_block_types: set[str] = set()
        self._clock = clock
        self._end_request: str | None = None
        executor.on_denial = self.note_denial

    @property
    def model(self) -> str:
        return self.config.model

    @property
    def agent_id(self) -> str | None:
        """The sub-agent this engine runs (None: the session's main agent)."""
        return self.agent.agent_id if self.agent is not None else None

    def note_denial(self, denial: Denial) -> None:
        """A call of this engine's was refused: into the session's log, as this agent's."""
        self.denials.add(dataclasses.replace(denial, agent_id=self.agent_id))

    @property
    def permission_denials(self) -> list[Denial]:
        """This agent's own refused calls (the session's are `denials`)."""
        return self.denials.of(self.agent_id)

    @property
    def session_id(self) -> str:
        return self.config.session_id

    @property
    def permission_mode(self) -> str:
        """The mode of the permission checker, its one owner."""
        return str(getattr(self.executor.permissions, "mode", "default"))

    def _request_headers(self) -> dict[str, str]:
        """What every request of this agent carries: its session, and a sub-agent's id."""
        headers = {"x-claude-code-session-id": self.session_id}
        if self.agent:
            headers["x-claude-code-agent-id"] = self.agent.agent_id
        return headers

    def use_channel(self, channel: UserChannel) -> None:
        """Who answers this engine's questions from now on; each ask becomes an event
        (of this engine: another engine's channel is taken without its wrapper)."""
        from cc.core.channel import ObservedChannel

        if isinstance(channel, ObservedChannel):
            channel = channel.inner
        gate = self.executor.permissions
        if hasattr(gate, "channel"):
            gate.channel = ObservedChannel(channel)  # type: ignore[attr-defined]

    @property
    def channel(self) -> UserChannel:
        from cc.permissions.ask import NO_ONE

        return getattr(self.executor.permissions, "channel", NO_ONE)

    async def compact(self, instructions: str | None = None) -> AsyncIterator[Event]:
        """`/compact`: summarise the conversation now."""
        if self.compactor is None:
            yield Notice("Compaction is not available in this session", level="warning")
            return
        async for event in self.compactor.compact(self.messages, "manual", instructions):
            yield event

    def set_model(self, model: str) -> None:
        """The model of this conversation from now on (the system prompt's model line
        follows it)."""
        from cc.prompts.builder import with_model

        self.config.model = model
        self.config.system = with_model(self.config.system, model)

    def on_turn_start(self, listener: Callable[[], None]) -> None:
        """Call `listener` when a turn of this conversation starts."""
        self._start_listeners.append(listener)

    def on_turn_end(self, listener: Callable[[], None]) -> None:
        """Call `listener` when a turn of this conversation completes."""
        self._turn_listeners.append(listener)

    def grant_for_turn(self, rules: Sequence[str]) -> list[str]:
        """Allow `rules` in this agent until the running turn ends (a skill's
        `allowed-tools`); the warnings for rules that do not parse."""
        from cc.permissions.checker import PermissionChecker
        from cc.permissions.grants import grant_rules

        gate = self.executor.permissions
        if not rules:
            return []
        if not isinstance(gate, PermissionChecker):
            return ["this agent's permissions take no grants"]
        undo, warnings = grant_rules(gate, rules)
        self._turn_grants.append(undo)
        return warnings

    async def ask(self, request: ModelRequest) -> AssistantMessage | None:
        """One request beside the conversation (a summary, a side question), with the
        retry layer; what it costs is this agent's, and it carries this agent's session
        and id as its conversation's requests do. None if it failed."""
        from cc.core.retry import stream_with_retries
        from cc.errors import ModelCallError
        from cc.models.messages import AssistantMessage

        request = dataclasses.replace(
            request, headers=self._request_headers() | request.headers,
            session_id=request.session_id or self.session_id)
        try:
            async for item in stream_with_retries(lambda: self.client.stream(request)):
                if isinstance(item, AssistantMessage):
                    self.usage.add(item.model or request.model, item.usage)
                    return item
        except ModelCallError:
            return None
        return None

    def append(self, *messages: Message) -> None:
        """Messages join the conversation between turns (a `!` line's output, a turn's
        prompt, context a hook added), saved at once."""
        self.messages.extend(messages)
        self.save()

    def replace_messages(self, messages: Sequence[Message]) -> None:
        """The conversation is another one from now on (a resumed session's)."""
        self.messages[:] = list(messages)

    def set_session_id(self, session_id: str) -> None:
        """The session this conversation belongs to (a resumed one's, or a fork's new
        one); the engine is its one owner, and its hooks report it."""
        self.config.session_id = session_id
        if self.hooks is not None:
            self.hooks.session_id = session_id

    def use_transcript_factory(self, factory: Callable[[str], TranscriptSink] | None) -> None:
        """How to start a transcript for a new session id (after /clear)."""
        self.transcript_factory = factory

    async def submit(self, prompt: str | UserMessage) -> AsyncIterator[Event]:
        """A user prompt: UserPromptSubmit hooks first, then a turn."""
        message = prompt if isinstance(prompt, UserMessage) else UserMessage.text(prompt)
        if self.hooks is not None:
            text = "".join(b.text for b in message.content if isinstance(b, TextBlock))
            outcome = await self.hooks.user_prompt_submit(text)
            for note in outcome.user_messages:
                yield Notice(note, level="warning")
            if outcome.stop or outcome.blocked:
                reason = outcome.stop_reason if outcome.stop else outcome.reason
                reason = reason or "A UserPromptSubmit hook blocked it"
                # Print mode's result, as Claude Code words it: the block and the prompt.
                said = next((m for m in outcome.user_messages if "blocked by hook" in m), reason)
                result = "" if outcome.stop else f"{said}\n\n\nOriginal prompt: {text}"
                yield Terminal("hook_stopped", error=reason, details={"result": result})
                return
            self.messages.append(message)
            context = self._context_message(outcome)
            if context is not None:
                self.messages.append(context)
        else:
            self.messages.append(message)
        self.save()
        notice = await self._checkpoint(message.uuid)
        if notice is not None:
            yield notice
        yield UserEvent(message)
        async for event in self.run_turn():
            yield event

    @property
    def checkpoints(self) -> Checkpoints | None:
        """Where this conversation's file changes are backed up (`cc.core.pipeline`)."""
        return self.executor.checkpoints

    async def _checkpoint(self, message_id: str) -> Notice | None:
        """A checkpoint for a prompt of the session's own (an agent's changes join the
        checkpoint of the prompt its session is in)."""
        if self.executor.checkpoints is None or self.agent is not None:
            return None
        try:
            await self.executor.checkpoints.before_prompt(message_id)
        except OSError as exc:
            return Notice(f"Could not save a checkpoint for this prompt "
                          f"({exc.strerror or exc}); it cannot be rewound to.", level="warning")
        return None

    def rewind_to(self, message_id: str) -> UserMessage | None:
        """The conversation goes back to just before the prompt `message_id`, which is
        returned (None: no such message, and nothing changes). The transcript's next
        line hangs off the last message kept, so a resume sees the cut."""
        for i, message in enumerate(self.messages):
            if message.uuid == message_id and isinstance(message, UserMessage):
                del self.messages[i:]
                if self.transcript is not None:
                    self.transcript.branch_from(self.messages)
                return message
        return None

    async def run_turn(self) -> AsyncIterator[Event]:
        async for event in self._drive(self.messages):
            yield event

    async def _drive(self, messages: list[Message]) -> AsyncIterator[Event]:
        state = QueryState(model=self.config.model, max_turns=self.config.max_turns)
        self.last_state = state
        self._turn_start = (self._clock(), self.usage.total.tokens, self._tool_uses)
        self._timing = TurnTiming(self._turn_start[0])
        deps = LoopDeps(
            client=self.client,
            executor=self.executor,
            system=self.config.system,
            tools=self.toolset.definitions,
            tool_references=self.toolset.defers,
            thinking_budget=self.config.thinking_budget,
            controls=self.config.controls,
            default_max_output=self.config.max_output_tokens,
            notifications=self.news.drain,
            hooks=self.hooks,
            warned_block_types=self._warned_block_types,
            headers=self._request_headers(),
            context=self.compactor,
            end_requested=self._take_end_request,
            structured_output=self.config.structured_output,
            budget=self._budget(),
            fallback_models=self.config.fallback_models,
            session_id=self.session_id,
            mode=lambda: self.permission_mode,
        )
        seen_denials = len(self.denials)
        request_started: float | None = None
        ours = messages is self.messages
        if ours:
            for listener in self._start_listeners:
                listener()
        try:
            async for event in query_loop(messages, state, deps):
                self._timing.saw(event, self._clock)
                if ours:
                    if isinstance(event, ToolDone):
                        self._save_result(event)
                    elif isinstance(event, (UserEvent, AssistantEvent, Terminal)):
                        self.save()  # only these follow a change to the conversation
                if isinstance(event, ToolDone):
                    self._tool_uses += 1
                if isinstance(event, RequestStart):
                    request_started = self._clock()
                elif isinstance(event, (AssistantEvent, Terminal)) and request_started:
                    self.usage.api_duration_ms += int((self._clock() - request_started) * 1000)
                    request_started = None
                if isinstance(event, AssistantEvent):
                    msg = event.message
                    self.usage.add(msg.model or state.model, msg.usage)
                    self._last_response_at = self._clock()
                for denial in self.denials.since(seen_denials):
                    if denial.agent_id == self.agent_id:  # an agent's come wrapped
                        yield PermissionDenied(denial)
                seen_denials = len(self.denials)
                if isinstance(event, Terminal):
                    event = dataclasses.replace(event, summary=self.summarize())
                    if ours and event.ok:
                        for listener in self._turn_listeners:
                            listener()
                yield event
        except (asyncio.CancelledError, GeneratorExit):
            messages.append(UserMessage.text(INTERRUPTED_TEXT, is_meta=True))
            raise
        finally:
            while self._turn_grants:
                self._turn_grants.pop()()
            if ours:
                self.save()

    def _budget(self) -> Budget | None:
        limit = self.config.max_budget_usd
        return None if limit is None else Budget(limit, lambda: self.usage.cost_usd)

    def seconds_since_response(self) -> float | None:
        """How long ago the model last answered (None: not yet in this process), which
        says whether the prompt cache is likely still warm."""
        last = self._last_response_at
        return None if last is None else self._clock() - last

    def summarize(self) -> TurnSummary:
        """The figures of the current (or last) turn, and the session's so far."""
        state = self.last_state
        started, tokens, tools = self._turn_start
        return TurnSummary(
            session_id=self.session_id,
            model=self.model,
            num_turns=state.turn_count if state else 0,
            max_turns=self.config.max_turns,
            safety_stops=state.safety_stops if state else 0,
            usage=self.usage.snapshot(),
            total_tokens=self.usage.total.tokens - tokens,
            tool_uses=self._tool_uses - tools,
            duration_ms=int((self._clock() - started) * 1000) if state else 0,
            timing=self._timing.fields,
        )

    async def wait_for_background(self) -> bool:
        """Wait until a background agent ends if any runs; whether there is news for the
        model (print mode then starts another turn, as Claude Code does)."""
        agents = self.executor.ctx.agent_tasks
        if agents is None:
            return False
        while not self.has_news() and agents.running:
            agents.changed.clear()
            await agents.changed.wait()
        return self.has_news()

    def has_news(self) -> bool:
        """Whether something waits for the model's next request: a background agent's
        end, a teammate's letter (an idle REPL or print mode starts a turn for it)."""
        return self.news.has_news()

    def end_turn_after_tools(self, reason: str) -> None:
        """A tool asks the current turn to end once the results of its message are in."""
        self._end_request = reason

    def _take_end_request(self) -> str | None:
        reason, self._end_request = self._end_request, None
        return reason

    def wake(self) -> None:
        """Something arrived for this engine's next request (a teammate's message)."""
        self.news.wake()

    def save(self) -> None:
        """Write whatever the transcript does not have yet (cheap when nothing is new)."""
        if self.transcript is None:
            return
        try:
            self.transcript.sync(self.messages)
        except OSError as exc:
            self._stop_saving(exc)

    def _save_result(self, done: ToolDone) -> None:
        if self.transcript is None:
            return
        try:
            self.transcript.record_tool_result(result_line(done))
        except OSError as exc:
            self._stop_saving(exc)

    def _stop_saving(self, exc: OSError) -> None:
        path = self.transcript.path if self.transcript else "?"
        self.warnings.append(f"Could not save the conversation to {path}: {exc}; not saving it")
        self.transcript = None

    async def start_session(self, source: str, *, setup: bool = False) -> list[str]:
        """SessionStart hooks (startup, resume, clear, compact), or with `setup` the Setup
        hooks (init, maintenance); notices for the user."""
        if self.hooks is None:
            return []
        outcome = await (self.hooks.setup(source) if setup
                         else self.hooks.session_start(source, model=self.model))
        context = self._context_message(outcome)
        if context is not None:
            self.messages.append(context)
            self.save()
        return list(outcome.user_messages)

    async def end_session(self, reason: str) -> None:
        if self.hooks is not None:
            await self.hooks.session_end(reason)

    @staticmethod
    def _context_message(outcome: HookOutcome) -> UserMessage | None:
        if not outcome.additional_context:
            return None
        return UserMessage.text(system_reminder(outcome.additional_context), is_meta=True)

    def _own_resources(self, ctx: ToolContext) -> None:
        """What `aclose()` ends, in this order: background commands, the shell, then the
        sandbox and the connection (unless the session owns them). Read from the context
        when closing: a test may attach a shell later."""

        async def tasks() -> None:
            if ctx.tasks is not None:
                await ctx.tasks.close()

        async def agents() -> None:
            if ctx.agent_tasks is not None:
                await ctx.agent_tasks.close()

        async def sandbox() -> None:
            if ctx.sandbox is not None:
                await ctx.sandbox.close()

        if not self.shares_with_parent:
            self.supervisor.on_close(self.client.close)
            self.supervisor.on_close(sandbox)
        self.supervisor.on_close(lambda: ctx.shell.close() if ctx.shell is not None else None)
        self.supervisor.on_close(tasks)
        self.supervisor.on_close(agents)

    async def aclose(self) -> None:
        """End of the session: the transcript, then the supervisor (background work,
        background commands, the shell, the connection)."""
        if self.transcript is not None:
            self.transcript.close()
        await self.supervisor.aclose()

    def use_transcript(self, writer: TranscriptSink | None) -> None:
        """Save to `writer` from now on (closing the one before); hooks learn the path
        (a sub-agent's hooks keep the session's: its own is `agent_transcript_path`)."""
        if self.transcript is not None and self.transcript is not writer:
            self.transcript.close()
        self.transcript = writer
        if self.checkpoint_factory is not None:
            self.executor.checkpoints = self.checkpoint_factory(self.config.session_id, writer)
        if self.hooks is not None:
            self.hooks.session_id = self.config.session_id
            if self.agent is None:
                self.hooks.transcript_path = str(writer.path) if writer else None

    def clear(self) -> None:
        """Start a new conversation under a new session id (the REPL's /clear)."""
        self.messages.clear()
        self.executor.ctx.todos.clear()
        self.set_session_id(new_uuid())
        factory = self.transcript_factory
        self.use_transcript(factory(self.config.session_id) if factory else None)
