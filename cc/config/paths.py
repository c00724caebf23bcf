"""Where cc keeps things: `$CLAUDE_CONFIG_DIR`, else `~/.claude`."""

from __future__ import annotations

import os
from pathlib import Path


def config_dir() -> Path:
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    if configured:
        return Path(configured).expanduser()
    return Path.home() / ".claude"
