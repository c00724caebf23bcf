"""A team's config: `<config>/teams/<team>/config.json`.

    {"name": "...", "description": "...", "createdAt": "...Z", "leadAgentId": "...",
     "members": [{"name": "team-lead", "agentType": "team-lead", "model": "...",
                  "status": "active", "agentId": "..."}]}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cc.agents.tool import AGENT_NAME
from cc.team.files import read_json, update_json

LEAD = "team-lead"
#: Names of teams and members: safe as file names, as Claude Code's `name` pattern.
NAME = AGENT_NAME
STATUSES = ("active", "idle", "failed", "done", "stopped")


def teams_root(config_dir: Path) -> Path:
    return config_dir / "teams"


@dataclass
class Member:
    name: str
    agent_type: str
    model: str
    status: str = "active"
    agent_id: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "agentType": self.agent_type,
                               "model": self.model, "status": self.status}
        if self.agent_id:
            out["agentId"] = self.agent_id
        return out

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> Member:
        return cls(str(value.get("name", "")), str(value.get("agentType", "")),
                   str(value.get("model", "")), str(value.get("status", "active")),
                   value.get("agentId") if isinstance(value.get("agentId"), str) else None)


@dataclass
class TeamConfig:
    name: str
    description: str = ""
    members: list[Member] = field(default_factory=list)
    created_at: str = ""

    def member(self, name: str) -> Member | None:
        return next((m for m in self.members if m.name == name), None)

    @property
    def active(self) -> list[Member]:
        """Members other than the lead still at work."""
        return [m for m in self.members if m.name != LEAD and m.status == "active"]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description,
                "createdAt": self.created_at, "members": [m.to_json() for m in self.members]}

    @classmethod
    def from_json(cls, value: Any) -> TeamConfig | None:
        if not isinstance(value, dict) or not isinstance(value.get("name"), str):
            return None
        members = [Member.from_json(m) for m in value.get("members", []) if isinstance(m, dict)]
        return cls(value["name"], str(value.get("description", "")), members,
                   str(value.get("createdAt", "")))


class TeamFiles:
    """One team's folder: its config and its members' inboxes."""

    def __init__(self, config_dir: Path, team: str) -> None:
        if not NAME.match(team):
            raise ValueError(f"a team name is letters, digits, '-' and '_' (at most 64), "
                             f"not {team!r}")
        self.team = team
        self.dir = teams_root(config_dir) / team
        self.config_path = self.dir / "config.json"

    def create(self, description: str, lead_model: str) -> TeamConfig:
        """A new team led by the caller; ValueError if it exists."""
        def make(existing: Any) -> tuple[Any, TeamConfig]:
            if TeamConfig.from_json(existing) is not None:
                raise ValueError(f"a team named {self.team!r} exists already")
            config = TeamConfig(self.team, description, [Member(LEAD, LEAD, lead_model)],
                                _now())
            return config.to_json(), config

        return update_json(self.config_path, None, make)

    def load(self) -> TeamConfig | None:
        return TeamConfig.from_json(read_json(self.config_path, None))

    def upsert(self, member: Member) -> None:
        def put(value: Any) -> tuple[Any, None]:
            config = TeamConfig.from_json(value) or TeamConfig(self.team)
            config.members = [m for m in config.members if m.name != member.name] + [member]
            return config.to_json(), None

        update_json(self.config_path, None, put)

    def set_status(self, name: str, status: str) -> None:
        def put(value: Any) -> tuple[Any, None]:
            config = TeamConfig.from_json(value) or TeamConfig(self.team)
            for m in config.members:
                if m.name == name:
                    m.status = status
            return config.to_json(), None

        update_json(self.config_path, None, put)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
