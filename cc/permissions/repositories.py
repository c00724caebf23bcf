"""Which git repository a folder belongs to, as git itself would find it."""

from __future__ import annotations

import os

from cc.permissions.paths import within


def repository_of(path: str) -> str | None:
    """The top folder of the git repository holding `path` (None outside any)."""
    current = os.path.realpath(path)
    while True:
        if os.path.exists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def repository_at(path: str) -> str | None:
    """The repository git opens at `path`: a bare one (or a git folder) there, else the
    one holding it; a git folder counts as its work tree's repository."""
    real = os.path.realpath(path)
    if all(os.path.exists(os.path.join(real, n)) for n in ("HEAD", "config", "objects")):
        parent = os.path.dirname(real)
        return parent if os.path.basename(real) == ".git" else real
    return repository_of(real)


def belongs_to(repository: str, home: str | None) -> bool:
    """Is `repository` a submodule of `home` (its git folder in home's `.git/modules`)?"""
    if home is None:
        return False
    marker = os.path.join(repository, ".git")
    if not os.path.isfile(marker):
        return False
    try:
        with open(marker, encoding="utf-8") as f:
            line = f.readline(4096).strip()
    except OSError:
        return False
    if not line.startswith("gitdir:"):
        return False
    gitdir = os.path.realpath(os.path.join(repository, line[7:].strip()))
    return within(gitdir, os.path.join(home, ".git", "modules"))
