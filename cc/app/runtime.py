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


@dataclass
class Runtime:
    cwd: Path
    config_dir: Path
    settings: Settings
    credentials: Credentials
    #: Late binding: the engine, appended once built (tools that need it close over this).
    engine_ref: list[QueryEngine] = field(default_factory=list)
    #: The conversation continues an earlier one (-c / -r).
    resumed: bool = False
    #: The permission checker (the REPL gives it someone to ask and cycles its mode).
    permissions: PermissionChecker | None = None
    #: The Bash sandbox, when settings turn it on (`sandbox.enabled`).
    sandbox: Sandbox | None = None
    #: What flags, settings and environment asked of the session, once resolved.
    options: SessionOptions | None = None

    @property
    def engine(self) -> QueryEngine:
        return self.engine_ref[0]
