"""Messages: the conversation, and its repair before every API call.

The conversation holds User, Assistant, System (UI/transcript only, never sent)
and CompactBoundary (a summary standing in for everything before it) messages.
`normalize_messages_for_api()` makes any such list acceptable to the API:
  1. pairing: every tool_use is answered in the next user message (a synthetic
     error result when missing) and orphan tool_results are dropped;
  2. alternation: consecutive user messages merge, two assistants get a
     placeholder user between them;
  3. a leading assistant gets a placeholder user in front.
"""

from __future__ import annotations

import uuid as _uuid
from dataclasses import dataclass, field
from typing import Any

from cc.models.content_blocks import (
    ContentBlock,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
)

MISSING_RESULT_TEXT = "[Tool result missing due to internal error]"
CONTINUE_PLACEHOLDER = "Continue."
BEGIN_PLACEHOLDER = "Begin."


def new_uuid() -> str:
    return str(_uuid.uuid4())


def system_reminder(text: str) -> str:
    """`text` marked as added by the system rather than typed by the user."""
    return f"<system-reminder>\n{text}\n</system-reminder>"


@dataclass
class UserMessage:
    content: list[ContentBlock]
    uuid: str = field(default_factory=new_uuid)
    #: Added by the system (a continuation request, a notice), not typed by the user.
    is_meta: bool = False
    #: Structured tool output (Claude Code's `toolUseResult`) when this carries results.
    tool_use_result: Any = None
    role: str = field(default="user", init=False)

    @classmethod
    def text(cls, text: str, *, is_meta: bool = False) -> UserMessage:
        return cls([TextBlock(text)], is_meta=is_meta)

    def to_api(self) -> dict[str, Any]:
        return {"role": "user", "content": [b.to_api() for b in self.content]}


@dataclass
class AssistantMessage:
    content: list[ContentBlock]
    uuid: str = field(default_factory=new_uuid)
    message_id: str | None = None
    model: str | None = None
    stop_reason: str | None = None
    usage: dict[str, Any] = field(default_factory=dict)
    #: Cut short by an interrupt while it streamed: what had been shown when it stopped.
    aborted: bool = False
    role: str = field(default="assistant", init=False)

    @property
    def tool_uses(self) -> list[ToolUseBlock]:
        return [b for b in self.content if isinstance(b, ToolUseBlock)]

    @property
    def text(self) -> str:
        return "".join(b.text for b in self.content if isinstance(b, TextBlock))

    def to_api(self) -> dict[str, Any]:
        return {"role": "assistant", "content": [b.to_api() for b in self.content]}


@dataclass
class SystemMessage:
    """A notice for the user and the transcript; never sent to the model."""

    text: str
    level: str = "info"
    subtype: str = "informational"
    uuid: str = field(default_factory=new_uuid)
    role: str = field(default="system", init=False)


@dataclass
class CompactBoundaryMessage:
    """Everything before this point, summarized. Sent as a user message.

    In a transcript it is two lines: the boundary (`uuid`) and the summary
    (`summary_uuid`). `preserved` names the transcript lines of the messages kept
    verbatim after it, which stay where they are on file (none: a full compaction).
    Neither says anything about the conversation, so equality leaves them out.
    """

    summary: str
    trigger: str = "auto"
    pre_tokens: int = 0
    post_tokens: int = 0
    duration_ms: int = 0
    uuid: str = field(default_factory=new_uuid)
    role: str = field(default="user", init=False)
    summary_uuid: str = field(default_factory=new_uuid, compare=False)
    preserved: list[str] = field(default_factory=list, compare=False)
    #: Deferred tools ToolSearch had loaded before it: they stay loaded after it.
    loaded_tools: list[str] = field(default_factory=list, compare=False)

    def to_api(self) -> dict[str, Any]:
        return {"role": "user", "content": [{"type": "text", "text": self.summary}]}


Message = UserMessage | AssistantMessage | SystemMessage | CompactBoundaryMessage


def normalize_messages_for_api(messages: list[Message]) -> list[dict[str, Any]]:
    """API-ready dicts for `messages`, repaired so that the API accepts them."""
    api = [m.to_api() for m in messages if not isinstance(m, SystemMessage)]
    if _well_formed(api):
        return api  # what the repairs would give back (the usual case: one quick pass)
    api = [m for m in api if m["content"]]
    api = _merge_consecutive_users(api)
    api = _ensure_tool_result_pairing(api)
    api = _merge_consecutive_users([m for m in api if m["content"]])
    return _fix_alternation(api)


def _well_formed(api: list[dict[str, Any]]) -> bool:
    """The repairs below would change nothing: no message is empty, the roles alternate
    from a user's, and each assistant's calls (distinct ids) are answered first thing in
    the user message after it, once each; no other message carries a result."""
    calls: set[str] = set()
    role = "assistant"  # what the first message must not be
    for msg in api:
        content = msg["content"]
        if not content or msg["role"] == role:
            return False
        role = msg["role"]
        if role == "assistant":
            ids = [b["id"] for b in content if b.get("type") == "tool_use"]
            calls = set(ids)
            if len(calls) != len(ids):
                return False
            continue
        n = len(calls)
        if {b.get("tool_use_id") for b in content[:n] if b.get("type") == "tool_result"} != calls:
            return False
        if any(b.get("type") == "tool_result" for b in content[n:]):
            return False
        calls = set()
    return not calls


def _merge_consecutive_users(api: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for msg in api:
        if out and msg["role"] == "user" and out[-1]["role"] == "user":
            merged = out[-1]["content"] + msg["content"]
            out[-1] = {"role": "user", "content": _results_first(merged)}
        else:
            out.append({"role": msg["role"], "content": list(msg["content"])})
    return out


def _results_first(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    results = [b for b in blocks if b.get("type") == "tool_result"]
    others = [b for b in blocks if b.get("type") != "tool_result"]
    return results + others


def _ensure_tool_result_pairing(api: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Answer every tool_use in the next user message; drop results that answer nothing."""
    out: list[dict[str, Any]] = []
    pending: list[str] = []  # tool_use ids of the assistant message just passed
    for msg in api:
        if msg["role"] == "assistant":
            if pending:
                out.append({"role": "user", "content": _synthetic_results(pending)})
            out.append(msg)
            pending = _dedupe([b["id"] for b in msg["content"] if b.get("type") == "tool_use"])
            continue
        wanted = set(pending)
        kept: list[dict[str, Any]] = []
        for block in msg["content"]:
            if block.get("type") == "tool_result":
                if block.get("tool_use_id") not in wanted:
                    continue  # orphan, or a second answer to the same call
                wanted.discard(block["tool_use_id"])
            kept.append(block)
        missing = [tid for tid in pending if tid in wanted]
        out.append({"role": "user", "content": _results_first(_synthetic_results(missing) + kept)})
        pending = []
    if pending:
        out.append({"role": "user", "content": _synthetic_results(pending)})
    return out


def _dedupe(ids: list[str]) -> list[str]:
    return list(dict.fromkeys(ids))


def _synthetic_results(ids: list[str]) -> list[dict[str, Any]]:
    return [ToolResultBlock(tid, MISSING_RESULT_TEXT, is_error=True).to_api() for tid in ids]


def _fix_alternation(api: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for msg in api:
        if msg["role"] == "assistant":
            if not out:
                out.append(_placeholder(BEGIN_PLACEHOLDER))
            elif out[-1]["role"] == "assistant":
                out.append(_placeholder(CONTINUE_PLACEHOLDER))
        out.append(msg)
    return out


def _placeholder(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}]}
