"""YAML frontmatter of Markdown files (custom commands, agent definitions).

    ---
    description: Review the diff
    tools: Read, Grep
    ---
    The body.

`parse_frontmatter` is strict: frontmatter that is not a YAML mapping raises
`FrontmatterError`. Before giving up it quotes plain values holding ": " once, since
descriptions such as "Use when: the tests fail" are common and are not valid YAML.
`split_frontmatter` never raises: what does not parse is read as `key: value` lines.
yaml is imported only when a file has frontmatter.
"""

from __future__ import annotations

import re
from typing import Any

from cc.errors import FrontmatterError

__all__ = ["FrontmatterError", "parse_frontmatter", "split_frontmatter", "split_list"]

_FRONTMATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.S)
_PLAIN_LINE = re.compile(r"^([A-Za-z_][\w-]*):[ \t]+(?![\"'\[{|>&*!])(.*\S)[ \t]*$")


def parse_frontmatter(text: str) -> tuple[dict[str, Any], str]:
    """(frontmatter mapping, body); ({}, text) when there is no frontmatter."""
    match = _FRONTMATTER.match(text)
    if not match:
        return {}, text
    raw, body = match.group(1), text[match.end() :]
    import yaml

    try:
        meta = yaml.safe_load(raw)
    except yaml.YAMLError as exc:
        try:
            meta = yaml.safe_load(_quote_plain_values(raw))
        except yaml.YAMLError:
            raise FrontmatterError(f"frontmatter is not valid YAML: {_yaml_problem(exc)}") from None
    if meta is None:
        return {}, body
    if not isinstance(meta, dict):
        raise FrontmatterError("frontmatter is not a mapping of keys to values")
    return {str(k): v for k, v in meta.items()}, body


def split_frontmatter(text: str) -> tuple[dict[str, Any], str]:
    """(frontmatter mapping, body). Frontmatter that is not YAML is read as `key: value` lines."""
    try:
        return parse_frontmatter(text)
    except FrontmatterError:
        pass
    match = _FRONTMATTER.match(text)
    assert match is not None  # parse_frontmatter raises only when there is frontmatter
    meta: dict[str, Any] = {}
    for line in match.group(1).splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip():
            meta[key.strip()] = value.strip()
    return meta, text[match.end() :]


def split_list(value: Any) -> list[str]:
    """`Bash(git add:*), Read` or a YAML list: the items, split on commas outside parentheses."""
    if isinstance(value, list):
        return [str(v).strip() for v in value if str(v).strip()]
    out, depth, current = [], 0, ""
    for ch in "" if value is None else str(value):
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            out.append(current.strip())
            current = ""
        else:
            current += ch
    out.append(current.strip())
    return [t for t in out if t]


def _quote_plain_values(raw: str) -> str:
    """`key: a: b` → `key: "a: b"` for unindented lines whose plain value holds ": "."""
    lines = []
    for line in raw.splitlines():
        match = _PLAIN_LINE.match(line)
        if match and ": " in match.group(2):
            value = match.group(2).replace("\\", "\\\\").replace('"', '\\"')
            line = f'{match.group(1)}: "{value}"'
        lines.append(line)
    return "\n".join(lines)


def _yaml_problem(exc: Exception) -> str:
    """"mapping values are not allowed here (line 3)", counting the file's lines."""
    problem = getattr(exc, "problem", None) or str(exc).split("\n")[0] or type(exc).__name__
    mark = getattr(exc, "problem_mark", None)
    return f"{problem} (line {mark.line + 2})" if mark is not None else str(problem)
