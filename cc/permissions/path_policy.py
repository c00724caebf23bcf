"""Read and Edit rules applied to one path, plus the working folders and protected files.

    read  a path: denied by a Read deny; allowed inside the working folders or by a Read
                  or Edit allow rule (an Edit allow also grants Read)
    write a path: denied by an Edit or a Read deny (a Read deny also blocks writes);
                  allowed by an Edit allow rule, or inside the working folders in acceptEdits
"""

from __future__ import annotations

import os
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
        return self._match(self.rules.deny, _READ_OR_EDIT if write else _READ, path, deny=True)

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
