"""The transcript line format, shared by the writer and the reader.

Every message-bearing line has Claude Code's envelope::

    {"parentUuid": <uuid of the line before, null for the first>, "isSidechain": false,
     "userType": "external", "cwd": "/abs", "sessionId": "<uuid>", "version": "0.1.0",
     "gitBranch": "main", "type": "user" | "assistant" | "system", "message": {...},
     "uuid": "<uuid>", "timestamp": "2026-01-02T03:04:05.678Z"}

- user: `message = {role, content}`; a tool result is one line per `tool_result`, with its
  structured output in `toolUseResult` and `sourceToolAssistantUUID`; `isMeta` marks text
  the system added.
- assistant: one line per content block, all sharing `message.id` (the full API message
  otherwise: `{id, type: "message", role, model, content: [block], stop_reason,
  stop_sequence, usage}`).
- system: `subtype`, `content`, `level`. A compaction is a `compact_boundary` line
  (`parentUuid: null`, `logicalParentUuid`, `compactMetadata: {trigger, preTokens,
  durationMs, postTokens}`) followed by a user line with `isCompactSummary: true` holding
  the summary. A partial one names the lines it kept verbatim, which stay where they
  are: `preservedSegment: {headUuid, anchorUuid, tailUuid}` and `preservedMessages:
  {anchorUuid, uuids, allUuids}`, the anchor being the summary line (cc.session.preserved).
- A teammate's lines also say who wrote them: `teamName` and `agentName` (the reader
  does not need them: a sidechain's `agentId` already names its agent).

Lines of other types (`summary`, `attachment`, `progress`, `file-history-snapshot`, ...)
are Claude Code's; we read past them.
"""

from __future__ import annotations

import json
import uuid as _uuid
from datetime import UTC, datetime
from typing import Any

USER_TYPE = "external"
COMPACT_BOUNDARY = "compact_boundary"
COMPACT_BOUNDARY_CONTENT = "Conversation compacted"
#: Claude Code's model name for a message it made up itself.
SYNTHETIC_MODEL = "<synthetic>"
#: The result given to a tool call that never got one because the session ended.
INTERRUPTED_TOOL_TEXT = (
    "[Tool call interrupted: the session ended before it finished. It may or may not have run.]"
)
#: Line types Claude Code writes that carry no conversation for us; skipped quietly.
KNOWN_SKIPPED_TYPES = frozenset(
    {
        "summary",
        "custom-title",
        "ai-title",
        "tag",
        "last-prompt",
        "permission-mode",
        "file-history-snapshot",
        "file-history-delta",
        "queue-operation",
        "progress",
        "attachment",
        "content-replacement",
        "agent-name",
        "pr-link",
    }
)
MESSAGE_TYPES = frozenset({"user", "assistant", "system"})

_DERIVED_NS = _uuid.UUID("6f1d3c2e-6b8a-4f57-9a0e-2b8f4c1d7e90")


def iso_timestamp(now: datetime) -> str:
    """`2026-01-02T03:04:05.678Z`: UTC, milliseconds, as JavaScript's toISOString()."""
    now = now.astimezone(UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def now_timestamp() -> str:
    """The present moment as `iso_timestamp` writes it (records, team files, letters)."""
    return iso_timestamp(datetime.now(UTC))


def derived_uuid(base: str, index: int) -> str:
    """The uuid of the `index`-th extra line written for the message with uuid `base`."""
    return str(_uuid.uuid5(_DERIVED_NS, f"{base}/{index}"))


def message_id_for(message_uuid: str) -> str:
    """An API-like message id for an assistant message that has none."""
    return "msg_" + message_uuid.replace("-", "")


def encode_line(line: dict[str, Any]) -> bytes:
    """One JSONL line, newline included. Compact, like JSON.stringify."""
    text = json.dumps(line, ensure_ascii=False, separators=(",", ":"))
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: escape them instead
        data = json.dumps(line, ensure_ascii=True, separators=(",", ":")).encode("ascii")
    return data + b"\n"
