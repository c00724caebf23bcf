"""TranscriptWriter: append a session's messages to its JSONL transcript as they happen.

Each message becomes one or more lines (see `cc.session.lines`), all written with ONE
`os.write` on a descriptor opened with `O_APPEND`, under an advisory `flock`, then
`fsync`ed (unless `fsync=False`). A single append is atomic on a regular file, so a
`kill -9` loses at most the message not yet recorded, and two processes writing to one
transcript never interleave halves of lines. The fsync runs on the writer's own thread
(one at a time, in order; the writes made while one waits to begin share it): the write
is in the kernel's hands when `record()` returns, and waiting for the disk (milliseconds
each, several a second with agents at work) would stall the event loop the REPL types
on. `close()` waits for the fsyncs, and a failed one is raised by the next write or by
`close()`. If the file ends in a torn line (a crash elsewhere), the next write starts
with a newline so that its lines stay whole.

The file is created on the first write (a session that records nothing leaves none).
Lines chain through `parentUuid`, each to the line written before it by this writer.
A sub-agent's lines are sidechain lines (`extra`: `isSidechain`, `agentId`); a
teammate's say who acts, `teamName` and `agentName` (a named agent of no team:
`agentName`), as the factory gives them from its identity.

With a `mirror` (`--session-mirror`), every batch of lines is also handed over once it
is on file (print mode writes them as stream-json `transcript_mirror` frames).

Tool results: `record_tool_result()` writes a result as soon as it exists; `record()` of
the combined results message later writes only the results not yet on file. A result
whose tool_use is not on file yet (the tool finished while the model was still
streaming) waits and is written right after its assistant message.

Compaction: the boundary and summary lines, with the lines of the messages kept verbatim
named in `compactMetadata` (`preservedSegment`, `preservedMessages`) as Claude Code
does; the kept lines stay where they are (see `cc.session.preserved` for the reading).
The writer knows which lines hold each message (`lines_of()`), its own and a resumed
session's (`mark_recorded(..., lines)`). A message on file that the boundary does not
name is behind it: recorded again, it is written again.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cc.identity import AgentInfo
from cc.models.content_blocks import ContentBlock, TextBlock, ToolResultBlock, ToolUseBlock
from cc.models.messages import (
    AssistantMessage,
    CompactBoundaryMessage,
    Message,
    SystemMessage,
    UserMessage,
)
from cc.session.git import GitBranch
from cc.session.lines import (
    COMPACT_BOUNDARY,
    COMPACT_BOUNDARY_CONTENT,
    SYNTHETIC_MODEL,
    USER_TYPE,
    derived_uuid,
    encode_line,
    iso_timestamp,
    message_id_for,
)

#: Who is told of the lines a writer puts on file: (its path, the lines as objects).
TranscriptMirror = Callable[[Path, list[dict[str, Any]]], None]


@dataclass
class _Draft:
    """A line before its envelope: type-specific fields, its uuid, and chain flags."""

    uuid: str
    fields: dict[str, Any]
    root: bool = False  # parentUuid null (a compaction boundary starts a new chain)
    #: tool_use ids this line answers / holds (bookkeeping once written).
    answers: list[str] = field(default_factory=list)
    holds: list[str] = field(default_factory=list)


class TranscriptWriter:
    def __init__(
        self,
        path: Path,
        *,
        session_id: str,
        cwd: Path,
        version: str,
        fsync: bool = True,
        parent_uuid: str | None = None,
        clock: Callable[[], datetime] | None = None,
        opening: Callable[[], list[dict[str, Any]]] | None = None,
    ) -> None:
        self.path = Path(path)
        self.session_id = session_id
        #: The cwd written on each line; the engine may update it when the shell moves.
        self.cwd = Path(cwd)
        self.version = version
        self.fsync = fsync
        self.last_uuid: str | None = parent_uuid
        #: Extra fields put on every line (a fork's `forkedFrom`, for instance).
        self.extra: dict[str, Any] = {}
        #: Told of every batch of lines once it is on file (`--session-mirror`).
        self.mirror: TranscriptMirror | None = None
        self._clock = clock or (lambda: datetime.now(UTC))
        self._branch = GitBranch(self.cwd)
        self._fd: int | None = None
        #: The thread that fsyncs (made on the first write), and its latest fsync.
        self._syncer: ThreadPoolExecutor | None = None
        self._synced: list[Future[None]] = []
        self._recorded: set[str] = set()  # message uuids already on file
        self._answered: dict[str, str] = {}  # tool_use id -> uuid of its result's line
        self._tool_lines: dict[str, str] = {}  # tool_use id -> uuid of its assistant line
        self._waiting: dict[str, _Draft] = {}  # results whose tool_use is not on file yet
        self._lines_of: dict[str, list[str]] = {}  # message uuid -> uuids of its lines
        self._on_file: set[str] = set()  # uuids of the lines written (or loaded)
        #: The context lines a new conversation opens with after its first prompt
        #: (`cc.session.opening`); None once written, or for a transcript that goes on.
        self._opening = opening if parent_uuid is None else None

    # -- public -------------------------------------------------------------------------

    def record(self, message: Message) -> None:
        """Write `message` (nothing if it was recorded already)."""
        if message.uuid in self._recorded:
            return
        if isinstance(message, AssistantMessage):
            drafts = self._assistant_drafts(message)
            lines = [d.uuid for d in drafts[: len(message.content)]]
        elif isinstance(message, UserMessage):
            drafts, lines = self._user_drafts(message)
            if self._opening is not None and self.last_uuid is None and not message.is_meta:
                drafts += [_Draft(derived_uuid(message.uuid, 1000 + i), fields)
                           for i, fields in enumerate(self._opening())]
                self._opening = None
        elif isinstance(message, SystemMessage):
            drafts = [_Draft(message.uuid, _system_fields(message))]
            lines = [message.uuid]
        elif isinstance(message, CompactBoundaryMessage):
            drafts = self._compact_drafts(message)
            lines = [d.uuid for d in drafts]
        else:  # pragma: no cover - the Message union is closed
            raise TypeError(f"cannot record {type(message).__name__}")
        self._append(drafts)
        self._recorded.add(message.uuid)
        self._lines_of[message.uuid] = lines

    def record_tool_result(self, user_line: UserMessage) -> None:
        """Write a message carrying one tool result now, before the combined message exists."""
        self.record(user_line)

    def record_compact_boundary(
        self, summary: str, trigger: str, pre_tokens: int
    ) -> CompactBoundaryMessage:
        """Write a compaction boundary and its summary; the message to put in the
        conversation in place of everything before it."""
        message = CompactBoundaryMessage(summary, trigger=trigger, pre_tokens=pre_tokens)
        self.record(message)
        return message

    def record_summary(self, summary: str) -> None:
        """Write a title line (`{"type": "summary", "summary", "leafUuid"}`, outside the
        chain); the resume picker shows the latest one."""
        line = {"type": "summary", "summary": summary, "leafUuid": self.last_uuid}
        self._write_lines([line])

    def record_title(self, title: str) -> None:
        """Write the name the user gave the session (/rename) as Claude Code does: a
        `custom-title` line and an `agent-name` line, outside the chain; the last wins."""
        self._write_lines([
            {"type": "custom-title", "customTitle": title, "sessionId": self.session_id},
            {"type": "agent-name", "agentName": title, "sessionId": self.session_id},
        ])

    def record_meta(self, lines: list[dict[str, Any]]) -> None:
        """Write bookkeeping lines outside the chain as they are (file-history lines)."""
        self._write_lines(lines)

    def branch_from(self, messages: Sequence[Message]) -> None:
        """The next line hangs off the last line on file of `messages` (none: it starts
        the chain): a rewind cuts the conversation there, and a resume follows the new
        branch once a line is written on it."""
        for message in reversed(messages):
            lines = [u for u in self._lines_of.get(message.uuid, ()) if u in self._on_file]
            if lines:
                self.last_uuid = lines[-1]
                return
        self.last_uuid = None

    def sync(self, messages: Iterable[Message]) -> None:
        """Record every message of `messages` not yet on file, in order."""
        for message in messages:
            if message.uuid not in self._recorded:
                self.record(message)

    def mark_recorded(
        self, messages: Iterable[Message], lines: Mapping[str, Sequence[str]] | None = None
    ) -> None:
        """Treat `messages` as already on file (a resumed session's loaded messages);
        `lines`: the uuids of the lines holding each (by message uuid), which a later
        compaction refers to. A message without them (one the loader made up) is not."""
        for message in messages:
            self._recorded.add(message.uuid)
            known = list(lines.get(message.uuid, ())) if lines else []
            if known:
                self._lines_of[message.uuid] = known
                self._on_file.update(known)
            first = known[0] if known else message.uuid
            if isinstance(message, AssistantMessage):
                for block in message.tool_uses:
                    self._tool_lines.setdefault(block.id, first)
            elif isinstance(message, UserMessage):
                for tid in _result_ids(message.content):
                    self._answered.setdefault(tid, first)

    def lines_of(self, messages: Iterable[Message]) -> list[str]:
        """The uuids of the lines on file that hold `messages`, in order: what a
        compaction keeping `messages` verbatim refers to."""
        out: list[str] = []
        seen: set[str] = set()
        for message in messages:
            for line in self._lines_of.get(message.uuid, ()):
                if line in self._on_file and line not in seen:
                    seen.add(line)
                    out.append(line)
        return out

    def close(self) -> None:
        """Close the file. Results still waiting for their tool_use are dropped: the
        assistant message they answer was never recorded."""
        self._waiting.clear()
        try:
            self._sync_done()
        finally:
            if self._syncer is not None:
                self._syncer.shutdown(wait=True)
                self._syncer = None
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None

    def __enter__(self) -> TranscriptWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- drafts -------------------------------------------------------------------------

    def _assistant_drafts(self, message: AssistantMessage) -> list[_Draft]:
        api_message = {
            "id": message.message_id or message_id_for(message.uuid),
            "type": "message",
            "role": "assistant",
            "model": message.model or SYNTHETIC_MODEL,
            "content": [],
            "stop_reason": message.stop_reason,
            "stop_sequence": getattr(message, "stop_sequence", None),
            "usage": message.usage,
        }
        request_id = getattr(message, "request_id", None)
        drafts = []
        for i, block in enumerate(message.content):
            fields: dict[str, Any] = {
                "type": "assistant",
                "message": api_message | {"content": [block.to_api()]},
            }
            if request_id:
                fields["requestId"] = request_id
            if message.aborted:
                fields["isAbortedMidStream"] = True
            holds = [block.id] if isinstance(block, ToolUseBlock) else []
            line_uuid = message.uuid if i == 0 else derived_uuid(message.uuid, i)
            drafts.append(_Draft(line_uuid, fields, holds=holds))
        holder = {tid: d.uuid for d in drafts for tid in d.holds}
        for tool_use in message.tool_uses:
            waiting = self._waiting.pop(tool_use.id, None)
            if waiting is not None:
                waiting.fields["sourceToolAssistantUUID"] = holder[tool_use.id]
                drafts.append(waiting)
        return drafts

    def _user_drafts(self, message: UserMessage) -> tuple[list[_Draft], list[str]]:
        """The lines to write for `message`, and the uuids of all the lines holding it
        (its results written earlier, or waiting for their tool_use, included)."""
        results = [b for b in message.content if isinstance(b, ToolResultBlock)]
        others = [b for b in message.content if not isinstance(b, ToolResultBlock)]
        data = _split_result_data(message.tool_use_result, len(results))
        uuids = _line_uuids(message.uuid)
        drafts = []
        lines = []
        for block, block_data in zip(results, data):
            tid = block.tool_use_id
            if tid in self._answered:
                lines.append(self._answered[tid])
                continue
            if tid in self._waiting:
                lines.append(self._waiting[tid].uuid)
                continue
            fields = _user_fields([block], message.is_meta)
            if block_data is not None:
                fields["toolUseResult"] = block_data
            draft = _Draft(next(uuids), fields, answers=[tid])
            lines.append(draft.uuid)
            if tid not in self._tool_lines:
                self._waiting[tid] = draft
                continue
            fields["sourceToolAssistantUUID"] = self._tool_lines[tid]
            drafts.append(draft)
        if others:
            fields = _user_fields(others, message.is_meta)
            if not results and message.tool_use_result is not None:
                fields["toolUseResult"] = message.tool_use_result
            drafts.append(_Draft(next(uuids), fields))
            lines.append(drafts[-1].uuid)
        return drafts, lines

    def _compact_drafts(self, message: CompactBoundaryMessage) -> list[_Draft]:
        kept = [line for line in dict.fromkeys(message.preserved) if line in self._on_file]
        metadata: dict[str, Any] = {"trigger": message.trigger, "preTokens": message.pre_tokens,
                                    "durationMs": message.duration_ms}
        if kept:
            anchor = message.summary_uuid
            metadata["preservedSegment"] = {"headUuid": kept[0], "anchorUuid": anchor,
                                            "tailUuid": kept[-1]}
            metadata["preservedMessages"] = {"anchorUuid": anchor, "uuids": kept,
                                             "allUuids": kept}
        metadata["postTokens"] = message.post_tokens
        if message.loaded_tools:  # ours: the deferred tools loaded before it stay loaded
            metadata["loadedTools"] = list(message.loaded_tools)
        boundary = {
            "type": "system",
            "subtype": COMPACT_BOUNDARY,
            "content": COMPACT_BOUNDARY_CONTENT,
            "isMeta": False,
            "level": "info",
            "logicalParentUuid": self.last_uuid,
            "compactMetadata": metadata,
        }
        summary = {
            "type": "user",
            "message": {"role": "user", "content": message.summary},
            "isVisibleInTranscriptOnly": True,
            "isCompactSummary": True,
        }
        # Only the kept lines stay on the chain; a message behind the boundary that is
        # recorded again is written again after it. (One with no lines on file, which the
        # loader made up, stays as it is: the next load makes it again.)
        on_chain = set(kept)
        self._recorded = {m for m in self._recorded
                          if set(self._lines_of.get(m, ())) <= on_chain}
        self._answered = {t: u for t, u in self._answered.items() if u in on_chain}
        self._tool_lines = {t: u for t, u in self._tool_lines.items() if u in on_chain}
        return [
            _Draft(message.uuid, boundary, root=True),
            _Draft(message.summary_uuid, summary),
        ]

    # -- writing ------------------------------------------------------------------------

    def _append(self, drafts: list[_Draft]) -> None:
        if not drafts:
            return
        lines = []
        parent = self.last_uuid
        branch = self._branch.current()
        for draft in drafts:
            line = {
                "parentUuid": None if draft.root else parent,
                "isSidechain": False,
                "userType": USER_TYPE,
                "cwd": str(self.cwd),
                "sessionId": self.session_id,
                "version": self.version,
                "gitBranch": branch,
                **draft.fields,
                **self.extra,
                "uuid": draft.uuid,
                "timestamp": iso_timestamp(self._clock()),
            }
            lines.append(line)
            parent = draft.uuid
        self._write_lines(lines)
        self.last_uuid = parent
        for draft in drafts:
            self._on_file.add(draft.uuid)
            for tid in draft.answers:
                self._answered[tid] = draft.uuid
            for tid in draft.holds:
                self._tool_lines[tid] = draft.uuid

    def _write_lines(self, lines: list[dict[str, Any]]) -> None:
        self._write(b"".join(encode_line(line) for line in lines))
        if self.mirror is not None:
            self.mirror(self.path, lines)

    def _write(self, data: bytes) -> None:
        fd = self._open()
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                data = b"\n" + data  # never continue someone's torn line
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
        if self.fsync:
            self._sync_later(fd)

    def _sync_later(self, fd: int) -> None:
        """fsync `fd` on the writer's thread; a failure of one before is raised."""
        running: list[Future[None]] = []
        ended: list[Future[None]] = []
        for synced in self._synced:
            (ended if synced.done() else running).append(synced)
        self._synced = running
        for synced in ended:
            synced.result()
        if running and not running[-1].running():
            return  # an fsync not yet begun covers this write too: it begins after it
        if self._syncer is None:
            self._syncer = ThreadPoolExecutor(1, thread_name_prefix="transcript-fsync")
        self._synced.append(self._syncer.submit(os.fsync, fd))

    def _sync_done(self) -> None:
        """Wait for the fsyncs asked for; the first failure is raised."""
        synced, self._synced = self._synced, []
        for future in synced:
            future.result()

    def _open(self) -> int:
        if self._fd is None:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC
            self._fd = os.open(self.path, flags, 0o600)
        return self._fd


def _user_fields(blocks: list[ContentBlock], is_meta: bool) -> dict[str, Any]:
    content: str | list[dict[str, Any]]
    if len(blocks) == 1 and isinstance(blocks[0], TextBlock):
        content = blocks[0].text  # a typed prompt is a plain string, as Claude Code writes it
    else:
        content = [b.to_api() for b in blocks]
    fields: dict[str, Any] = {"type": "user", "message": {"role": "user", "content": content}}
    if is_meta:
        fields["isMeta"] = True
    return fields


def _system_fields(message: SystemMessage) -> dict[str, Any]:
    return {
        "type": "system",
        "subtype": message.subtype,
        "content": message.text,
        "isMeta": False,
        "level": message.level,
    }


def _split_result_data(data: Any, count: int) -> list[Any]:
    """Each result's own structured output, from a message's `tool_use_result`
    (one value for one result, a list in result order for several)."""
    if count == 1:
        return [data]
    if isinstance(data, list) and len(data) == count:
        return list(data)
    return [data] + [None] * (count - 1) if count else []


def _line_uuids(base: str) -> Iterator[str]:
    yield base
    i = 1
    while True:
        yield derived_uuid(base, i)
        i += 1


def _result_ids(blocks: list[ContentBlock]) -> list[str]:
    return [b.tool_use_id for b in blocks if isinstance(b, ToolResultBlock)]


def sidechain_fields(who: AgentInfo) -> dict[str, Any]:
    """What every line of a sub-agent's transcript says of it: a sidechain line with its
    id; a teammate's its team and name (a named agent of no team, its name)."""
    fields: dict[str, Any] = {"isSidechain": True, "agentId": who.agent_id}
    if who.name is not None:
        if who.team is not None:
            fields["teamName"] = who.team
        fields["agentName"] = who.name
    return fields
