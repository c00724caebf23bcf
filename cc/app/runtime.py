"""What start-up found, shared by every mode and every agent of the session."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cc.app.options import SessionOptions
    from cc.config.settings import Settings
    from cc.core.client import Credentials
    from cc.core.query_engine import QueryEngine
    from cc.permissions.checker import PermissionChecker
    from cc.sandbox.sandbox import Sandbox
    from cc.team.session import TeamSession
    from cc.tools.base import EngineRef
    from cc.tools.registry import ToolRegistry


@dataclass
class Runtime:
    cwd: Path
    config_dir: Path
    settings: Settings
    credentials: Credentials
    #: Late binding to the session's main engine, bound once it is built.
    engine_ref: EngineRef = field(default_factory=lambda: _engine_ref())
    #: The conversation continues an earlier one (-c / -r).
    resumed: bool = False
    #: The permission checker (the REPL gives it someone to ask and cycles its mode).
    permissions: PermissionChecker | None = None
    #: The Bash sandbox, when settings turn it on (`sandbox.enabled`).
    sandbox: Sandbox | None = None
    #: The project's memory folder (None: memory is off).
    memory_dir: Path | None = None
    #: Every tool of the session, where its agents take theirs from (None: the main
    #: agent's; in coordinator mode the main agent has only the delegation tools).
    tool_pool: ToolRegistry | None = None
    #: The team this session leads (TeamCreate makes it).
    team: TeamSession | None = None
    #: What flags, settings and environment asked of the session, once resolved.
    options: SessionOptions | None = None

    @property
    def engine(self) -> QueryEngine:
        return self.engine_ref.get()


def _engine_ref() -> EngineRef:
    from cc.tools.base import EngineRef

    return EngineRef()
