"""The backup files of one session: `<config>/file-history/<session-id>/<name>@v<n>`,
where `<name>` is the first 16 hex digits of the SHA-256 of the file's absolute path
(Claude Code's naming). Everything here blocks; the store runs it in a thread.

A backup is a byte-for-byte copy. Comparing a file with a backup streams both, so a
large file is never read whole.
"""

from __future__ import annotations

import filecmp
import hashlib
import os
import shutil
from pathlib import Path


def backup_name(path: Path, version: int) -> str:
    digest = hashlib.sha256(str(path).encode("utf-8")).hexdigest()[:16]
    return f"{digest}@v{version}"


def exists(path: Path) -> bool:
    """Whether `path` is a file there is something to back up of (a folder is not)."""
    return path.is_file()


def save(folder: Path, path: Path, version: int) -> str | None:
    """Copy `path` into `folder` as its `version`; the backup's name (None: the file is
    absent, and there is nothing to copy)."""
    if not exists(path):
        return None
    name = backup_name(path, version)
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    shutil.copyfile(path, folder / name)
    return name


def same(folder: Path, name: str | None, path: Path) -> bool:
    """Whether `path` is as the backup `name` has it (both absent counts)."""
    if name is None:
        return not exists(path)
    backup = folder / name
    return exists(path) and backup.is_file() and filecmp.cmp(backup, path, shallow=False)


def restore(folder: Path, name: str | None, path: Path) -> None:
    """Put `path` back as the backup `name` has it: delete it when it was absent, else
    write the saved bytes in place (the file keeps its mode and links)."""
    if name is None:
        if exists(path):
            path.unlink()
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(folder / name, "rb") as src, open(path, "wb") as dst:
        shutil.copyfileobj(src, dst)


def read_small(path: Path, limit: int) -> bytes | None:
    """The bytes of `path` if it has at most `limit` of them (b"" when absent)."""
    try:
        if os.path.getsize(path) > limit:
            return None
        return path.read_bytes()
    except FileNotFoundError:
        return b""
