"""One parsed transcript line: its place in the file, its JSON object, and its links."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cc.session.lines import COMPACT_BOUNDARY


@dataclass
class Entry:
    """One parsed line: its position, its JSON object, and its parent in the tree."""

    index: int
    line_no: int
    data: dict[str, Any]
    parent: int | None = None
    logical_parent: int | None = None
    #: Kept verbatim by the last compaction, which named it (`cc.session.preserved`).
    preserved: bool = False

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
