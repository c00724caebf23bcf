"""The query loop: an async-generator state machine over one user turn.

Each iteration has four phases:
  1. prepare   notices in, then the context manager (trims, compaction), then the request
  2. stream    call the model; tools start as their tool_use blocks complete
  3. recover   retries happen inside `stream_with_retries`; what is left is fatal
  4. collect   tool results, in tool_use order, become one user message

It continues in three cases: a recovered error (not counted as a turn), a
max_tokens stop (raise the output cap, then ask the model to go on, at most 3
times; a tool call cut off mid-input never runs and is answered with an error
saying so), and tool_use. An empty answer gets one nudge. It ends in four: an
unrecoverable error (a refusal, or recoveries spent, included), an answer with
no tool_use, the max-turns limit, and an answer that brings the spending to the
budget (`--max-budget-usd`; its calls never run). With `--json-schema` the answer
is a StructuredOutput call instead (`cc.core.structured_answer`): one that
conforms ends the turn, too many that do not end it too. Every way out yields a
`Terminal`.

Only a whole message reaches this loop (the client voids a stream that did not
end); if the turn is interrupted while text streams, the text already shown is
kept in the conversation.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Sequence
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Any, Protocol

from cc.core.budget import Budget
from cc.core.client import ModelRequest
from cc.core.controls import RequestControls
from cc.core.events import (
    AssistantEvent,
    BlockComplete,
    Compacted,
    Event,
    ModelFallback,
    Notice,
    RequestStart,
    StreamDiscarded,
    Terminal,
    TextDelta,
    ToolDone,
    UserEvent,
)
from cc.core.fallback import FallbackChain
from cc.core.pipeline.executor import ToolExecutor
from cc.core.pipeline.streaming import StreamingToolExecutor
from cc.core.retry import stream_with_retries
from cc.core.structured_answer import after_results, ask_for_call
from cc.errors import ModelCallError, PromptTooLongError
from cc.models.catalog import model_for_mode, model_info
from cc.models.content_blocks import (
    ContentBlock,
    OpaqueBlock,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
    parse_block,
)
from cc.models.messages import (
    AssistantMessage,
    Message,
    UserMessage,
    normalize_messages_for_api,
    system_reminder,
)
from cc.models.state import QueryState
from cc.prompts import load_text
from cc.prompts.builder import PromptSection
from cc.tools.base import ToolResult

#: A configured cap (CLAUDE_CODE_MAX_OUTPUT_TOKENS) is raised to this after a max_tokens
#: stop; unconfigured, a request asks for the model's whole cap, as Claude Code's do.
ESCALATED_MAX_OUTPUT = 65_536
MAX_TOKENS_RECOVERIES = 3

#: Model-facing texts of the loop, in cc/prompts/loop/.
CONTINUE_AFTER_MAX_TOKENS = "loop/continue_after_max_tokens.md"
NUDGE_AFTER_EMPTY = "loop/nudge_after_empty.md"
REFUSAL_NOTE = "loop/refusal_note.md"
CUT_TOOL_USE = "loop/cut_tool_use.md"
TOO_LONG_AGAIN = (
    "The conversation is still too long for the model's context window after compacting "
    "it. Use /compact with instructions to keep less, or /clear to start afresh."
)
REFUSAL_NOTICE = "The model's safeguards stopped that response · continuing once with that noted"
REFUSAL_ERROR = (
    "The model declined to respond (stop_reason: refusal), twice in a row. Rephrase the "
    "request, or try another model."
)


class TurnHooks(Protocol):
    """What the loop needs of the hooks beyond the tool pipeline."""

    async def stop_check(self, stop_hook_active: bool,
                         last_assistant_message: str | None = None) -> str | None:
        """Asked when the model ends its turn; a reason keeps the turn going."""
        ...

    def take_stop(self) -> Any:
        """A hook's `continue: false` (with a `reason`), or None."""
        ...

    async def post_tool_batch(
        self, calls: list[tuple[str, dict[str, Any], str, ToolResult]]
    ) -> str | None:
        """All of a message's calls have results: feedback for the model, if any."""
        ...

    async def stop_failure(self, error: str, last_assistant_message: str | None) -> None:
        """The turn ends on an API error of this kind."""
        ...

    async def message_display(self, message_id: str, text: str) -> None:
        """A message of the model's with text is shown."""
        ...

    def drain_user_messages(self) -> list[str]: ...


class ContextManager(Protocol):
    """What keeps the conversation within the window (cc.compact.compactor)."""

    def before_request(self, messages: list[Message], state: QueryState) -> AsyncIterator[Event]:
        """Compact first if the context has grown past the threshold."""
        ...

    async def reactive(self, messages: list[Message], state: QueryState) -> list[Event]:
        """The prompt was too long: compact (once a turn); a `Compacted` among the events
        means the request may be sent again."""
        ...


class ModelStreamer(Protocol):
    def stream(self, request: ModelRequest, *, streaming: bool = True) -> AsyncIterator[Any]: ...

    async def close(self) -> None: ...


@dataclass
class LoopDeps:
    client: ModelStreamer
    executor: ToolExecutor
    system: Sequence[PromptSection]
    tools: Callable[[], list[dict[str, Any]]]
    thinking_budget: int | None = None
    #: Thinking mode, effort, task budget, betas (`cc.core.controls`).
    controls: RequestControls = field(default_factory=RequestControls)
    default_max_output: int | None = None
    #: Notices to put before the next request (e.g. background commands that ended).
    notifications: Callable[[], list[str]] | None = None
    hooks: TurnHooks | None = None
    #: Block types already warned about as unknown (the engine keeps one set per session).
    warned_block_types: set[str] = field(default_factory=set)
    #: HTTP headers every request of this agent carries.
    headers: dict[str, str] = field(default_factory=dict)
    #: Compaction (None: the conversation is never shrunk).
    context: ContextManager | None = None
    #: Whether a tool asked the turn to end once its results are in (a teammate whose
    #: shutdown was approved): the reason, taken.
    end_requested: Callable[[], str | None] | None = None
    #: Whether `tool_reference` blocks may go to the API (tool search on); if not, they
    #: go as text.
    tool_references: bool = True
    #: The answer is a StructuredOutput call (`--json-schema`), and this many that do
    #: not conform end the turn; None: the answer is the model's text.
    structured_output: int | None = None
    #: `--max-budget-usd` (None: no limit): the turn ends once an answer reaches it.
    budget: Budget | None = None
    #: `--fallback-model`: where a turn goes when its model is busy or missing.
    fallback_models: tuple[str, ...] = ()
    #: The session the requests belong to (their metadata names it).
    session_id: str | None = None
    #: The permission mode now (`opusplan` asks Opus in plan mode, Sonnet otherwise).
    mode: Callable[[], str] | None = None


def output_caps(model: str, configured: int | None) -> tuple[int, int]:
    """(first cap, escalated cap) for `model`."""
    ceiling = model_info(model).max_output_tokens
    first = min(configured or ceiling, ceiling)
    return first, max(first, min(ESCALATED_MAX_OUTPUT, ceiling))


@dataclass(frozen=True)
class Again:
    """Ask the model again: the turn goes on (a recovery is not counted as a turn)."""


@dataclass(frozen=True)
class End:
    """The turn is over; a Terminal has been yielded."""


@dataclass(frozen=True)
class RunTools:
    """Run the message's calls and send their results; `cut` is answered with an error."""

    cut: ToolUseBlock | None = None


@dataclass(frozen=True)
class AskStopHooks:
    """The model answered without calls: once its answer is out, the Stop hooks say
    whether the turn ends."""

    assistant: AssistantMessage


Transition = Again | End | RunTools | AskStopHooks
_AGAIN, _END = Again(), End()


async def query_loop(
    messages: list[Message], state: QueryState, deps: LoopDeps
) -> AsyncIterator[Event]:
    """Drive the model and tools until the turn ends; `messages` grows in place."""
    caps = output_caps(state.model, deps.default_max_output)
    chain = FallbackChain(deps.fallback_models) if deps.fallback_models else None
    while True:
        # Phase 1: prepare.
        for event in _take_notifications(messages, deps):
            yield event
        if deps.context is not None:
            async for event in deps.context.before_request(messages, state):
                yield event
        request = _prepare(messages, state, deps, caps[0])

        # Phase 2: stream, starting tools as their blocks complete.
        state.turn_count += 1
        turn = _Streamed(StreamingToolExecutor(deps.executor))
        try:
            async with aclosing(_stream(request, deps, turn, state, chain)) as streaming:
                async for event in streaming:
                    yield event
        except (asyncio.CancelledError, GeneratorExit):
            _keep_shown_text(messages, turn)
            raise

        # Phase 3: recover, or see how the message ended.
        events, after = await _settle(turn, state, messages, deps, caps)
        for event in events:
            yield event
        if isinstance(after, AskStopHooks):
            events, after = await _stop_hooks(after.assistant, state, messages, deps)
            for event in events:
                yield event
        if isinstance(after, Again):
            continue
        if isinstance(after, End):
            return

        # Phase 4: collect the results, in tool_use order, as one user message.
        assert turn.assistant is not None
        collecting = _collect(turn.assistant, turn.tools, messages, after.cut)
        done: dict[str, ToolResult] = {}
        async with aclosing(collecting) as results:
            async for event in results:
                if isinstance(event, ToolDone):
                    done[event.tool_use.id] = event.result
                yield event
        if (batch := await _post_tool_batch(turn.assistant, done, messages, deps)) is not None:
            yield batch
        ending = _after_tools(turn.assistant, state, deps, cut=after.cut,
                              results=list(done.values()))
        for event in ending:
            yield event
        if ending and isinstance(ending[-1], Terminal):
            return


async def _settle(
    turn: _Streamed,
    state: QueryState,
    messages: list[Message],
    deps: LoopDeps,
    caps: tuple[int, int],
) -> tuple[list[Event], Transition]:
    """What the finished call means for the turn, and the events that say so."""
    if turn.error is not None:  # what the retry module could not recover
        if isinstance(turn.error, PromptTooLongError) and deps.context is not None:
            return await _too_long(turn.error, state, messages, deps)
        if deps.hooks is not None:
            await deps.hooks.stop_failure(turn.error.kind, turn.error.message)
        return [_error_terminal(turn.error)], _END
    assistant = turn.assistant
    assert assistant is not None, "a finished stream always ends with its message"
    notices: list[Event] = list(_unknown_block_notices(assistant, deps))
    if assistant.stop_reason == "refusal":
        await turn.tools.cancel()
        events, after = _refused(assistant, state, messages)
    elif _is_empty(assistant):
        await turn.tools.cancel()
        events, after = _empty(assistant, state, messages)
    elif assistant.stop_reason == "max_tokens" and (state.max_output_tokens or caps[0]) < caps[1]:
        # Raise the cap once and ask again: cheaper than stitching pieces. Only
        # read-only calls have started, and running those again changes nothing.
        await turn.tools.cancel()
        state.max_output_tokens = caps[1]
        state.turn_count -= 1
        events = [StreamDiscarded(), Notice(f"Output cap reached; retrying with {caps[1]} tokens")]
        after = _AGAIN
    else:
        for call in turn.held:  # the message is whole: calls that change things may start
            turn.tools.add(call)
        turn.held.clear()
        events, after = await _finished(assistant, turn.tools, state, messages, deps)
    return notices + events, after


async def _too_long(
    error: PromptTooLongError, state: QueryState, messages: list[Message], deps: LoopDeps
) -> tuple[list[Event], Transition]:
    """Compact and send again, once in a turn; a second time, the turn ends."""
    assert deps.context is not None
    first = not state.compact.reactive_attempted
    events = await deps.context.reactive(messages, state)
    if any(isinstance(e, Compacted) for e in events):
        state.turn_count -= 1  # the request is sent again; not a turn of its own
        return events, _AGAIN
    text = TOO_LONG_AGAIN if not first else f"{error.message} (compacting did not help)"
    return [*events, Terminal("prompt_too_long", error=text, error_kind=error.kind,
                              details={"status": error.status})], _END


def _refused(
    assistant: AssistantMessage, state: QueryState, messages: list[Message]
) -> tuple[list[Event], Transition]:
    """Keep what the model said (not its calls); say so once and go on, then give up."""
    state.safety_stops += 1
    events: list[Event] = []
    said: list[ContentBlock] = [b for b in assistant.content if not isinstance(b, ToolUseBlock)]
    if said:
        assistant.content = said
        messages.append(assistant)
        events.append(AssistantEvent(assistant))
    if state.safety_stops > 1:
        events.append(Terminal("api_error", error=REFUSAL_ERROR, error_kind="refusal",
                               stop_reason="refusal"))
        return events, _END
    events.append(Notice(REFUSAL_NOTICE, level="warning"))
    events.append(_append_meta(messages, load_text(REFUSAL_NOTE).strip()))
    return events, _AGAIN


def _empty(
    assistant: AssistantMessage, state: QueryState, messages: list[Message]
) -> tuple[list[Event], Transition]:
    """Nothing to keep (the API refuses blank messages): ask once, then stop."""
    if state.nudged_after_empty:
        return [Terminal("completed", stop_reason=assistant.stop_reason)], _END
    state.nudged_after_empty = True
    state.turn_count -= 1
    return [_append_meta(messages, load_text(NUDGE_AFTER_EMPTY).strip())], _AGAIN


async def _finished(
    assistant: AssistantMessage,
    tools: StreamingToolExecutor,
    state: QueryState,
    messages: list[Message],
    deps: LoopDeps,
) -> tuple[list[Event], Transition]:
    """A message to keep: run its calls, ask for the rest of a cut one, or end the turn."""
    if deps.budget is not None and deps.budget.reached_with(assistant, state.model):
        await tools.cancel()  # its calls never run
        messages.append(assistant)
        error = deps.budget.error(assistant, state.model)
        return [AssistantEvent(assistant), Terminal(
            "budget_exhausted", error=error, stop_reason=assistant.stop_reason,
            details={"limit_usd": deps.budget.limit_usd})], _END
    cut = _cut_off_call(assistant)
    if assistant.stop_reason == "max_tokens":
        state.max_tokens_recoveries += 1
        state.turn_count -= 1
        if cut is None and not assistant.tool_uses:
            await tools.cancel()
            events: list[Event] = []
            if assistant.content:
                messages.append(assistant)
                events.append(AssistantEvent(assistant))
            if state.max_tokens_recoveries > MAX_TOKENS_RECOVERIES:
                return events + [_cut_off_terminal(tool=False)], _END
            text = load_text(CONTINUE_AFTER_MAX_TOKENS).strip()
            return events + [_append_meta(messages, text)], _AGAIN
    messages.append(assistant)
    events = [AssistantEvent(assistant)]
    if deps.hooks is not None and assistant.text.strip():
        await deps.hooks.message_display(assistant.uuid, assistant.text)
    if assistant.tool_uses:
        return events, RunTools(cut)
    await tools.cancel()
    if deps.structured_output is not None and (ask := ask_for_call(state)) is not None:
        return events + [_append_meta(messages, ask, synthetic=True)], _AGAIN
    return events, AskStopHooks(assistant)


async def _stop_hooks(
    assistant: AssistantMessage, state: QueryState, messages: list[Message], deps: LoopDeps
) -> tuple[list[Event], Again | End]:
    """The turn ends, unless a Stop hook objects (its reason is then the next prompt)."""
    objection = (
        await deps.hooks.stop_check(state.stop_hook_active, assistant.text)
        if deps.hooks else None
    )
    events: list[Event] = list(_hook_events(deps))
    if events and isinstance(events[-1], Terminal):
        return events, _END
    if objection:
        state.stop_hook_active = True
        return events + [_append_meta(messages, objection)], _AGAIN
    return events + [Terminal("completed", stop_reason=assistant.stop_reason)], _END


async def _post_tool_batch(assistant: AssistantMessage, done: dict[str, ToolResult],
                           messages: list[Message], deps: LoopDeps) -> UserEvent | None:
    """PostToolBatch hooks, once the message's calls all have results; what they say for
    the model joins the conversation before the next request."""
    if deps.hooks is None:
        return None
    calls = [(u.name, u.input, u.id, done[u.id]) for u in assistant.tool_uses if u.id in done]
    feedback = await deps.hooks.post_tool_batch(calls) if calls else None
    return _append_meta(messages, feedback) if feedback else None


def _after_tools(
    assistant: AssistantMessage, state: QueryState, deps: LoopDeps, *,
    cut: ToolUseBlock | None, results: Sequence[ToolResult] = (),
) -> list[Notice | Terminal]:
    """Once the results are in: stop if recoveries are spent, a hook said so, the
    structured answer is settled, or turns ran out."""
    if cut is not None and state.max_tokens_recoveries > MAX_TOKENS_RECOVERIES:
        return [_cut_off_terminal(tool=True)]
    events = _hook_events(deps)
    if events and isinstance(events[-1], Terminal):
        return events
    if deps.structured_output is not None and (end := after_results(
            results, state, deps.structured_output, assistant.stop_reason)) is not None:
        return [*events, end]
    if deps.end_requested is not None and (reason := deps.end_requested()) is not None:
        return [*events, Terminal("completed", error=None, stop_reason=reason)]
    if state.max_turns is not None and state.turn_count + 1 > state.max_turns:
        state.turn_count += 1
        events.append(Terminal(
            "max_turns",
            error=f"Reached maximum number of turns ({state.max_turns})",
            stop_reason=assistant.stop_reason,
        ))
    return events


def _keep_shown_text(messages: list[Message], turn: _Streamed) -> None:
    """An interrupted stream: what the user already read stays in the conversation."""
    shown = "".join(turn.shown_text)
    if shown.strip():
        messages.append(AssistantMessage([TextBlock(shown)], stop_reason=None, aborted=True))


def _is_empty(assistant: AssistantMessage) -> bool:
    return assistant.stop_reason in ("end_turn", "stop_sequence", None) and all(
        isinstance(b, TextBlock) and not b.text.strip() for b in assistant.content
    )


def _cut_off_terminal(*, tool: bool) -> Terminal:
    what = "a tool call" if tool else "the response"
    return Terminal(
        "malformed_tool_use_exhausted" if tool else "model_error",
        error=(
            f"The output token limit cut off {what} {MAX_TOKENS_RECOVERIES + 1} times in a "
            "row; stopped (set CLAUDE_CODE_MAX_OUTPUT_TOKENS higher, or ask for smaller steps)"
        ),
        error_kind="max_output_tokens",
        stop_reason="max_tokens",
    )


def _unknown_block_notices(assistant: AssistantMessage, deps: LoopDeps) -> list[Notice]:
    notices = []
    for block in assistant.content:
        if isinstance(block, OpaqueBlock) and not block.known:
            if block.type not in deps.warned_block_types:
                deps.warned_block_types.add(block.type)
                notices.append(Notice(
                    f"The API sent a content block of a type cc does not know "
                    f"({block.type!r}); it is kept and sent back unchanged",
                    level="warning",
                ))
    return notices


def _take_notifications(messages: list[Message], deps: LoopDeps) -> list[UserEvent]:
    notes = deps.notifications() if deps.notifications else []
    return [_append_meta(messages, system_reminder("\n".join(notes)))] if notes else []


def _append_meta(messages: list[Message], text: str, *, synthetic: bool = False) -> UserEvent:
    """A system-added user message (a notice, a continuation request)."""
    message = UserMessage.text(text, is_meta=True)
    messages.append(message)
    return UserEvent(message, synthetic=synthetic)


def _prepare(
    messages: list[Message], state: QueryState, deps: LoopDeps, first_cap: int
) -> ModelRequest:
    from cc.core.toolset import without_references

    api_messages = normalize_messages_for_api(messages)
    tools = deps.tools()
    # A reference may only name a tool the request defers (a tool gone since is text).
    api_messages = without_references(api_messages, keep=frozenset(
        t["name"] for t in tools if t.get("defer_loading")) if deps.tool_references
        else frozenset())
    model = model_for_mode(state.model, deps.mode() if deps.mode is not None else None)
    return ModelRequest(
        model=model,
        # (a fallback model may have a lower ceiling than the turn's first)
        max_tokens=min(state.max_output_tokens or first_cap,
                       model_info(model).max_output_tokens),
        system=deps.system,
        messages=api_messages,
        tools=tools,
        thinking_budget=deps.thinking_budget,
        headers=deps.headers,
        controls=deps.controls,
        session_id=deps.session_id,
    )


@dataclass
class _Streamed:
    """What one model call left: its message (or the error), and the tools it started."""

    tools: StreamingToolExecutor
    assistant: AssistantMessage | None = None
    error: ModelCallError | None = None
    #: Calls that may change things, started only once the whole message has arrived.
    held: list[ToolUseBlock] = field(default_factory=list)
    #: Text the user has seen of the current attempt (void if the attempt is discarded).
    shown_text: list[str] = field(default_factory=list)


async def _stream(
    request: ModelRequest, deps: LoopDeps, turn: _Streamed, state: QueryState,
    chain: FallbackChain | None,
) -> AsyncGenerator[Event, None]:
    def change_model(error: ModelCallError) -> ModelFallback | None:
        """`--fallback-model`: this request, and the rest of the turn, on the next model."""
        nonlocal request
        moved = chain.after(error, request.model) if chain is not None else None
        if moved is not None:
            ceiling = model_info(moved.fallback).max_output_tokens
            request = dataclasses.replace(request, model=moved.fallback,
                                          max_tokens=min(request.max_tokens, ceiling))
            state.model = moved.fallback
        return moved

    try:
        yield RequestStart(request.model)
        async for item in stream_with_retries(
            lambda: deps.client.stream(request),
            fallback=lambda: deps.client.stream(request, streaming=False),
            change_model=change_model if chain is not None else None,
        ):
            if isinstance(item, AssistantMessage):
                turn.assistant = item
                continue
            if isinstance(item, TextDelta):
                turn.shown_text.append(item.text)
            elif isinstance(item, StreamDiscarded):
                await turn.tools.cancel()
                turn.tools = StreamingToolExecutor(deps.executor)
                turn.held.clear()
                turn.shown_text.clear()
            elif isinstance(item, BlockComplete) and isinstance(item.block, ToolUseBlock):
                # Whole (the client announces no cut-off call). A read-only call starts
                # at once; one that may change things waits for the message to end, so
                # a stream that breaks later leaves nothing half-done behind.
                if turn.tools.starts_early(item.block):
                    turn.tools.add(item.block)
                else:
                    turn.held.append(item.block)
            yield item
    except ModelCallError as error:
        await turn.tools.cancel()
        turn.error = error
    except (asyncio.CancelledError, GeneratorExit):
        await turn.tools.cancel()
        raise


def _error_terminal(error: ModelCallError) -> Terminal:
    reason = "prompt_too_long" if isinstance(error, PromptTooLongError) else "api_error"
    return Terminal(reason, error=error.message, error_kind=error.kind,
                    details={"status": error.status, "type": error.api_type})


def _cut_off_call(assistant: AssistantMessage) -> ToolUseBlock | None:
    """The call the output cap cut off mid-input (never announced, so never started)."""
    last = assistant.content[-1] if assistant.content else None
    if assistant.stop_reason == "max_tokens" and isinstance(last, ToolUseBlock):
        return last
    return None


async def _collect(
    assistant: AssistantMessage,
    tools: StreamingToolExecutor,
    messages: list[Message],
    cut: ToolUseBlock | None,
) -> AsyncGenerator[Event, None]:
    tools.close()
    done: dict[str, ToolDone] = {}
    if cut is not None:
        received = json.dumps(cut.input, ensure_ascii=False)
        if len(received) > 2000:
            received = received[:2000] + "…"
        error = ToolResult(load_text(CUT_TOOL_USE).strip().format(received=received), is_error=True)
        done[cut.id] = ToolDone(cut, error)
    try:
        async for event in tools.events():
            if isinstance(event, ToolDone):
                done[event.tool_use.id] = event
            yield event
    except (asyncio.CancelledError, GeneratorExit):
        for event in await tools.cancel():
            done.setdefault(event.tool_use.id, event)
        messages.append(_results_message(assistant.tool_uses, done))
        raise
    results = _results_message(assistant.tool_uses, done)
    messages.append(results)
    yield UserEvent(results)


def _hook_events(deps: LoopDeps) -> list[Notice | Terminal]:
    """What hooks said for the user, then a Terminal if one asked to stop the turn."""
    if deps.hooks is None:
        return []
    events: list[Notice | Terminal] = [
        Notice(m, level="warning") for m in deps.hooks.drain_user_messages()
    ]
    stop = deps.hooks.take_stop()
    if stop is not None:
        reason = getattr(stop, "reason", None) or "A hook stopped the turn"
        # The reason is for the user; print mode's result is empty, as Claude Code's is.
        events.append(Terminal("hook_stopped", error=reason, details={"result": ""}))
    return events


def result_line(done: ToolDone) -> UserMessage:
    """One tool result as its own user message (a transcript writes it as it arrives;
    its extra blocks come with the whole message)."""
    return _results_message([done.tool_use], {done.tool_use.id: done}, extras=False)


def _results_message(tool_uses: list[ToolUseBlock], done: dict[str, ToolDone], *,
                     extras: bool = True) -> UserMessage:
    """The results in call order, then the blocks results carry beside them (the API
    wants every tool_result first)."""
    blocks: list[ContentBlock] = []
    after: list[ContentBlock] = []
    data = []
    for tool_use in tool_uses:
        event = done.get(tool_use.id)
        if event is None:
            continue  # normalize_messages_for_api supplies the missing result
        result = event.result
        blocks.append(ToolResultBlock(tool_use.id, result.content, is_error=result.is_error))
        if extras:
            after.extend(parse_block(b) for b in result.extra_blocks)
        plain = result.content if isinstance(result.content, str) else None
        data.append(result.data if result.data is not None else plain)
    return UserMessage([*blocks, *after], tool_use_result=data[0] if len(data) == 1 else data)
