"""From transcript lines to the lines of the current conversation.

`parse_lines()` keeps every line that is a JSON object and reports the others: a bad
LAST line is a write cut short (dropped with a notice), a bad line elsewhere is damage
(skipped and reported).

`build_chain()` follows `parentUuid`. The lines form a tree (a rewind starts a branch
from an earlier line); the conversation is the chain ending at the last user, assistant
or system line, walked back to its root. Three refinements:
  - a parent missing from the file (an excerpt, or lines lost) is taken to be the line
    just before, so a partial file still reads in order;
  - parallel tool calls branch: each tool_result hangs off its own tool_use line, and the
    chain passes through only one of them. Results (and assistant lines of the same
    message) that hang off the chain and answer its tool calls are brought back;
  - a compaction boundary (`parentUuid: null`) ends the walk, unless its summary is
    missing, in which case the walk goes on through `logicalParentUuid`.
Lines of subagents (`isSidechain: true`) are left out.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cc.session.lines import COMPACT_BOUNDARY, MESSAGE_TYPES


@dataclass
class Entry:
    """One parsed line: its position, its JSON object, and its parent in the tree."""

    index: int
    line_no: int
    data: dict[str, Any]
    parent: int | None = None
    logical_parent: int | None = None

    @property
    def type(self) -> Any:
        return self.data.get("type")

    @property
    def uuid(self) -> str | None:
        value = self.data.get("uuid")
        return value if isinstance(value, str) and value else None

    @property
    def is_boundary(self) -> bool:
        return self.type == "system" and self.data.get("subtype") == COMPACT_BOUNDARY

    @property
    def is_compact_summary(self) -> bool:
        return self.type == "user" and bool(self.data.get("isCompactSummary"))

    @property
    def content(self) -> Any:
        message = self.data.get("message")
        return message.get("content") if isinstance(message, dict) else None

    @property
    def message_id(self) -> str | None:
        message = self.data.get("message")
        value = message.get("id") if isinstance(message, dict) else None
        return value if isinstance(value, str) else None

    def blocks_of(self, kind: str) -> list[dict[str, Any]]:
        content = self.content
        if not isinstance(content, list):
            return []
        return [b for b in content if isinstance(b, dict) and b.get("type") == kind]

    @property
    def only_tool_results(self) -> bool:
        content = self.content
        return (
            isinstance(content, list)
            and bool(content)
            and all(isinstance(b, dict) and b.get("type") == "tool_result" for b in content)
        )


def parse_lines(lines: Iterable[str | bytes]) -> tuple[list[Entry], list[str]]:
    """The lines that are JSON objects, and notices about those that are not."""
    entries: list[Entry] = []
    bad: list[int] = []
    last_line = 0
    for line_no, raw in enumerate(lines, 1):
        try:
            text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError:
            text = None
        if text is not None and not text.strip():
            continue
        last_line = line_no
        try:
            data = json.loads(text) if text is not None else None
        except ValueError:
            data = None
        if isinstance(data, dict):
            entries.append(Entry(len(entries), line_no, data))
        else:
            bad.append(line_no)
    warnings = []
    for line_no in bad:
        if line_no == last_line:
            warnings.append(
                f"The last line of the transcript (line {line_no}) was cut off, probably "
                "because the session ended while writing it; it was dropped."
            )
        else:
            warnings.append(f"Line {line_no} of the transcript could not be read; skipped.")
    return entries, warnings


def build_chain(entries: list[Entry], *, sidechain: bool = False) -> tuple[list[Entry], list[str]]:
    """The entries of the current conversation, in file order (of a sub-agent's, in its
    own file, with `sidechain`)."""
    main = [e for e in entries
            if e.uuid is not None and bool(e.data.get("isSidechain")) == sidechain]
    missing = _link(main)
    leaf = next((e for e in reversed(main) if e.type in MESSAGE_TYPES), None)
    if leaf is None:
        return [], []
    by_index = {e.index: e for e in main}
    chain: dict[int, Entry] = {}
    current: Entry | None = leaf
    child: Entry | None = None
    while current is not None:
        chain[current.index] = current
        lost_summary = current.is_boundary and not (child and child.is_compact_summary)
        step = current.logical_parent if lost_summary else current.parent
        child, current = current, (by_index[step] if step is not None else None)
    _recover_parallel(main, chain)
    warnings = []
    if missing:
        warnings.append(
            f"{missing} line(s) of the transcript refer to earlier lines that are not in the "
            "file; they were read in file order."
        )
    return [chain[i] for i in sorted(chain)], warnings


def _link(main: list[Entry]) -> int:
    """Resolve each entry's parent to the latest earlier entry with that uuid (or, when
    there is none, the entry just before); how many parents were missing."""
    by_uuid: dict[str, int] = {}
    previous: int | None = None
    missing = 0
    for entry in main:
        parent_uuid = entry.data.get("parentUuid")
        if isinstance(parent_uuid, str) and parent_uuid:
            entry.parent = by_uuid.get(parent_uuid, previous)
            missing += parent_uuid not in by_uuid
        logical = entry.data.get("logicalParentUuid")
        if isinstance(logical, str):
            entry.logical_parent = by_uuid.get(logical)
        assert entry.uuid is not None
        by_uuid[entry.uuid] = entry.index
        previous = entry.index
    return missing


def _recover_parallel(main: list[Entry], chain: dict[int, Entry]) -> None:
    """Add the siblings that parallel tool calls leave off the chain: assistant lines of a
    chain message, then results to chain tool calls that the chain does not answer."""
    message_ids = {e.message_id for e in chain.values() if e.type == "assistant"}
    for entry in main:
        if (
            entry.index not in chain
            and entry.type == "assistant"
            and entry.message_id in message_ids
            and entry.parent in chain
        ):
            chain[entry.index] = entry
    tool_uses = {
        b.get("id")
        for e in chain.values()
        if e.type == "assistant"
        for b in e.blocks_of("tool_use")
    }
    answered = {
        b.get("tool_use_id")
        for e in chain.values()
        if e.type == "user"
        for b in e.blocks_of("tool_result")
    }
    for entry in main:
        if entry.index in chain or entry.type != "user" or not entry.only_tool_results:
            continue
        ids = {b.get("tool_use_id") for b in entry.blocks_of("tool_result")}
        if entry.parent in chain and ids <= tool_uses - answered:
            chain[entry.index] = entry
            answered |= ids
