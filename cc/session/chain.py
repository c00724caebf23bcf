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
    missing, in which case the walk goes on through `logicalParentUuid`;
  - the lines a partial compaction kept verbatim, named on its boundary, follow its
    summary (`cc.session.preserved`), although they are earlier in the file.
Lines of subagents (`isSidechain: true`) are left out.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from cc.session.entry import Entry
from cc.session.lines import MESSAGE_TYPES
from cc.session.preserved import relink

__all__ = ["Entry", "build_chain", "parse_lines"]


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
    kept, warnings = relink(main)
    leaf = next((e for e in reversed(main) if e.type in MESSAGE_TYPES), None)
    if leaf is None:
        return [], warnings
    if kept is not None and kept.lines and leaf is kept.anchor:
        leaf = kept.lines[-1]  # nothing after the summary: the conversation ends with them
    by_index = {e.index: e for e in main}
    chain: dict[int, Entry] = {}
    current: Entry | None = leaf
    child: Entry | None = None
    while current is not None and current.index not in chain:
        chain[current.index] = current
        lost_summary = current.is_boundary and not (child and child.is_compact_summary)
        step = current.logical_parent if lost_summary else current.parent
        child, current = current, (by_index[step] if step is not None else None)
    _recover_parallel(main, chain)
    if missing:
        warnings.append(
            f"{missing} line(s) of the transcript refer to earlier lines that are not in the "
            "file; they were read in file order."
        )
    if kept is None:
        return [chain[i] for i in sorted(chain)], warnings
    return sorted(chain.values(), key=lambda e: kept.position(e, by_index)), warnings


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
