"""The project's memory folder: where it is, its index, and safe writes into it.

    <config>/projects/<project>/memory/     (the transcripts' project key)
        MEMORY.md                           the index: `- [name](file.md) — description`
        <name>.md                           one memory: frontmatter name, description, type

Settings `autoMemoryEnabled: false` or `CLAUDE_CODE_DISABLE_AUTO_MEMORY=1` turn memory
off; `autoMemoryDirectory` moves the folder. Only the index travels with each request
(its first MAX_INDEX_LINES lines, with a note when cut); the model reads a memory with
Read when it judges it relevant. Every write into the folder goes through
`write_memory_file`: checked for secrets, then written whole (temp file, fsync, rename)
with mode 0600, so a reader never sees half a file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cc.atomic import write_atomic
from cc.config.env import truthy

INDEX = "MEMORY.md"
MAX_INDEX_LINES = 200
MAX_INDEX_BYTES = 25_000
TYPES = ("user", "feedback", "project", "reference")

#: Shapes of credentials: a memory must never hold one, whoever writes it.
_SECRETS = [
    (re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{20,}"), "an Anthropic API key"),
    (re.compile(r"\bsk-[A-Za-z0-9]{20,}"), "an API key"),
    (re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), "an AWS access key"),
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}"), "a GitHub token"),
    (re.compile(r"\bxox[baprs]-[A-Za-z0-9-]{10,}"), "a Slack token"),
    (re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b"), "a Google API key"),
    (re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----"), "a private key"),
    (re.compile(r"\beyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}"),
     "a JSON web token"),
    (re.compile(r"(?i)\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|"
                r"auth[_-]?token|client[_-]?secret)\b\s*[:=]\s*['\"]?[^\s'\"]{6,}"),
     "a password or secret value"),
]


def memory_dir(project_dir: Path, settings: Mapping[str, Any],
               env: Mapping[str, str] | None = None) -> Path | None:
    """The memory folder of the project whose transcripts are in `project_dir`, or None
    when memory is off."""
    env = os.environ if env is None else env
    if truthy(env.get("CLAUDE_CODE_DISABLE_AUTO_MEMORY")):
        return None
    if settings.get("autoMemoryEnabled") is False:
        return None
    custom = settings.get("autoMemoryDirectory")
    if isinstance(custom, str) and custom.strip():
        return Path(custom).expanduser().resolve()
    return project_dir / "memory"


def ensure(folder: Path) -> bool:
    """Create the folder (0700) if needed; whether it exists now."""
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError:
        return False
    return folder.is_dir()


def load_index(folder: Path) -> str | None:
    """MEMORY.md as each request carries it: at most MAX_INDEX_LINES lines (and
    MAX_INDEX_BYTES), and a note saying what was left out. None if there is none."""
    try:
        text = (folder / INDEX).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    if not text.strip():
        return None
    lines = text.splitlines()
    kept: list[str] = []
    size = 0
    for line in lines[:MAX_INDEX_LINES]:
        size += len(line.encode()) + 1
        if size > MAX_INDEX_BYTES:
            break
        kept.append(line)
    if len(kept) == len(lines):
        return text.rstrip("\n")
    first_cut = lines[len(kept)]
    preview = first_cut[:60] + ("…" if len(first_cut) > 60 else "")
    note = (f"> NOTE: {INDEX} has {len(lines)} lines ({len(text.encode()) / 1000:.1f} KB); only "
            f"the first {len(kept)} were loaded, and {len(lines) - len(kept)} were left out, "
            f"from line {len(kept) + 1} (\"{preview}\"). Keep each index entry to one short "
            "line and put the detail in the memory's own file.")
    return "\n".join([*kept, note])


def secret_in(text: str) -> str | None:
    """What kind of credential `text` seems to hold, or None."""
    for pattern, kind in _SECRETS:
        if pattern.search(text):
            return kind
    return None


def inside(folder: Path | None, path: Path) -> bool:
    """Whether `path` (absolute) lies in the memory folder."""
    if folder is None:
        return False
    try:
        resolved = path.resolve()
    except OSError:
        return False
    return resolved == folder or folder in resolved.parents


class SecretRefused(ValueError):
    """A write into memory that would store a credential."""


def write_memory_file(path: Path, text: str) -> None:
    """Write a memory file whole, 0600, after the secret check (raises SecretRefused)."""
    kind = secret_in(text)
    if kind is not None:
        raise SecretRefused(f"refused to save {path.name}: it seems to contain {kind}. "
                            "Memories must never hold credentials; leave the value out.")
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    write_atomic(path, text)
