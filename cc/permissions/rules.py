"""Permission rules: `Tool` or `Tool(specifier)`, parsed once and matched many times.

Families (which tools a specifier rule speaks about):

    Bash(cmd pattern)        Bash, Monitor          (matching lives in bash_rules.py)
    Read(path)               Read, Grep, Glob, LSP  (a Read deny also blocks Edit/Write)
    Edit(path)               Edit, Write, NotebookEdit (an Edit allow also grants Read)
    WebFetch(domain:host)    WebFetch
    Agent(name) / Skill(name)
    mcp__server[__tool]      MCP tools, by name
    Tool(param:value)        any tool's non-primary scalar input (deny and ask only)

Deny beats ask beats allow, whatever the source.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

RuleBehavior = Literal["allow", "deny", "ask"]
BEHAVIORS: tuple[RuleBehavior, ...] = ("allow", "deny", "ask")

BASH_TOOLS = frozenset({"Bash", "Monitor"})
READ_TOOLS = frozenset({"Read", "Grep", "Glob", "LSP"})
EDIT_TOOLS = frozenset({"Edit", "Write", "NotebookEdit", "MultiEdit"})
#: Path rules under these names are accepted but never consulted (Claude Code warns too).
UNCONSULTED_PATH_TOOLS = frozenset({"Write", "NotebookEdit", "Glob", "MultiEdit"})
TOOL_ALIASES = {"Task": "Agent", "KillShell": "TaskStop", "KillBash": "TaskStop",
                "BashOutput": "TaskOutput"}
#: Inputs a `Tool(param:value)` rule may not name (their families match them instead).
PRIMARY_FIELDS = frozenset({"command", "file_path", "path", "notebook_path", "url"})
BASH_PARAMS = frozenset({"run_in_background", "timeout", "description",
                         "dangerouslyDisableSandbox"})
_RULE = re.compile(r"([^()\s]+)(?:\((.*)\))?", re.DOTALL)
_TOOL_NAME = re.compile(r"[A-Za-z0-9_.*-]+")
_PARAM = re.compile(r"([A-Za-z_][A-Za-z0-9_]*):(.*)", re.DOTALL)


@dataclass(frozen=True)
class Rule:
    text: str
    behavior: RuleBehavior
    tool: str
    specifier: str | None = None
    source: str = "session"
    #: Folder `/path` patterns are relative to (the settings source's root).
    anchor: Path = Path("/")
    #: Folder `path` / `./path` patterns are relative to.
    cwd: Path = Path("/")
    #: `Tool(param:value)`: the input field and value pattern.
    param: tuple[str, str] | None = None

    def __str__(self) -> str:
        return self.text


@dataclass
class RuleSet:
    allow: list[Rule] = field(default_factory=list)
    deny: list[Rule] = field(default_factory=list)
    ask: list[Rule] = field(default_factory=list)

    def of(self, behavior: str) -> list[Rule]:
        return {"allow": self.allow, "deny": self.deny, "ask": self.ask}[behavior]

    def add(self, rule: Rule) -> None:
        bucket = self.of(rule.behavior)
        if all(r.text != rule.text or r.anchor != rule.anchor for r in bucket):
            bucket.append(rule)

    def scoped(self) -> RuleSet:
        """The rules for an agent started now: the deny and ask rules are shared (one
        added later binds every agent), the allow rules copied (a grant given later,
        an "always" answer or a command's `allowed-tools`, stays with whoever got it)."""
        return RuleSet(allow=list(self.allow), deny=self.deny, ask=self.ask)

    @classmethod
    def from_strings(
        cls,
        *,
        cwd: Path,
        allow: Iterable[str] = (),
        deny: Iterable[str] = (),
        ask: Iterable[str] = (),
        anchor: Path | None = None,
        source: str = "session",
    ) -> RuleSet:
        """Rules from strings (tests, CLI flags); a bad rule raises ValueError."""
        out = cls()
        for behavior, texts in (("allow", allow), ("deny", deny), ("ask", ask)):
            for text in texts:
                rule, warning = parse_rule(text, behavior, source=source,
                                           anchor=anchor or cwd, cwd=cwd)
                if rule is None:
                    raise ValueError(warning)
                out.add(rule)
        return out


def parse_rule(
    text: str, behavior: str, *, source: str, anchor: Path, cwd: Path
) -> tuple[Rule | None, str | None]:
    """(rule, warning). The rule is None when it is ignored; the warning says why."""
    raw = text.strip() if isinstance(text, str) else ""
    where = f"permissions.{behavior} rule {text!r} ({source})"
    m = _RULE.fullmatch(raw)
    if not raw or m is None or not _TOOL_NAME.fullmatch(m.group(1)):
        return None, f"Ignored {where}: write it as Tool or Tool(specifier)"
    tool, spec = TOOL_ALIASES.get(m.group(1), m.group(1)), m.group(2)
    spec = None if spec is None or spec.strip() in ("", "*") else spec.strip()
    if behavior == "allow" and "*" in tool and not re.match(r"mcp__[^*]+__", tool):
        return None, (f"Ignored {where}: an allow rule may use * in the tool name only "
                      "after a literal MCP server prefix, e.g. mcp__github__get_*")
    rule = Rule(raw, behavior, tool, spec, source, anchor, cwd)  # type: ignore[arg-type]
    warning = None
    if spec is not None:
        pm = _PARAM.fullmatch(spec)
        is_param = pm is not None and (
            (tool in BASH_TOOLS and pm.group(1) in BASH_PARAMS)
            or (tool not in BASH_TOOLS | READ_TOOLS | EDIT_TOOLS | {"WebFetch"}
                and not tool.startswith("mcp__"))
        )
        if is_param and pm is not None:
            if pm.group(1) in PRIMARY_FIELDS:
                return None, f"Ignored {where}: {pm.group(1)} cannot be matched as param:value"
            if behavior == "allow":
                return None, f"Ignored {where}: param:value rules are for deny and ask only"
            return Rule(raw, behavior, tool, spec, source, anchor, cwd,  # type: ignore[arg-type]
                        (pm.group(1), pm.group(2))), None
        if tool in UNCONSULTED_PATH_TOOLS:
            warning = (f"{where}: {tool}(...) path rules are never consulted; "
                       f"use {'Read' if tool == 'Glob' else 'Edit'}(...)")
        elif tool == "WebFetch" and not spec.startswith("domain:"):
            return None, f"Ignored {where}: write WebFetch rules as WebFetch(domain:host)"
        elif tool.startswith("mcp__"):
            return None, f"Ignored {where}: MCP rules take no specifier"
    return rule, warning


# --- matching ---------------------------------------------------------------------------------


def name_matches(rule_tool: str, tool_name: str) -> bool:
    """A rule's tool name against a tool: exact, `mcp__server` for a whole server, or a glob."""
    tool_name = TOOL_ALIASES.get(tool_name, tool_name)
    if rule_tool == tool_name:
        return True
    if re.fullmatch(r"mcp__[^_*]+(?:_[^_*]+)*", rule_tool) and tool_name.startswith(
        rule_tool + "__"
    ):
        return True
    return "*" in rule_tool and _name_glob(rule_tool).fullmatch(tool_name) is not None


@lru_cache(maxsize=256)
def _name_glob(pattern: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(p) for p in pattern.split("*")))


def bare_matches(rule: Rule, tool_name: str) -> bool:
    return rule.specifier is None and name_matches(rule.tool, tool_name)


def param_matches(rule: Rule, tool_name: str, inp: dict[str, Any]) -> bool:
    if rule.param is None or not name_matches(rule.tool, tool_name):
        return False
    key, pattern = rule.param
    value = inp.get(key)
    if value is None or isinstance(value, (dict, list)):
        return False
    text = ("true" if value else "false") if isinstance(value, bool) else str(value)
    return _name_glob(pattern).fullmatch(text) is not None


@lru_cache(maxsize=1024)
def _command_regex(pattern: str) -> re.Pattern[str]:
    if pattern.endswith(":*"):
        pattern = pattern[:-2] + " *"
    tail = ""
    if pattern.endswith(" *"):
        pattern, tail = pattern[:-2], "(?: .*)?"
    body = ".*".join(re.escape(p) for p in pattern.split("*"))
    return re.compile(body + tail, re.DOTALL)


def command_matches(pattern: str, command: str) -> bool:
    """`Bash(...)` pattern against one command: `*` anywhere; a trailing ` *` (or legacy
    `:*`) is a word boundary, so `ls *` matches `ls` and `ls -la` but not `lsof`."""
    return _command_regex(pattern).fullmatch(command) is not None


def domain_matches(spec: str, url: str) -> bool:
    """`domain:example.com` / `domain:*.example.com` / `domain:*` against a URL's host."""
    want = spec.removeprefix("domain:").strip().lower()
    try:
        host = (urlsplit(url).hostname or "").lower()
    except ValueError:
        return False
    if not host:
        return False
    if want == "*":
        return True
    if want.startswith("*."):
        return host.endswith(want[1:])
    return host == want


def name_pattern_matches(spec: str, value: str) -> bool:
    """`Agent(name)` / `Skill(name *)` style specifiers: `*` globs, trailing ` *` optional."""
    return command_matches(spec, value)
