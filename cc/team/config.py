"""A team's config: `<config>/teams/<team>/config.json`.

    {"name": "...", "description": "...", "createdAt": "...Z", "leadSessionId": "...",
     "leadPid": 1234,
     "members": [{"name": "team-lead", "agentType": "team-lead", "model": "...",
                  "status": "active", "agentId": "..."}]}

A team outlives its session on disk (its mailboxes and statuses stay readable), but
once the process that led it has ended the name is free again: a new TeamCreate of that
name starts it afresh.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cc.agents.tool import AGENT_NAME
from cc.session.lines import now_timestamp
from cc.team.files import read_json, update_json

LEAD = "team-lead"
#: Names of teams and members: safe as file names, as Claude Code's `name` pattern.
NAME = AGENT_NAME
STATUSES = ("active", "idle", "failed", "done", "stopped")


def ended_status(run_status: str) -> str:
    """A member's status once a run of it ended (`completed`, `killed` or `failed`): idle
    (a letter wakes it), stopped or failed."""
    return {"completed": "idle", "killed": "stopped"}.get(run_status, "failed")


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
    lead_session_id: str = ""
    lead_pid: int | None = None

    @property
    def led_by_a_live_process(self) -> bool:
        """Whether a live process (this one or another) leads it; if not, the name is
        free to start afresh."""
        pid = self.lead_pid
        if pid is None or pid == os.getpid():
            return pid is not None
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True

    def member(self, name: str) -> Member | None:
        return next((m for m in self.members if m.name == name), None)

    @property
    def active(self) -> list[Member]:
        """Members other than the lead still at work."""
        return [m for m in self.members if m.name != LEAD and m.status == "active"]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "description": self.description,
                               "createdAt": self.created_at,
                               "leadSessionId": self.lead_session_id}
        if self.lead_pid is not None:
            out["leadPid"] = self.lead_pid
        out["members"] = [m.to_json() for m in self.members]
        return out

    @classmethod
    def from_json(cls, value: Any) -> TeamConfig | None:
        if not isinstance(value, dict) or not isinstance(value.get("name"), str):
            return None
        members = [Member.from_json(m) for m in value.get("members", []) if isinstance(m, dict)]
        pid = value.get("leadPid")
        return cls(value["name"], str(value.get("description", "")), members,
                   str(value.get("createdAt", "")), str(value.get("leadSessionId", "")),
                   pid if isinstance(pid, int) and not isinstance(pid, bool) else None)


class TeamFiles:
    """One team's folder: its config and its members' inboxes."""

    def __init__(self, config_dir: Path, team: str) -> None:
        if not NAME.match(team):
            raise ValueError(f"a team name is letters, digits, '-' and '_' (at most 64), "
                             f"not {team!r}")
        self.team = team
        self.dir = teams_root(config_dir) / team
        self.config_path = self.dir / "config.json"

    def create(self, description: str, lead_model: str, session_id: str = "") -> TeamConfig:
        """A new team led by the caller; ValueError if a live session leads one of that
        name. One left by a session that has ended is started afresh (old letters go)."""
        def make(existing: Any) -> tuple[Any, TeamConfig]:
            old = TeamConfig.from_json(existing)
            if old is not None and old.led_by_a_live_process:
                raise ValueError(f"a team named {self.team!r} exists already")
            if old is not None:
                shutil.rmtree(self.dir / "inboxes", ignore_errors=True)
            config = TeamConfig(self.team, description, [Member(LEAD, LEAD, lead_model)],
                                now_timestamp(), session_id, os.getpid())
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

