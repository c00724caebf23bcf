"""Typed events the core yields. UIs (REPL, print-mode writers) consume them.

The core never prints: everything a user may see travels as one of these.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cc.core.denials import Denial
from cc.errors import ModelCallError
from cc.identity import AgentInfo
from cc.models.content_blocks import ContentBlock, ToolUseBlock
from cc.models.messages import AssistantMessage, CompactBoundaryMessage, UserMessage
from cc.models.usage import UsageTotals
from cc.permissions.ask import AskAnswer, PermissionRequest
from cc.tools.base import ToolResult


@dataclass(frozen=True)
class RequestStart:
    """A model request is about to be sent (one per attempt)."""

    model: str
    attempt: int = 1


@dataclass(frozen=True)
class StreamEvent:
    """One raw event of the model's response stream (for `--include-partial-messages`;
    void, like the rest, if a StreamDiscarded follows): `raw`, the event as the API sent
    it (read, never changed), and `kind`, its type."""

    raw: dict[str, Any]
    kind: str = ""


@dataclass(frozen=True)
class TextDelta:
    text: str


@dataclass(frozen=True)
class ThinkingStarted:
    """The model is thinking; its text stays in the conversation, not on screen."""


@dataclass(frozen=True)
class BlockComplete:
    """A content block finished streaming (tools start on this)."""

    index: int
    block: ContentBlock


@dataclass(frozen=True)
class StreamDiscarded:
    """A stream broke halfway: whatever was shown of it is void."""


@dataclass(frozen=True)
class AssistantEvent:
    message: AssistantMessage


@dataclass(frozen=True)
class ToolStart:
    tool_use: ToolUseBlock


@dataclass(frozen=True)
class ToolProgress:
    tool_use_id: str
    text: str


@dataclass(frozen=True)
class ToolDone:
    tool_use: ToolUseBlock
    result: ToolResult


@dataclass(frozen=True)
class UserEvent:
    """A user message joined the conversation (tool results, a continuation request).
    `synthetic`: a request the harness wrote for the model that Claude Code's stream
    shows (`isSynthetic`), such as the one asking for the StructuredOutput call."""

    message: UserMessage
    synthetic: bool = False


@dataclass(frozen=True)
class RetryEvent:
    attempt: int
    max_retries: int
    delay_s: float
    error: ModelCallError

    @property
    def summary(self) -> str:
        """One line for a person: what failed, and when the next attempt goes out."""
        delay = f"{self.delay_s:.1f}s" if self.delay_s < 10 else f"{self.delay_s:.0f}s"
        return (f"{self.error.message} · retrying in {delay} "
                f"(attempt {self.attempt}/{self.max_retries})")


@dataclass(frozen=True)
class ModelFallback:
    """The turn moved from `original` to `fallback` (`--fallback-model`) because of
    `trigger`: model_not_found, server_error or overloaded."""

    original: str
    fallback: str
    trigger: str

    @property
    def summary(self) -> str:
        """One line for a person."""
        why = {"model_not_found": "was not found", "overloaded": "is overloaded"}.get(
            self.trigger, "answered with a server error")
        return f"{self.original} {why}; this turn goes on with {self.fallback}"


@dataclass(frozen=True)
class Notice:
    text: str
    level: str = "info"


@dataclass(frozen=True)
class PermissionDenied:
    """A call of this agent's was refused (the session's log has it too)."""

    denial: Denial


@dataclass(frozen=True)
class CompactionStarted:
    """The conversation is being summarised (`trigger`: manual or auto)."""

    trigger: str


@dataclass(frozen=True)
class Compacted:
    """The conversation now starts from `boundary`'s summary."""

    trigger: str
    pre_tokens: int
    post_tokens: int
    duration_ms: int
    boundary: CompactBoundaryMessage


@dataclass(frozen=True)
class CompactionFailed:
    """Nothing was compacted; the messages are as they were."""

    trigger: str
    reason: str


@dataclass(frozen=True)
class SubagentEvent:
    """An event of a sub-agent, passed up its parent's stream."""

    agent: AgentInfo
    event: Event


@dataclass(frozen=True)
class PermissionAsked:
    """A tool call needs approval, and the session's channel was asked."""

    request: PermissionRequest


@dataclass(frozen=True)
class PermissionAnswered:
    request: PermissionRequest
    answer: AskAnswer


@dataclass(frozen=True)
class TurnSummary:
    """What a writer reports when a turn ends, so it never reads the engine."""

    session_id: str
    model: str
    #: Model requests that made progress this turn, and how many the limit allows.
    num_turns: int = 0
    max_turns: int | None = None
    safety_stops: int = 0
    #: The session's usage so far (what Claude Code's result record reports) ...
    usage: UsageTotals = field(default_factory=UsageTotals)
    #: ... and this turn's share of it.
    total_tokens: int = 0
    tool_uses: int = 0
    duration_ms: int = 0
    #: How long the turn took to reach the model and hear back (`cc.core.timing`).
    timing: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Terminal:
    """The turn is over. `reason` uses Claude Code's terminal_reason names."""

    reason: str
    error: str | None = None
    error_kind: str | None = None
    stop_reason: str | None = None
    details: dict[str, Any] = field(default_factory=dict)
    #: Set by the engine on the Terminal it passes on.
    summary: TurnSummary | None = None
    #: The turn's answer, given by a StructuredOutput call that conformed to the schema
    #: (`--json-schema`); None: the answer is the last message's text.
    structured_output: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.reason == "completed"


Event = (
    RequestStart
    | StreamEvent
    | TextDelta
    | ThinkingStarted
    | BlockComplete
    | StreamDiscarded
    | AssistantEvent
    | ToolStart
    | ToolProgress
    | ToolDone
    | UserEvent
    | RetryEvent
    | ModelFallback
    | Notice
    | PermissionDenied
    | PermissionAsked
    | PermissionAnswered
    | SubagentEvent
    | CompactionStarted
    | Compacted
    | CompactionFailed
    | Terminal
)
