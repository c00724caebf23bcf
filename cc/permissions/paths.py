"""Paths in permission checks: where a path really is, and which folders and patterns cover it.

Every path is looked at twice: as written with `..` folded away (the *literal* path) and
with symlinks resolved (the *real* path). A deny pattern applies if either matches; an
allow pattern or a working folder covers the path only if both match, so no spelling of
a path escapes a deny rule or sneaks out of an allowed folder.

Path patterns follow Claude Code (gitignore style): `//abs`, `~/home`, `/relative to the
rule's settings source`, `./cwd` or `cwd-relative`; `*` is one segment, `**` any depth; a
bare name matches at any depth; a pattern that matches a folder covers what is in it.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

#: Writes to these always ask (only bypassPermissions runs them), by any route, in any
#: working folder: code or configuration that runs on its own (hooks, editors' tasks,
#: shell start-up) and credentials (keys, tokens, and the configs that name helpers
#: which run to fetch them).
PROTECTED_DIRS = frozenset(
    {".git", ".vscode", ".idea", ".husky", ".cargo", ".devcontainer", ".yarn", ".mvn",
     ".ssh", ".gnupg", ".aws", ".kube", ".azure"}
)
PROTECTED_FILES = frozenset(
    {
        ".mcp.json", ".claude.json", ".gitconfig", ".gitmodules", ".npmrc", ".yarnrc",
        ".yarnrc.yml", ".envrc", ".bashrc", ".bash_profile", ".bash_login", ".bash_logout",
        ".bash_aliases", ".profile", ".zshrc", ".zprofile", ".zshenv", ".zlogin", ".zlogout",
        ".cshrc", ".tcshrc", ".kshrc", ".inputrc", ".login", ".logout", ".xprofile",
        ".xinitrc", ".xsessionrc", ".netrc", ".git-credentials", ".pgpass", ".pypirc",
    }
)
#: Folders under `.config/` that hold start-up code or credentials.
PROTECTED_CONFIG_DIRS = frozenset({"git", "fish", "autostart", "systemd", "gcloud", "gh"})
#: Under `.claude/` (and the config folder): these sub-folders and `settings*.json`.
PROTECTED_CLAUDE_DIRS = frozenset({"commands", "agents", "skills", "hooks"})
#: Writing to these is not writing a file.
DEVICE_SINKS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1",
                          "/dev/fd/2"})


@dataclass(frozen=True)
class Scope:
    """Where a check happens: the working folder, the extra ones, home and the config folder."""

    cwd: Path
    dirs: tuple[Path, ...] = ()
    home: Path = field(default_factory=Path.home)
    config_dir: Path | None = None
    #: The project's memory folder, when the file tools may use it without asking.
    memory_dir: Path | None = None

    @property
    def working(self) -> tuple[Path, ...]:
        return (self.cwd, *self.dirs)


def norm(path: str | os.PathLike[str]) -> str:
    """Absolute path with `.`/`..` folded lexically (no symlinks followed)."""
    out = os.path.normpath(os.fspath(path))
    return "/" + out.lstrip("/") if out.startswith("//") else out


def expand(path: str, base: Path, home: Path) -> str:
    """`path` made absolute: `~` from `home`, relative ones from `base`."""
    if path == "~" or path.startswith("~/"):
        path = str(home) + path[1:]
    return norm(os.path.join(base, path))


def variants(path: str) -> tuple[str, str]:
    """(literal, real) spellings of an absolute path."""
    literal = norm(path)
    return literal, norm(os.path.realpath(literal))


def within(path: str, folder: str) -> bool:
    return folder == "/" or path == folder or path.startswith(folder.rstrip("/") + "/")


def inside_any(path: str, folders: Iterable[Path | str]) -> bool:
    """True if both spellings of `path` lie inside one of `folders` (either spelling)."""
    spots = {s for f in folders for s in variants(os.fspath(f))}
    return all(any(within(p, f) for f in spots) for p in variants(path))


# --- patterns -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PathPattern:
    bases: tuple[str, ...]  # absolute folders the pattern is relative to
    regex: re.Pattern[str]  # matched against a path relative to a base

    def matches_one(self, path: str) -> bool:
        for base in self.bases:
            if base == "/":
                rel = path.lstrip("/")
            elif within(path, base):
                rel = path[len(base.rstrip("/")) + 1:]
            else:
                continue
            if any(self.regex.fullmatch(r) for r in _self_and_ancestors(rel)):
                return True
        return False

    def matches(self, path: str, *, deny: bool) -> bool:
        """Deny/ask: either spelling matches. Allow: both spellings match."""
        both = variants(path)
        return any(map(self.matches_one, both)) if deny else all(map(self.matches_one, both))


def _self_and_ancestors(rel: str) -> list[str]:
    if not rel:
        return [""]
    parts = rel.split("/")
    return ["/".join(parts[:i]) for i in range(len(parts), 0, -1)] + [""]


def compile_path_pattern(
    spec: str, *, anchor: Path, cwd: Path, home: Path, deny: bool
) -> PathPattern:
    """A `Read(...)`/`Edit(...)` specifier as a pattern (see the module docstring)."""
    floating_anywhere = False
    if spec.startswith("//"):
        base, pat, anchored = Path("/"), spec[2:], True
    elif spec == "~" or spec.startswith("~/"):
        base, pat, anchored = home, spec[2:], True
    elif spec.startswith("/"):
        base, pat, anchored = anchor, spec[1:], True
    elif spec.startswith("./") or spec == ".":
        base, pat, anchored = cwd, spec[2:], True
    else:
        base, pat = cwd, spec
        inner = pat.rstrip("/")
        single_dir = re.fullmatch(r"[^/]+/\*\*", inner) is not None
        anchored = "/" in inner and not (single_dir and deny)
        floating_anywhere = "/" not in inner and deny
    pat = pat.rstrip("/") or "**"
    if not anchored:
        pat = "**/" + pat
    bases = {norm(base), norm(os.path.realpath(base))}
    if floating_anywhere:
        bases = {"/"}
    return PathPattern(tuple(sorted(bases)), _glob_regex(pat))


@lru_cache(maxsize=1024)
def _glob_regex(pat: str) -> re.Pattern[str]:
    out, i = [], 0
    while i < len(pat):
        if pat.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pat.startswith("/**", i) and i + 3 == len(pat):
            out.append("(?:/.*)?")
            i += 3
        elif pat.startswith("**", i):
            out.append(".*")
            i += 2
        elif pat[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pat[i] == "?":
            out.append("[^/]")
            i += 1
        elif pat[i] == "[" and "]" in pat[i + 2:]:
            end = pat.index("]", i + 2)
            body = pat[i + 1:end]
            body = "^" + body[1:] if body.startswith("!") else body
            out.append("[" + body.replace("\\", "\\\\") + "]")
            i = end + 1
        else:
            out.append(re.escape(pat[i]))
            i += 1
    return re.compile("".join(out), re.DOTALL)


# --- protected and critical paths --------------------------------------------------------------


def protected_reason(path: str, config_dir: Path | None = None) -> str | None:
    """Why writing `path` must always ask, or None. Both spellings are looked at."""
    for p in variants(path):
        reason = _protected(p, config_dir)
        if reason:
            return reason
    return None


def _protected(path: str, config_dir: Path | None) -> str | None:
    parts = [p for p in path.split("/") if p]
    if parts and parts[-1] in PROTECTED_FILES:
        return f"{parts[-1]} is a protected file"
    for i, part in enumerate(parts):
        if part in PROTECTED_DIRS:
            return f"{part} is a protected folder"
        if part == ".config" and i + 1 < len(parts) and parts[i + 1] in PROTECTED_CONFIG_DIRS:
            return f".config/{parts[i + 1]} is a protected folder"
        if part == ".claude" and _claude_protected(parts[i + 1:]):
            return "Claude settings, commands, agents, skills and hooks are protected"
    if config_dir is not None:
        for folder in variants(str(config_dir)):
            if within(path, folder) and path != folder:
                rest = path[len(folder.rstrip("/")) + 1:].split("/")
                if _claude_protected(rest):
                    return "Claude settings, commands, agents, skills and hooks are protected"
    return None


def _claude_protected(rest: list[str]) -> bool:
    if not rest:
        return False
    if rest[0] in PROTECTED_CLAUDE_DIRS:
        return True
    return len(rest) == 1 and fnmatch.fnmatchcase(rest[0], "settings*.json")


def critical_reason(path: str, scope: Scope) -> str | None:
    """Why removing `path` would be catastrophic (/, a top-level folder, home, a working
    folder or one of its parents), or None."""
    for p in variants(path):
        if p == "/" or p.count("/") == 1:
            return f"{p} is a system folder"
        if p in variants(str(scope.home)):
            return f"{p} is the home folder"
        for folder in scope.working:
            if any(within(f, p) for f in variants(str(folder))):
                return f"{p} is a working folder or one of its parents"
    return None
