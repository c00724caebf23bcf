"""A temporary project with real settings files and real hook scripts (bash and Python)."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cc.config.settings import load_settings
from cc.hooks.config import HooksConfig, load_hooks
from cc.hooks.runner import HookRunner

_FILES = {
    "user": ("config", "settings.json"),
    "project": ("project", ".claude/settings.json"),
    "local": ("project", ".claude/settings.local.json"),
}


@dataclass
class HookProject:
    root: Path
    config: Path
    mode: str = "default"

    def settings(self, source: str, hooks: Any, **extra: Any) -> None:
        """Write the `hooks` of one settings file ("user", "project" or "local")."""
        base, rel = _FILES[source]
        path = (self.root if base == "project" else self.config) / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"hooks": hooks, **extra}), encoding="utf-8")

    def sh(self, name: str, body: str) -> str:
        """A bash script in the project; returns the command that runs it."""
        path = self.root / "hooks" / f"{name}.sh"
        path.parent.mkdir(exist_ok=True)
        path.write_text("#!/bin/bash\n" + body, encoding="utf-8")
        path.chmod(0o755)
        return str(path)

    def py(self, name: str, body: str) -> str:
        """A Python script in the project; returns the command that runs it."""
        path = self.root / "hooks" / f"{name}.py"
        path.parent.mkdir(exist_ok=True)
        path.write_text("import json, os, sys\n" + body, encoding="utf-8")
        return f"{sys.executable} {path}"

    def dump_stdin(self, name: str = "stdin") -> str:
        """A hook that saves its stdin to `<root>/<name>.json`."""
        return self.sh(name, f'cat > "$CLAUDE_PROJECT_DIR/{name}.json"\n')

    def dumped(self, name: str = "stdin") -> dict[str, Any]:
        return json.loads((self.root / f"{name}.json").read_text(encoding="utf-8"))

    def load(self) -> tuple[HooksConfig, list[str]]:
        return load_hooks(load_settings(self.root, self.config))

    def runner(self, **kwargs: Any) -> HookRunner:
        config, warnings = self.load()
        assert warnings == []
        return HookRunner(
            config,
            session_id=kwargs.pop("session_id", "sess-1"),
            transcript_path=kwargs.pop("transcript_path", str(self.root / "t.jsonl")),
            cwd=kwargs.pop("cwd", self.root),
            project_dir=self.root,
            permission_mode=lambda: self.mode,
            **kwargs,
        )


def command(cmd: str, **extra: Any) -> dict[str, Any]:
    return {"type": "command", "command": cmd, **extra}


def on(*cmds: str | dict[str, Any], matcher: str | None = None) -> list[dict[str, Any]]:
    """One matcher group running `cmds`."""
    group: dict[str, Any] = {"hooks": [command(c) if isinstance(c, str) else c for c in cmds]}
    if matcher is not None:
        group["matcher"] = matcher
    return [group]


@pytest.fixture
def hp(tmp_path: Path) -> HookProject:
    root = tmp_path / "project"
    config = tmp_path / "config"
    root.mkdir()
    config.mkdir()
    return HookProject(root.resolve(), config.resolve())


