"""Read and Edit rules applied to one path, plus the working folders and protected files.

    read  a path: denied by a Read deny; allowed inside the working folders or by a Read
                  or Edit allow rule (an Edit allow also grants Read)
    write a path: denied by an Edit or a Read deny (a Read deny also blocks writes);
                  allowed by an Edit allow rule, or inside the working folders in acceptEdits
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from cc.permissions.paths import (
    PathPattern,
    Scope,
    compile_path_pattern,
    inside_any,
    protected_reason,
)
from cc.permissions.rules import Rule, RuleSet

_READ = frozenset({"Read"})
_EDIT = frozenset({"Edit"})
_READ_OR_EDIT = frozenset({"Read", "Edit"})


@lru_cache(maxsize=2048)
def _pattern(spec: str, anchor: Path, cwd: Path, home: Path, deny: bool) -> PathPattern:
    return compile_path_pattern(spec, anchor=anchor, cwd=cwd, home=home, deny=deny)


class PathPolicy:
    def __init__(self, rules: RuleSet, scope: Scope) -> None:
        self.rules = rules
        self.scope = scope
        #: (device, inode) of each file a deny rule covers, found on first need.
        self._inodes: dict[tuple[int, int], Rule] | None = None

    def _match(self, rules: list[Rule], tools: frozenset[str], path: str, *,
               deny: bool) -> Rule | None:
        for rule in rules:
            if rule.specifier is None or rule.param is not None or rule.tool not in tools:
                continue
            pattern = _pattern(rule.specifier, rule.anchor, rule.cwd, self.scope.home, deny)
            if pattern.matches(path, deny=deny):
                return rule
        return None

    def denied(self, path: str, *, write: bool) -> Rule | None:
        tools = _READ_OR_EDIT if write else _READ
        return self._match(self.rules.deny, tools, path, deny=True) or self._linked(path, tools)

    def _linked(self, path: str, tools: frozenset[str]) -> Rule | None:
        """A deny rule covering another name of the same file (a hard link): same device
        and inode. Only files with more than one link pay for the search."""
        try:
            st = os.stat(path)
        except OSError:
            return None
        if st.st_nlink < 2 or not stat.S_ISREG(st.st_mode):
            return None
        rules = [r for r in self.rules.deny if r.tool in tools and r.specifier is not None
                 and r.param is None]
        if not rules:
            return None
        if self._inodes is None:
            self._inodes = denied_files(rules, self.scope, self._match_for(rules))
        found = self._inodes.get((st.st_dev, st.st_ino))
        if found is not None:
            return replace(found, text=f"{found.text} (this is a hard link to a file it "
                                       "covers)")
        found = self._inodes.get(_TOO_MANY)  # not every denied file was seen: fail closed
        if found is not None:
            return replace(found, text=f"{found.text} (this file has other names, too many "
                                       "files to rule out that the rule covers one)")
        return None

    def _match_for(self, rules: list[Rule]) -> Callable[[str], Rule | None]:
        return lambda p: self._match(rules, _READ_OR_EDIT, p, deny=True)

    def denied_name(self, path: str) -> Rule | None:
        """The Read deny rule covering a path as spelled (a file that may exist only in
        a repository's history: no symlinks or links to follow)."""
        for rule in self.rules.deny:
            if rule.specifier is None or rule.param is not None or rule.tool not in _READ:
                continue
            pattern = _pattern(rule.specifier, rule.anchor, rule.cwd, self.scope.home, True)
            if pattern.matches_one(path):
                return rule
        return None

    def asked(self, path: str, *, write: bool) -> Rule | None:
        return self._match(self.rules.ask, _EDIT if write else _READ, path, deny=True)

    def allowed(self, path: str, *, write: bool) -> Rule | None:
        return self._match(self.rules.allow, _EDIT if write else _READ_OR_EDIT, path,
                           deny=False)

    def inside(self, path: str) -> bool:
        return inside_any(path, self.scope.working)

    def readable(self, path: str) -> bool:
        return self.inside(path) or self.allowed(path, write=False) is not None

    def protected(self, path: str) -> str | None:
        return protected_reason(path, self.scope.config_dir)


#: The key under which `denied_files` notes that it stopped before seeing everything.
_TOO_MANY = (-1, -1)
MAX_SCAN = 5_000
#: Folders a search for denied files does not go into.
_SKIP = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".tox"})


def denied_files(rules: list[Rule], scope: Scope,
                 match: Callable[[str], Rule | None]) -> dict[tuple[int, int], Rule]:
    """(device, inode) → the deny rule covering that file, for the files the rules cover
    in the working folders and under each rule's own fixed folder (`~/.ssh/**`: `~/.ssh`).
    If the search stops at MAX_SCAN entries, `_TOO_MANY` maps to the first rule."""
    out: dict[tuple[int, int], Rule] = {}
    roots = [*map(str, scope.working), *(_fixed_head(r, scope) for r in rules)]
    seen = 0
    for root in dict.fromkeys(r for r in roots if r):
        if os.path.isfile(root):
            _note(out, root, match)
            continue
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d not in _SKIP]
            seen += len(files) + len(dirs)
            if seen > MAX_SCAN:
                out[_TOO_MANY] = rules[0]
                return out
            for name in files:
                _note(out, os.path.join(folder, name), match)
    return out


def _note(out: dict[tuple[int, int], Rule], path: str,
          match: Callable[[str], Rule | None]) -> None:
    rule = match(path)
    if rule is None:
        return
    try:
        st = os.stat(path)
    except OSError:
        return
    out.setdefault((st.st_dev, st.st_ino), rule)


def _fixed_head(rule: Rule, scope: Scope) -> str | None:
    """The folder (or file) before the first wildcard of an anchored path rule."""
    spec = rule.specifier or ""
    if spec.startswith("//"):
        base, rest = "/", spec[2:]
    elif spec == "~" or spec.startswith("~/"):
        base, rest = str(scope.home), spec[2:]
    elif spec.startswith("/"):
        base, rest = str(rule.anchor), spec[1:]
    else:
        return None  # relative to the working folder, which is searched anyway
    fixed: list[str] = []
    for part in rest.split("/"):
        if any(c in part for c in "*?["):
            break
        fixed.append(part)
    head = os.path.join(base, *fixed) if fixed else base
    return None if head in ("/", str(scope.home)) else head


def path_suggestion(tool: str, path: str, scope: Scope, *, folder: bool = False) -> str | None:
    """An allow rule for the folder holding `path` (or `path` itself if `folder`)."""
    target = path if folder else os.path.dirname(path)
    if any(c in target for c in "*?[]()\n"):
        return None
    for base, prefix in ((str(scope.cwd), "./"), (str(scope.home), "~/")):
        if target == base:
            return f"{tool}({prefix}**)"
        if target.startswith(base.rstrip("/") + "/"):
            return f"{tool}({prefix}{target[len(base.rstrip('/')) + 1:]}/**)"
    return f"{tool}(/{target.rstrip('/')}/**)" if target != "/" else f"{tool}(//**)"
