"""The current git branch for the transcript's `gitBranch`, read from `.git/HEAD` (no
subprocess: it is asked once per transcript write)."""

from __future__ import annotations

from pathlib import Path

_REF_PREFIX = "ref: refs/heads/"


def find_head(cwd: Path) -> Path | None:
    """The HEAD file of the repository containing `cwd` (worktrees included), if any."""
    for folder in [cwd, *cwd.parents]:
        dot_git = folder / ".git"
        if dot_git.is_dir():
            return dot_git / "HEAD"
        if dot_git.is_file():  # a worktree or submodule: "gitdir: <path>"
            try:
                text = dot_git.read_text(encoding="utf-8").strip()
            except (OSError, UnicodeDecodeError):
                return None
            if not text.startswith("gitdir:"):
                return None
            return (folder / text[len("gitdir:") :].strip()) / "HEAD"
    return None


def branch_from_head(text: str) -> str:
    """`main` for `ref: refs/heads/main`; `HEAD` when detached (as `git rev-parse
    --abbrev-ref HEAD` says); "" when unreadable."""
    text = text.strip()
    if text.startswith(_REF_PREFIX):
        return text[len(_REF_PREFIX) :]
    if text.startswith("ref: "):
        return text[len("ref: ") :]
    return "HEAD" if text else ""


class GitBranch:
    """The branch of `cwd`'s repository, re-read only when HEAD changes."""

    def __init__(self, cwd: Path) -> None:
        self._head = find_head(Path(cwd))
        self._stamp: tuple[int, int] | None = None
        self._branch = ""

    def current(self) -> str:
        if self._head is None:
            return ""
        try:
            st = self._head.stat()
            stamp = (st.st_mtime_ns, st.st_size)
            if stamp != self._stamp:
                self._branch = branch_from_head(self._head.read_text(encoding="utf-8"))
                self._stamp = stamp
        except (OSError, UnicodeDecodeError):
            return ""
        return self._branch


def git_branch(cwd: Path) -> str:
    return GitBranch(cwd).current()
