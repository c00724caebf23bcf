"""The messages a partial compaction kept verbatim, found again by uuid.

A partial compaction keeps the latest messages as they were. Claude Code does not write
them again after the summary: the boundary line's `compactMetadata` names their lines,
which stay where they are, earlier in the file::

    preservedSegment:  {headUuid, anchorUuid, tailUuid}   the first and last kept line
    preservedMessages: {anchorUuid, uuids, allUuids}      every kept line, in order

`anchorUuid` is the summary line. The conversation is then: the summary, the kept lines
in that order, and what came after the summary. `relink()` makes the parent links say
so: the kept lines hang off the summary one after the other, and lines that hung off
the summary (or off a line the compaction dropped) hang off the last kept one. Lines
written after the compaction may chain from the summary (Claude Code's, cc's) or from
the last kept line; both read the same.

Only the last boundary counts: the walk back from the end of the conversation stops at
it, and what an earlier compaction kept is on the new list if it is still kept. The
order is the list's (`uuids`); without one, the chain from tailUuid back to headUuid.
Named lines missing from the file are reported, and the rest is read. A boundary without
these fields (a full compaction, or cc before it wrote them, when the kept messages were
written again after the summary) is left to the plain walk.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cc.session.entry import Entry


@dataclass
class Kept:
    """A partial compaction as the file has it."""

    boundary: Entry
    anchor: Entry
    #: The kept lines present in the file, in conversation order.
    lines: list[Entry]
    _rank: dict[int, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rank = {e.index: i for i, e in enumerate(self.lines)}

    def position(self, entry: Entry, by_index: dict[int, Entry]) -> tuple[int, int, int]:
        """Where `entry` (on the conversation's chain) goes: a kept line, or a line
        branching off one (a parallel tool call's), right after the summary; anything
        else where it is in the file."""
        current: Entry | None = entry
        while current is not None and current.index < self.boundary.index:
            rank = self._rank.get(current.index)
            if rank is not None:
                return self.anchor.index, rank + 1, -1 if current is entry else entry.index
            current = by_index.get(current.parent) if current.parent is not None else None
        return entry.index, 0, 0


def relink(main: list[Entry]) -> tuple[Kept | None, list[str]]:
    """Re-parent the kept lines of the last compaction in `main` (linked entries, in
    file order) as the module docstring says; what was done, and warnings."""
    at = next((i for i in range(len(main) - 1, -1, -1) if main[i].is_boundary), None)
    if at is None:
        return None, []
    boundary = main[at]
    meta = boundary.data.get("compactMetadata")
    listed = _dict(meta, "preservedMessages")
    segment = _dict(meta, "preservedSegment")
    if listed is None and segment is None:
        return None, []
    anchor_uuid = (listed or {}).get("anchorUuid") or (segment or {}).get("anchorUuid")
    anchor = next((e for e in main[at + 1:] if e.uuid == anchor_uuid), None)
    if anchor is None:
        return None, []  # the summary is lost: the walk goes on through logicalParentUuid
    before = {e.uuid: e for e in main[:at]}
    uuids = _strings(listed, "uuids")
    if uuids:
        wanted, broken = uuids, False
    else:
        wanted, broken = _walk(segment or {}, before)
    lines: list[Entry] = []
    missing = 0
    later = {e.uuid for e in main[at:]}  # named, but after the boundary: on the chain already
    for uuid in dict.fromkeys(wanted):
        entry = before.get(uuid)
        if entry is None:
            missing += uuid not in later
        elif not entry.is_boundary and not entry.is_compact_summary:
            lines.append(entry)
    warnings = []
    if missing or broken:
        what = (f"{missing} line(s) it kept verbatim are not in the transcript" if missing
                else "the lines it kept verbatim could not all be found (their chain is broken)")
        warnings.append(f"The compaction at line {boundary.line_no} of the transcript: {what}; "
                        f"the conversation resumes without them ({len(lines)} found).")
    if not lines:
        return Kept(boundary, anchor, []), warnings
    _reparent(main[at + 1:], boundary, anchor, lines)
    return Kept(boundary, anchor, lines), warnings


def _reparent(after: list[Entry], boundary: Entry, anchor: Entry, lines: list[Entry]) -> None:
    parent = anchor
    for entry in lines:
        entry.parent = parent.index
        entry.preserved = True
        parent = entry
    tail = lines[-1]
    kept = {e.index for e in lines}
    for entry in after:
        if entry is anchor or entry.parent is None:
            continue
        dropped = (entry.parent < boundary.index and entry.parent not in kept
                   and entry.type in ("user", "assistant"))
        if entry.parent == anchor.index or dropped:
            entry.parent = tail.index


def _walk(segment: dict[str, Any], before: dict[str | None, Entry]) -> tuple[list[str], bool]:
    """The uuids from headUuid to tailUuid, following parentUuid back from the tail;
    whether the chain broke before reaching the head (what was found is kept)."""
    head, tail = segment.get("headUuid"), segment.get("tailUuid")
    found: list[str] = []
    current = before.get(tail) if isinstance(tail, str) else None
    while current is not None and current.uuid not in found:
        assert current.uuid is not None
        found.append(current.uuid)
        if current.uuid == head:
            return found[::-1], False
        parent = current.data.get("parentUuid")
        current = before.get(parent) if isinstance(parent, str) else None
    return found[::-1], True


def _dict(meta: Any, key: str) -> dict[str, Any] | None:
    value = meta.get(key) if isinstance(meta, dict) else None
    return value if isinstance(value, dict) else None


def _strings(mapping: dict[str, Any] | None, key: str) -> list[str]:
    value = (mapping or {}).get(key)
    if not isinstance(value, list):
        return []
    return [v for v in value if isinstance(v, str) and v]
