"""From the lines of the conversation (`chain.build_chain`) to messages.

- Consecutive assistant lines sharing `message.id` become one AssistantMessage, also when
  tool results were written between them (they then follow the whole message).
- Consecutive user lines holding only tool results become one UserMessage, with
  `tool_use_result` a list when there are several (as the query loop builds it).
- A `compact_boundary` line and the summary after it become a CompactBoundaryMessage,
  and everything before it is dropped. Lines a partial compaction kept verbatim
  (`Entry.preserved`) come after the summary; their assistant usage figures are zeroed,
  as Claude Code does, since they tell the size of a context that no longer exists.
- Each message's lines are noted (`lines`: message uuid -> line uuids), for a later
  compaction to refer to.
- A line with a content block we do not know is skipped with a warning; so is a line
  whose shape is wrong. Whitespace-only text blocks (the API refuses them) are dropped.
"""

from __future__ import annotations

from typing import Any

from cc.errors import UnknownBlockError
from cc.models.content_blocks import ContentBlock, TextBlock, ToolResultBlock, parse_content
from cc.models.messages import (
    AssistantMessage,
    CompactBoundaryMessage,
    Message,
    SystemMessage,
    UserMessage,
)
from cc.models.usage import zeroed_usage
from cc.session.entry import Entry
from cc.session.lines import SYNTHETIC_MODEL


class _Decoder:
    def __init__(self) -> None:
        self.out: list[Message] = []
        self.warnings: list[str] = []
        #: per tool-results message (by uuid): each result's structured output, in order
        self.result_data: dict[str, list[Any]] = {}
        self.boundary: Entry | None = None
        self.seen: set[str] = set()
        #: message uuid -> the uuids of the lines it was read from
        self.lines: dict[str, list[str]] = {}

    def feed(self, entry: Entry) -> None:
        if entry.uuid in self.seen:
            return
        self.seen.add(entry.uuid or "")
        if self.boundary is not None and entry.type in ("user", "assistant", "system"):
            boundary, self.boundary = self.boundary, None
            if not entry.is_compact_summary:
                self._warn(entry, "a compaction boundary has no summary after it; ignored")
            else:
                self._compacted(entry, boundary)
                return
        if entry.is_boundary:
            self.boundary = entry
        elif entry.is_compact_summary:
            self._compacted(entry, None)
        elif entry.type == "user":
            self._user(entry)
        elif entry.type == "assistant":
            self._assistant(entry)
        elif entry.type == "system":
            self._system(entry)

    def finish(self) -> list[Message]:
        if self.boundary is not None:
            self._warn(self.boundary, "a compaction boundary has no summary after it; ignored")
        for message in self.out:
            data = self.result_data.get(message.uuid)
            if isinstance(message, UserMessage) and data is not None:
                message.tool_use_result = data[0] if len(data) == 1 else data
        return self.out

    # -- kinds --------------------------------------------------------------------------

    def _compacted(self, summary: Entry, boundary: Entry | None) -> None:
        content = summary.content
        if isinstance(content, list):
            content = "\n".join(
                b.get("text", "")
                for b in content
                if isinstance(b, dict) and b.get("type") == "text"
            )
        if not isinstance(content, str) or not content.strip():
            self._warn(summary, "a compaction summary is empty; ignored")
            return
        meta = (boundary.data.get("compactMetadata") if boundary else None) or {}
        message = CompactBoundaryMessage(
            content,
            trigger=str(meta.get("trigger") or "auto"),
            pre_tokens=_int(meta.get("preTokens")),
            uuid=(boundary or summary).uuid or "",
            summary_uuid=summary.uuid or "",
            loaded_tools=[t for t in meta.get("loadedTools") or [] if isinstance(t, str)],
        )
        self.out = [message]
        self._note(message, boundary)
        self._note(message, summary)
        self.result_data.clear()

    def _user(self, entry: Entry) -> None:
        blocks = self._blocks(entry)
        if not blocks:
            return
        is_meta = bool(entry.data.get("isMeta"))
        results = all(isinstance(b, ToolResultBlock) for b in blocks)
        data = entry.data.get("toolUseResult")
        last = self.out[-1] if self.out else None
        if (
            results
            and not is_meta
            and isinstance(last, UserMessage)
            and last.uuid in self.result_data
        ):
            last.content.extend(blocks)
            self.result_data[last.uuid].extend(_per_result(data, len(blocks)))
            self._note(last, entry)
            return
        message = UserMessage(blocks, uuid=entry.uuid or "", is_meta=is_meta)
        self.out.append(message)
        self._note(message, entry)
        if results and not is_meta:
            self.result_data[message.uuid] = _per_result(data, len(blocks))
        else:
            message.tool_use_result = data

    def _assistant(self, entry: Entry) -> None:
        raw = entry.data.get("message")
        if entry.data.get("isApiErrorMessage"):
            text = "".join(b.get("text", "") for b in entry.blocks_of("text"))
            error = SystemMessage(
                text or "API error", level="error", subtype="api_error", uuid=entry.uuid or ""
            )
            self.out.append(error)
            self._note(error, entry)
            return
        blocks = self._blocks(entry)
        if not blocks or not isinstance(raw, dict):
            return
        usage: dict[str, Any] = raw["usage"] if isinstance(raw.get("usage"), dict) else {}
        if entry.preserved:
            usage = zeroed_usage(usage)
        target = self._open_assistant(entry.message_id)
        if target is not None:
            target.content.extend(blocks)
            target.stop_reason = raw.get("stop_reason") or target.stop_reason
            target.usage = usage or target.usage
            self._note(target, entry)
            return
        model = raw.get("model")
        message = AssistantMessage(
            blocks,
            uuid=entry.uuid or "",
            message_id=entry.message_id,
            model=None if model == SYNTHETIC_MODEL else model,
            stop_reason=raw.get("stop_reason"),
            usage=usage,
            aborted=entry.data.get("isAbortedMidStream") is True,
        )
        self.out.append(message)
        self._note(message, entry)

    def _open_assistant(self, message_id: str | None) -> AssistantMessage | None:
        """The assistant message that a line with `message_id` continues: the latest
        one, if only its tool results came after it."""
        if message_id is None:
            return None
        for message in reversed(self.out):
            if isinstance(message, AssistantMessage):
                return message if message.message_id == message_id else None
            if not (isinstance(message, UserMessage) and message.uuid in self.result_data):
                return None
        return None

    def _system(self, entry: Entry) -> None:
        text = entry.data.get("content")
        if not isinstance(text, str) or not text:
            return
        message = SystemMessage(
            text,
            level=str(entry.data.get("level") or "info"),
            subtype=str(entry.data.get("subtype") or "informational"),
            uuid=entry.uuid or "",
        )
        self.out.append(message)
        self._note(message, entry)

    # -- helpers ------------------------------------------------------------------------

    def _blocks(self, entry: Entry) -> list[ContentBlock]:
        raw = entry.content
        if not isinstance(raw, (str, list)):
            self._warn(entry, f"a {entry.type} line has no message content; skipped")
            return []
        try:
            blocks = parse_content(raw)
        except UnknownBlockError as exc:
            self._warn(entry, f"{exc}; the line was skipped")
            return []
        return [b for b in blocks if not (isinstance(b, TextBlock) and not b.text.strip())]

    def _note(self, message: Message, entry: Entry | None) -> None:
        if entry is not None and entry.uuid is not None:
            self.lines.setdefault(message.uuid, []).append(entry.uuid)

    def _warn(self, entry: Entry, text: str) -> None:
        self.warnings.append(f"Line {entry.line_no} of the transcript: {text}.")


def _int(value: Any) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0


def _per_result(data: Any, count: int) -> list[Any]:
    if count == 1:
        return [data]
    if isinstance(data, list) and len(data) == count:
        return list(data)
    return [data] + [None] * (count - 1)


def decode_entries(
    entries: list[Entry],
) -> tuple[list[Message], list[str], dict[str, list[str]]]:
    """The messages of the conversation lines `entries` (in order), warnings, and the
    uuids of the lines each message was read from (by message uuid)."""
    decoder = _Decoder()
    for entry in entries:
        decoder.feed(entry)
    messages = decoder.finish()
    return messages, decoder.warnings, {m.uuid: decoder.lines.get(m.uuid, []) for m in messages}
