"""Every tool other than Bash: bare and param rules, file paths, WebFetch domains, MCP.

`assess_tool()` returns the `Assessment` (see verdict.py) and the words that describe the
call in messages and prompts ("edit /p/x.py", "Edit file: /p/x.py").
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from cc.permissions.path_policy import PathPolicy, path_suggestion
from cc.permissions.paths import Scope, expand
from cc.permissions.rules import (
    EDIT_TOOLS,
    READ_TOOLS,
    RuleSet,
    bare_matches,
    domain_matches,
    name_pattern_matches,
    param_matches,
)
from cc.permissions.verdict import Assessment, Verdict

#: Tools that never need permission (they ask the user themselves, or touch only the
#: conversation's own state).
#: Tools that ask before they reach outside but change nothing: plan mode lets them ask
#: (as WebFetch, a path-less fetch, always could) instead of refusing them as writes.
ONLY_READ_OUTSIDE = frozenset({"WebSearch"})
NO_PERMISSION_NEEDED = frozenset({
    "TaskOutput", "TaskStop", "TodoWrite", "TaskCreate", "TaskGet", "TaskUpdate", "TaskList",
    "AskUserQuestion", "ExitPlanMode", "EnterPlanMode", "Agent", "Skill", "SendMessage",
    "TeamCreate", "TeamDelete",
    "ListMcpResourcesTool", "ReadMcpResourceTool",
})
#: Bare allow rules that cover a whole family (`Edit` allows Write and NotebookEdit too).
FAMILY_OF_BARE = {"Edit": EDIT_TOOLS, "Read": READ_TOOLS}
_NAMED_BY = {"Agent": "subagent_type", "Skill": "skill"}


@dataclass(frozen=True)
class Described:
    action: str  # "edit /p/x.py" (for "Permission to … was denied")
    description: str  # "Edit file: /p/x.py" (for the prompt)


def tool_path(tool_name: str, inp: dict[str, Any], cwd: Path, home: Path) -> str | None:
    """The absolute path a file tool acts on (Grep/Glob default to the working folder)."""
    if tool_name in EDIT_TOOLS or tool_name == "Read":
        raw = inp.get("notebook_path") if tool_name == "NotebookEdit" else inp.get("file_path")
        return expand(raw, cwd, home) if isinstance(raw, str) and raw else None
    if tool_name in READ_TOOLS:
        given = inp.get("file_path") or inp.get("path")
        base = given if isinstance(given, str) and given else "."
        path = expand(base, cwd, home)
        pattern = inp.get("pattern") if tool_name == "Glob" else None
        if isinstance(pattern, str):
            static = re.split(r"[*?\[{]", pattern, maxsplit=1)[0]
            if "/" in static:
                path = expand(static.rsplit("/", 1)[0] or "/", Path(path), home)
        return path
    return None


def describe(tool_name: str, inp: dict[str, Any], path: str | None) -> Described:
    if tool_name in ("Bash", "Monitor"):
        cmd = str(inp.get("command", ""))
        short = cmd if len(cmd) <= 200 else cmd[:199] + "…"
        return Described(f"run `{short}`", f"Bash command: {cmd}")
    if path is not None:
        verb = {"Write": "write", "NotebookEdit": "edit the notebook"}.get(
            tool_name, "edit" if tool_name in EDIT_TOOLS else "read")
        if tool_name in ("Grep", "Glob"):
            verb = "search"
        label = {"Write": "Write file", "NotebookEdit": "Edit notebook", "Grep": "Search",
                 "Glob": "Search"}.get(tool_name, "Edit file" if tool_name in EDIT_TOOLS
                                       else "Read file")
        return Described(f"{verb} {path}", f"{label}: {path}")
    if tool_name == "WebFetch":
        return Described(f"fetch {inp.get('url')}", f"Fetch: {inp.get('url')}")
    shown = json.dumps(inp, ensure_ascii=False, default=str)
    shown = shown if len(shown) <= 300 else shown[:299] + "…"
    return Described(f"use {tool_name}", f"{tool_name}: {shown}")


def assess_tool(tool_name: str, inp: dict[str, Any], *, read_only: bool, rules: RuleSet,
                mode: str, scope: Scope) -> Assessment:
    a = Assessment()
    for behavior, record in (("deny", a.deny_once), ("ask", a.ask_once)):
        for rule in rules.of(behavior):
            if bare_matches(rule, tool_name) or param_matches(rule, tool_name, inp):
                record(f"it matches the {behavior} rule {rule}")
    bare_allow = next((r for r in rules.allow if r.specifier is None and (
        bare_matches(r, tool_name) or tool_name in FAMILY_OF_BARE.get(r.tool, ()))), None)
    path = tool_path(tool_name, inp, scope.cwd, scope.home)
    if path is not None:
        _assess_path(a, tool_name, path, PathPolicy(rules, scope), mode)
    elif tool_name == "WebFetch":
        _assess_fetch(a, str(inp.get("url", "")), rules)
    else:
        _assess_named(a, tool_name, inp, rules, read_only)
    if bare_allow is not None and a.approved is None:
        a.approved = Verdict("allow", f"it matches the allow rule {bare_allow}", "rule")
    return a


def _assess_path(a: Assessment, tool_name: str, path: str, policy: PathPolicy,
                 mode: str) -> None:
    write = tool_name in EDIT_TOOLS
    a.writes = write
    rule = policy.denied(path, write=write)
    if rule is not None:
        a.deny_once(f"{path} matches the deny rule {rule}")
    rule = policy.asked(path, write=write)
    if rule is not None:
        a.ask_once(f"{path} matches the ask rule {rule}")
    if _in_memory(path, policy.scope.memory_dir):
        # The memory folder is the agent's own notebook: no question, even mid-turn.
        a.approved = Verdict("allow", "it is in the project's memory folder", "memory")
        return
    if write:
        reason = policy.protected(path)
        if reason:
            a.add_safety("protected", f"{path} is protected ({reason})")
    rule = policy.allowed(path, write=write)
    inside = policy.inside(path)
    if rule is not None:
        a.approved = Verdict("allow", f"it matches the allow rule {rule}", "rule")
    elif inside and (not write or mode == "acceptEdits"):
        a.approved = Verdict("allow", "it is inside the working folders", "mode")
    where = "inside" if inside else "outside"
    a.need = (f"{path} is {where} the working folders" if not write or not inside
              else "file changes need approval in this mode")
    folder = not write and tool_name in ("Grep", "Glob") and os.path.isdir(path)
    rule_text = path_suggestion("Edit" if write else "Read", path, policy.scope, folder=folder)
    a.suggestions = (rule_text,) if rule_text and not a.safety else ()


def _in_memory(path: str, memory: Path | None) -> bool:
    """Inside the memory folder both as written and with symlinks resolved (a link in
    the folder must not lead the file tools elsewhere unasked)."""
    if memory is None:
        return False
    real_memory = os.path.realpath(memory)
    return all(p == root or p.startswith(root + os.sep) for p, root in (
        (path, str(memory)), (os.path.realpath(path), real_memory)))


def _assess_fetch(a: Assessment, url: str, rules: RuleSet) -> None:
    for behavior, record in (("deny", a.deny_once), ("ask", a.ask_once)):
        for rule in rules.of(behavior):
            if rule.tool == "WebFetch" and rule.specifier and domain_matches(rule.specifier, url):
                record(f"it matches the {behavior} rule {rule}")
    for rule in rules.allow:
        if rule.tool == "WebFetch" and rule.specifier and domain_matches(rule.specifier, url):
            a.approved = Verdict("allow", f"it matches the allow rule {rule}", "rule")
            break
    try:
        host = urlsplit(url).hostname
    except ValueError:
        host = None
    a.need = f"fetching from {host or url} needs approval"
    a.suggestions = (f"WebFetch(domain:{host})",) if host else ()


def _assess_named(a: Assessment, tool_name: str, inp: dict[str, Any], rules: RuleSet,
                  read_only: bool) -> None:
    field = _NAMED_BY.get(tool_name)
    value = str(inp.get(field, "")) if field else ""
    if tool_name == "Skill" and inp.get("args"):
        value = f"{value} {inp['args']}"
    for behavior in ("deny", "ask", "allow"):
        for rule in rules.of(behavior):
            if field and rule.tool == tool_name and rule.specifier and rule.param is None \
                    and name_pattern_matches(rule.specifier, value):
                verdict = f"it matches the {behavior} rule {rule}"
                if behavior == "allow":
                    a.approved = a.approved or Verdict("allow", verdict, "rule")
                else:
                    (a.deny_once if behavior == "deny" else a.ask_once)(verdict)
    if a.approved is None and (tool_name in NO_PERMISSION_NEEDED or (
            read_only and not tool_name.startswith("mcp__"))):
        a.approved = Verdict("allow", "it does not need permission", "readonly")
    a.writes = not read_only and tool_name not in NO_PERMISSION_NEEDED | ONLY_READ_OUTSIDE
    a.need = f"{tool_name} needs approval"
    a.suggestions = (tool_name,)
