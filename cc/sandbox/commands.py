"""`sandbox.excludedCommands`: which commands run outside the sandbox.

A pattern is matched like a `Bash(...)` rule (`*` anywhere, a trailing ` *` a word
boundary); a bare word such as `docker` means `docker` and anything after it. A compound
command is excluded when any of its parts is (`cd app && docker build .` needs the
Docker socket as much as `docker build .` does).
"""

from __future__ import annotations

import re

from cc.permissions.rules import command_matches

_SPLIT = re.compile(r"\|\||&&|[;|&\n]")


def matches_excluded(command: str, patterns: list[str]) -> bool:
    if not patterns:
        return False
    parts = [p.strip() for p in _split(command)]
    for pattern in patterns:
        pattern = pattern.strip()
        if not pattern:
            continue
        if "*" not in pattern:
            pattern += " *"
        if any(part and command_matches(pattern, _bare(part)) for part in parts):
            return True
    return False


def _split(command: str) -> list[str]:
    """The parts of a list or pipeline, split outside quotes (roughly: no expansions)."""
    out, current, quote, i = [], [], "", 0
    while i < len(command):
        c = command[i]
        if quote:
            current.append(c)
            if c == "\\" and quote == '"' and i + 1 < len(command):
                current.append(command[i + 1])
                i += 1
            elif c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
            current.append(c)
        elif c == "\\" and i + 1 < len(command):
            current += [c, command[i + 1]]
            i += 1
        else:
            m = _SPLIT.match(command, i)
            if m and not (c == "&" and command[i - 1 : i] in "<>" and i > 0):
                out.append("".join(current))
                current = []
                i = m.end()
                continue
            current.append(c)
        i += 1
    out.append("".join(current))
    return out


def _bare(part: str) -> str:
    """A part without leading `VAR=value` assignments or a subshell's parenthesis."""
    part = part.strip().lstrip("({").strip()
    while re.match(r"[A-Za-z_][A-Za-z0-9_]*=\S*\s+", part):
        part = re.sub(r"^[A-Za-z_][A-Za-z0-9_]*=\S*\s+", "", part, count=1)
    return part.rstrip(")}").strip()
