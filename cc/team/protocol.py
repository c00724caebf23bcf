"""The structured messages of a team, as Claude Code's teams exchange them: a shutdown
is asked for (`shutdown_request`) and answered (`shutdown_response`); the leader then
reads `shutdown_approved` or `shutdown_rejected`. They travel as JSON text in the
mailbox; SendMessage takes them as an object or as that JSON text."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from cc.session.lines import now_timestamp

KINDS = ("shutdown_request", "shutdown_response")


@dataclass(frozen=True)
class Structured:
    kind: str
    fields: dict[str, Any]

    def get(self, key: str, *alternatives: str) -> Any:
        for name in (key, *alternatives):
            if name in self.fields:
                return self.fields[name]
        return None


def parse(message: str | dict[str, Any]) -> Structured | None:
    """The protocol message `message` is, or None for plain text."""
    value: Any = message
    if isinstance(message, str):
        text = message.strip()
        if not text.startswith("{"):
            return None
        try:
            value = json.loads(text)
        except ValueError:
            return None
    if isinstance(value, dict) and value.get("type") in KINDS:
        return Structured(str(value["type"]), dict(value))
    return None


def request_id(target: str) -> str:
    return f"shutdown-{int(time.time() * 1000)}@{target}"


def letter(kind: str, **fields: Any) -> str:
    """A protocol message as the mailbox holds it."""
    return json.dumps({"type": kind, **{k: v for k, v in fields.items() if v is not None},
                       "timestamp": now_timestamp()}, ensure_ascii=False)
