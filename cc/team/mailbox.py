"""Mailboxes: `<config>/teams/<team>/inboxes/<name>.json`, a JSON list of messages.

    {"from": "researcher", "text": "...", "summary": "...", "timestamp": "...Z", "read": false}

Sending locks the inbox, reads it, appends, writes it whole and unlocks; receiving takes
the unread messages and marks them read in the same locked step, so each message is
delivered once, whichever process reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cc.session.lines import now_timestamp
from cc.team.files import read_json, update_json


@dataclass(frozen=True)
class Letter:
    sender: str
    text: str
    summary: str | None = None
    timestamp: str = ""
    read: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"from": self.sender, "text": self.text}
        if self.summary is not None:
            out["summary"] = self.summary
        out.update(timestamp=self.timestamp, read=self.read)
        return out

    @classmethod
    def from_json(cls, value: Any) -> Letter | None:
        if not isinstance(value, dict) or not isinstance(value.get("text"), str):
            return None
        summary = value.get("summary")
        return cls(str(value.get("from", "")), value["text"],
                   summary if isinstance(summary, str) else None,
                   str(value.get("timestamp", "")), bool(value.get("read", False)))


def inbox_path(team_dir: Path, member: str) -> Path:
    return team_dir / "inboxes" / f"{member}.json"


class Mailbox:
    """One member's inbox."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def send(self, sender: str, text: str, summary: str | None = None) -> Letter:
        letter = Letter(sender, text, summary, now_timestamp())

        def append(letters: Any) -> tuple[list[Any], None]:
            return [*_as_list(letters), letter.to_json()], None

        update_json(self.path, [], append)
        return letter

    def receive(self) -> list[Letter]:
        """The unread letters, oldest first; marked read as they are taken."""
        def take(letters: Any) -> tuple[list[Any], list[Letter]]:
            kept, taken = [], []
            for raw in _as_list(letters):
                letter = Letter.from_json(raw)
                if letter is not None and not letter.read:
                    taken.append(letter)
                    raw = {**raw, "read": True}
                kept.append(raw)
            return kept, taken

        if not self.path.exists():
            return []
        return update_json(self.path, [], take)

    def all(self) -> list[Letter]:
        """Every letter, read or not (no lock needed: files are replaced whole)."""
        return [x for raw in _as_list(read_json(self.path, [])) if (x := Letter.from_json(raw))]

    @property
    def unread(self) -> int:
        return sum(1 for letter in self.all() if not letter.read)


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []

