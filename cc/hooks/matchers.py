"""Which hooks apply: the `matcher` of a group and the `if` rule of a handler.

A matcher made only of letters, digits, `_`, `-`, spaces, `,` and `|` is an
exact name or a list of names (`Edit|Write`, `Edit, Write`). `*`, `""` or no
matcher accepts everything. Anything else is an unanchored regular expression
(`Notebook.*`, `mcp__memory__.*`); a bare `mcp__memory` is an exact name and
matches no tool.

`if` holds one permission rule, `Tool` or `Tool(specifier)`, tested against the
tool call: a command glob for Bash, a path glob for file tools, `domain:` for
WebFetch, `param:value` for any other input field.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

_PLAIN = re.compile(r"[A-Za-z0-9_\- ,|]*")
_ALIASES = {"Task": "Agent", "BashOutput": "TaskOutput", "KillShell": "TaskStop"}
_PATH_FIELDS = ("file_path", "notebook_path", "path")
_PATH_TOOLS = frozenset(
    {"Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "NotebookRead", "Glob", "Grep", "LS"}
)
_SHELL_SPLIT = re.compile(r"\|\||&&|[;|&\n]")


class MatcherError(ValueError):
    """A matcher that is neither a name list nor a valid regular expression."""


@functools.lru_cache(maxsize=256)
def compile_matcher(matcher: str | None) -> Callable[[str], bool]:
    """A predicate on the event's match value (tool name, source, trigger…)."""
    if matcher is None or matcher.strip() in ("", "*"):
        return lambda _value: True
    if _PLAIN.fullmatch(matcher):
        names = frozenset(n.strip() for n in re.split(r"[|,]", matcher) if n.strip())
        return lambda value: value in names
    try:
        pattern = re.compile(matcher)
    except re.error as exc:
        raise MatcherError(f"{matcher!r} is not a valid regular expression ({exc})") from None
    return lambda value: pattern.search(value) is not None


def rule_matches(
    rule: str, tool_name: str, tool_input: Mapping[str, Any], *, cwd: Path, project_dir: Path
) -> bool:
    """Whether the tool call matches the permission rule `rule` (a hook's `if`)."""
    found = re.fullmatch(r"\s*([^()\s]+)\s*(?:\((.*)\))?\s*", rule, re.DOTALL)
    if found is None:
        return False
    name, spec = found.groups()
    if _ALIASES.get(name, name) != _ALIASES.get(tool_name, tool_name):
        return False
    if spec is None or spec.strip() in ("", "*"):
        return True
    spec = spec.strip()
    if tool_name == "Bash":
        return _command_matches(spec, str(tool_input.get("command", "")))
    if tool_name in _PATH_TOOLS:
        path = next(
            (tool_input[f] for f in _PATH_FIELDS if isinstance(tool_input.get(f), str)), None
        )
        return path is not None and _path_matches(spec, path, cwd=cwd, project_dir=project_dir)
    if tool_name == "WebFetch" and spec.startswith("domain:"):
        host = urlparse(str(tool_input.get("url", ""))).hostname or ""
        want = spec.removeprefix("domain:")
        return _glob(want, dot_all=True).fullmatch(host) is not None
    param, sep, value = spec.partition(":")
    if sep and param in tool_input:
        return _glob(value, dot_all=True).fullmatch(str(tool_input[param])) is not None
    texts = [v for v in tool_input.values() if isinstance(v, str)]
    return any(_glob(spec, dot_all=True).fullmatch(t) for t in texts)


def _command_matches(spec: str, command: str) -> bool:
    """The whole command or any of its parts (`a && b`, `a | b`, …) matches."""
    if spec.endswith(":*"):  # legacy prefix form: `npm test:*`
        spec = spec[:-2] + " *"
    pattern = _glob(spec, dot_all=True, word_tail=True)
    parts = [command, *(p for p in _SHELL_SPLIT.split(command))]
    return any(pattern.fullmatch(p.strip()) for p in parts if p.strip())


def _path_matches(spec: str, path: str, *, cwd: Path, project_dir: Path) -> bool:
    """gitignore-style: `//abs`, `~/home`, `/project-relative`, `rel/` or `name` anywhere."""
    target = Path(path).expanduser()
    target = target if target.is_absolute() else cwd / target
    if spec.startswith("//"):
        anchored = spec[1:]
    elif spec.startswith("~/"):
        anchored = str(Path.home()) + spec[1:]
    elif spec.startswith("/"):
        anchored = str(project_dir) + spec
    elif "/" in spec.rstrip("/").removeprefix("./"):
        anchored = str(cwd / spec.removeprefix("./"))
    else:
        anchored = "**/" + spec  # a bare name matches at any depth
    if anchored.endswith("/"):
        anchored += "**"
    return _glob(anchored, dot_all=False).fullmatch(str(target)) is not None


@functools.lru_cache(maxsize=256)
def _glob(spec: str, *, dot_all: bool, word_tail: bool = False) -> re.Pattern[str]:
    """`*` (and `**`) as regex; with `dot_all` a `*` crosses `/` too."""
    tail = ""
    if word_tail and spec.endswith(" *"):
        spec, tail = spec[:-2], "( .*)?"
    out = []
    i = 0
    while i < len(spec):
        if spec.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif spec.startswith("**", i):
            out.append(".*")
            i += 2
        elif spec[i] == "*":
            out.append(".*" if dot_all else "[^/]*")
            i += 1
        elif spec[i] == "?" and not dot_all:
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(spec[i]))
            i += 1
    return re.compile("".join(out) + tail, re.DOTALL)
