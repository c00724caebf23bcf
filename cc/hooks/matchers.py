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

from cc.errors import MatcherError
from cc.permissions.paths import compile_path_pattern
from cc.permissions.rules import command_matches, domain_matches

_PLAIN = re.compile(r"[A-Za-z0-9_\- ,|]*")
_ALIASES = {"Task": "Agent", "BashOutput": "TaskOutput", "KillShell": "TaskStop"}
_PATH_FIELDS = ("file_path", "notebook_path", "path")
_PATH_TOOLS = frozenset(
    {"Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "NotebookRead", "Glob", "Grep", "LS"}
)
_SHELL_SPLIT = re.compile(r"\|\||&&|[;|&\n]")


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
        command = str(tool_input.get("command", ""))
        parts = [command, *(p for p in _SHELL_SPLIT.split(command))]
        return any(command_matches(spec, p.strip()) for p in parts if p.strip())
    if tool_name in _PATH_TOOLS:
        path = next(
            (tool_input[f] for f in _PATH_FIELDS if isinstance(tool_input.get(f), str)), None
        )
        if path is None:
            return False
        target = Path(path).expanduser()
        target = target if target.is_absolute() else cwd / target
        pattern = compile_path_pattern(
            spec, anchor=project_dir, cwd=cwd, home=Path.home(), deny=True
        )
        return pattern.matches(str(target), deny=True)
    if tool_name == "WebFetch" and spec.startswith("domain:"):
        return domain_matches(spec, str(tool_input.get("url", "")))
    param, sep, value = spec.partition(":")
    if sep and param in tool_input:
        return command_matches(value, str(tool_input[param]))
    texts = [v for v in tool_input.values() if isinstance(v, str)]
    return any(command_matches(spec, t) for t in texts)


