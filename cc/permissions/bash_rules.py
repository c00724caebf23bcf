"""Bash commands against rules, modes and paths.

A command is parsed (bash_parse) into every simple command it would run, nested ones
included; it is allowed only if each is allowed: by a `Bash(...)` allow rule, as a
read-only command (shell_catalog) that reads only inside the working folders, or by
acceptEdits for mkdir/touch/rm/rmdir/mv/cp/sed inside them.

An allow rule grants running the command, not everything it can be made to do: what
its options or scripts do (`Effect`s: `find -exec`, `sed w`, `sort -o`, `git -c`…) and
every redirection that writes are checked on their own, whatever approved the command.
A write is checked like an Edit of its target, a command it runs as a command of its
own, and what cannot be seen through (`Opaque`) asks. Deny and ask rules match past any
leading `VAR=value`, wrappers (`timeout`, `nice`, `env`, `sudo`…), `sh -c`/`eval`
strings, variables the command line itself set (`x=curl; $x …`), and every command an
option runs; allow rules match past safe assignments and the plain wrappers only. With
a deny rule, a program it cannot see asks (bash_hidden). A bare `Bash` allow rule
grants every command and every write inside the working folders.

Beside it: where relative paths point (bash_where), git in another repository
(bash_git), what git prints of the files a Read deny rule covers (git_contents).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from cc.permissions.bash_forms import (
    effective,
    forms,
    is_bash_rule,
    join,
    nested,
    static_variables,
    substituted,
)
from cc.permissions.bash_git import check_foreign_git
from cc.permissions.bash_hidden import hidden_program
from cc.permissions.bash_parse import (
    PIPE_PATH,
    ParsedCommand,
    Redirect,
    SimpleCommand,
    Word,
    parse,
)
from cc.permissions.bash_where import Where, where_of
from cc.permissions.git_contents import check_git_contents
from cc.permissions.path_policy import PathPolicy, path_suggestion
from cc.permissions.paths import DEVICE_SINKS, Scope, critical_reason, norm
from cc.permissions.repositories import repository_of
from cc.permissions.rules import Rule, RuleSet, command_matches
from cc.permissions.shell_args import Effect, Usage, opaque
from cc.permissions.shell_catalog import usage
from cc.permissions.verdict import Assessment, Verdict, decide, normalize_mode

MAX_LENGTH = 10_000
MAX_COMMANDS = 50
MAX_NESTING = 10
MAX_SUGGESTIONS = 5
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_SEPARATORS = re.compile(r"[;&|()\n`{}<>]|\$\(")
_LEADING_ASSIGNMENTS = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+")
#: Tools whose rules suggest the first two words (`Bash(git commit *)`).
TWO_WORD_TOOLS = frozenset({"git", "npm", "pnpm", "yarn", "bun", "npx", "cargo", "go",
                            "docker", "kubectl", "pip", "pip3", "uv", "poetry", "gh", "dotnet",
                            "mvn", "gradle", "brew", "apt", "apt-get", "helm", "terraform"})


def evaluate_bash(
    command: str,
    rules: RuleSet,
    mode: str = "default",
    cwd: Path | None = None,
    dirs: Iterable[Path] = (),
    *,
    hook: str | None = None,
    home: Path | None = None,
    config_dir: Path | None = None,
    shell_cwd: Path | None = None,
) -> Verdict:
    """allow / ask / deny for one Bash command (a pure function of its arguments and the
    files on disk)."""
    scope = Scope(cwd or Path.cwd(), tuple(dirs), home or Path.home(), config_dir)
    return decide(assess_bash(command, rules, mode, scope, shell_cwd=shell_cwd), mode, hook)


# --- the assessment -------------------------------------------------------------------------


def assess_bash(command: str, rules: RuleSet, mode: str, scope: Scope, *,
                shell_cwd: Path | None = None) -> Assessment:
    mode = normalize_mode(mode)
    a = Assessment()
    parsed = parse(command)
    inner = nested(parsed.commands)
    everything = [parsed, *inner]
    policy = PathPolicy(rules, scope)
    where = where_of([c for p in everything for c in p.commands], shell_cwd or scope.cwd,
                     scope.home)

    variables = static_variables(parsed.commands)
    spellings = [command.strip(), *(f for p in everything
                                     for c in _with_run_commands(p.commands)
                                     for f in forms(substituted(c, variables), deny=True))]
    if parsed.error:  # a tree with errors may hide commands: also try every crude fragment
        spellings += _fragments(command)
    _match_rules(a, spellings, rules)
    _unseen_by_deny_rules(a, everything, variables, rules, parsed.error)
    _check_paths(a, everything, policy, where, scope)
    commands = [c for p in everything for c in _with_run_commands(p.commands)]
    check_foreign_git(a, commands, [c for c in commands if not _usage(c).read_only], where,
                      str(scope.cwd))
    if parsed.error:
        a.add_safety("unverifiable", "it could not be parsed")
    suspicious = _code_in_variables(variables)
    if suspicious:
        a.add_safety("unverifiable", f"${suspicious} holds an array subscript with code in "
                                     "it, which arithmetic on it would run")
    if len(command) > MAX_LENGTH:
        a.add_safety("unverifiable", f"it is longer than {MAX_LENGTH:,} characters")
    if len(parsed.commands) > MAX_COMMANDS or parsed.depth > MAX_NESTING:
        a.add_safety("unverifiable", "it is too complex to check")
    _approve(a, parsed, rules, mode, policy, where)
    return a


def _fragments(command: str) -> list[str]:
    out = []
    for piece in _SEPARATORS.split(command):
        piece = _LEADING_ASSIGNMENTS.sub("", piece.strip()).strip("'\" \t")
        if piece:
            out.append(piece)
    return out


def _match_rules(a: Assessment, spellings: list[str], rules: RuleSet) -> None:
    for behavior, record in (("deny", a.deny_once), ("ask", a.ask_once)):
        for rule in rules.of(behavior):
            if not is_bash_rule(rule):
                continue
            spec = rule.specifier
            if spec is None or any(command_matches(spec, s) for s in spellings):
                record(f"it matches the {behavior} rule {rule}")


def _unseen_by_deny_rules(a: Assessment, everything: list[ParsedCommand],
                          variables: dict[str, str], rules: RuleSet, error: bool) -> None:
    """With a `Bash(…)` deny rule, a command whose program cannot be seen asks: the rule
    cannot be checked against it (bash_hidden)."""
    if a.deny is not None:
        return
    rule = next((r for r in rules.deny if is_bash_rule(r) and r.specifier is not None), None)
    if rule is None:
        return
    why = "it could not be parsed" if error else None
    for cmd in (c for p in everything for c in _with_run_commands(p.commands)):
        why = why or hidden_program(substituted(cmd, variables))
    why = why or next((f"it runs {o.why}" for p in everything for c in p.commands
                       for o in usage(effective(c, deny=True)[1]).effects
                       if o.kind == "opaque"), None)
    if why:
        a.ask_once(f"{why}, so the deny rule {rule} cannot be checked against what it runs")


def _check_paths(a: Assessment, everything: list[ParsedCommand], policy: PathPolicy,
                 where: Where, scope: Scope) -> None:
    """Deny rules, protected files and critical paths, on every path any part touches."""
    for parsed in everything:
        for r in parsed.redirects:
            if r.writes and r.target is not None:
                _check_write(a, r.target, policy, where, redirect=True)
            elif r.reads and r.target is not None:
                for path in where.resolve(r.target) or ():
                    _deny_path(a, policy, path, write=False)
        for cmd in _with_run_commands(parsed.commands):
            u = usage(effective(cmd, deny=True)[1])
            read = [p for word in u.reads for p in where.resolve(word) or ()]
            for path in read:
                _deny_path(a, policy, path, write=False)
            _deny_inside(a, policy, read or where.cwds[:1], cmd)
            for word in _read_extras(cmd, where):
                _deny_path(a, policy, word, write=False)
            check_git_contents(a, cmd, policy, where)
            for effect in u.effects:
                if effect.kind in ("writes", "removes"):
                    _check_write(a, effect.words[0], policy, where, redirect=True)
            for word in u.writes:
                paths = _check_write(a, word, policy, where, redirect=False)
                if u.removes:
                    if paths is None:
                        a.add_safety("unverifiable", f"it removes {word.raw}, a path only "
                                                     "known when it runs")
                    for path in paths or ():
                        reason = critical_reason(path, scope)
                        if reason:
                            a.add_safety("critical", f"it would remove {path} ({reason})")


def _with_run_commands(cmds: list[SimpleCommand], depth: int = 0) -> list[SimpleCommand]:
    """`cmds` and every command their options run (`find -exec rm {} ;` runs `rm`), for
    the deny and ask rules: so past every wrapper (`sudo find … -exec …`)."""
    out = list(cmds)
    if depth >= MAX_NESTING:
        return out
    for cmd in cmds:
        effects = usage(effective(cmd, deny=True, keep_xargs=True)[1]).effects
        inner = [SimpleCommand([], list(e.words), [], "command", join(e.words))
                 for e in effects if e.kind == "runs" and e.words]
        out += _with_run_commands(inner, depth + 1)
    return out


#: Commands that read the files under a folder they are given (or under the working one).
_RECURSIVE = {"rg": "", "grep": "-r", "egrep": "-r", "fgrep": "-r"}
MAX_SCAN = 5_000


def _deny_inside(a: Assessment, policy: PathPolicy, paths: list[str],
                 cmd: SimpleCommand) -> None:
    """A command that reads everything under a folder (`grep -r`, `rg`, `git grep`) reads
    any denied file there too; without a path it reads the folder it runs in."""
    folders = [p for p in paths if os.path.isdir(p)]
    if not policy.rules.deny or not folders:
        return
    _, words = effective(cmd, deny=True)
    if not words:
        return
    name = os.path.basename(words[0].text)
    sub = words[1].value if len(words) > 1 else None
    flag = _RECURSIVE.get(name)
    recursive = (flag == "" or (flag and any(
        (w.value or "").startswith("-") and not (w.value or "").startswith("--")
        and ("r" in (w.value or "") or "R" in (w.value or ""))
        or w.value in ("--recursive", "--dereference-recursive") for w in words[1:]
    ))) or (name == "git" and sub == "grep")
    if not recursive:
        return
    for path in folders:
        denied = _first_denied_under(policy, path)
        if denied == "":
            a.ask_once(f"it reads everything under {path}, too much to check against the "
                       "deny rules")
        elif denied is not None:
            a.deny_once(f"it reads {denied} (under {path}), which a deny rule covers")


def _first_denied_under(policy: PathPolicy, folder: str) -> str | None:
    """A denied file under `folder`; "" if there are too many files to tell; else None."""
    return _first_under(folder, lambda p: p if policy.denied(p, write=False) else None)


def _first_under(folder: str, found: Callable[[str], str | None]) -> str | None:
    """The first `found(path)` that is not None for a path under `folder` (`.git` left
    out); "" if there are too many entries to tell; None if there is none."""
    seen = 0
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in (*files, *dirs):
            seen += 1
            if seen > MAX_SCAN:
                return ""
            hit = found(os.path.join(root, name))
            if hit is not None:
                return hit
    return None


def _read_extras(cmd: SimpleCommand, where: Where) -> list[str]:
    """Paths a command reads that are not plain arguments: `git show REV:path`,
    `git cat-file -p REV:path`, and the working folder for `git grep` without paths."""
    _, words = effective(cmd, deny=True)
    if len(words) < 2 or os.path.basename(words[0].text) != "git":
        return []
    sub = words[1].value
    out: list[str] = []
    if sub in ("show", "cat-file"):
        for word in words[2:]:
            v = word.value
            if v and ":" in v and not v.startswith("-"):
                rel = v.split(":", 1)[1]
                base = repository_of(where.cwds[0]) or where.cwds[0]
                if rel.startswith("./"):
                    base = where.cwds[0]
                out.append(norm(os.path.join(base, rel)))
    return out


def _deny_path(a: Assessment, policy: PathPolicy, path: str, *, write: bool) -> None:
    rule = policy.denied(path, write=write)
    if rule is not None:
        a.deny_once(f"it {'writes' if write else 'reads'} {path}, which matches the deny "
                    f"rule {rule}")
    rule = policy.asked(path, write=write)
    if rule is not None:
        a.ask_once(f"it {'writes' if write else 'reads'} {path}, which matches the ask "
                   f"rule {rule}")


def _check_write(a: Assessment, word: Word, policy: PathPolicy, where: Where, *,
                 redirect: bool) -> list[str] | None:
    if word.value in DEVICE_SINKS:
        return []
    paths = None if (redirect and word.glob) else where.resolve(word)
    if paths is None:
        if redirect:
            a.add_safety("unverifiable", f"it writes to {word.raw}, a path only known when "
                                         "it runs")
        return None
    for path in paths:
        _deny_path(a, policy, path, write=True)
        reason = policy.protected(path)
        if reason:
            a.add_safety("protected", f"it writes {path} ({reason})")
    return paths


def _approve(a: Assessment, parsed: ParsedCommand, rules: RuleSet, mode: str,
             policy: PathPolicy, where: Where) -> None:
    """Is every part approved (allow rule, read-only, acceptEdits), and every write?"""
    check = _Approval(rules, mode, policy, where, whole_tool=_grants_whole_tool(rules))
    owned: set[int] = set()
    for cmd in parsed.commands:
        a.writes = a.writes or not _usage(cmd).read_only
        check.command(cmd)
        for r in cmd.redirects:
            owned.add(id(r))
            check.redirect(r)
    for r in parsed.redirects:
        if r.writes and (r.target is None or r.target.value not in DEVICE_SINKS):
            a.writes = True
        if id(r) not in owned:
            check.redirect(r)
    if check.needs:
        a.need = "; ".join(dict.fromkeys(check.needs))
        a.suggestions = tuple(check.suggestions[:MAX_SUGGESTIONS])
    else:
        a.approved = Verdict("allow", "every part of it is allowed", "readonly")


@dataclass
class _Approval:
    """Collects what keeps a command from being approved, and the rules that would."""

    rules: RuleSet
    mode: str
    policy: PathPolicy
    where: Where
    #: A bare `Bash` (or `Bash(*)`) allow rule: every command is granted, and so is every
    #: write inside the working folders; writes elsewhere are still asked about.
    whole_tool: bool = False
    needs: list[str] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)

    def command(self, cmd: SimpleCommand, depth: int = 0) -> None:
        explicit = _allowed_by_rule(cmd, self.rules)
        u = _usage(cmd)
        blocker, outside = _read_only_blocker(u, cmd, self.policy, self.where)
        ok = explicit is not None or blocker is None or (
            self.mode == "acceptEdits" and _accept_edits_ok(u, self.policy, self.where)
        )
        label = f"`{_short(cmd.source or join(cmd.words))}`"
        if not ok:
            why = blocker or u.reason
            self.needs.append(f"{label} is not covered by an allow rule"
                              + (f" ({why})" if why else ""))
            # A read-only command reading elsewhere: offer that folder, not `Bash(cat *)`.
            rule = (path_suggestion("Read", outside, self.policy.scope,
                                    folder=os.path.isdir(outside)) if outside else suggest(cmd))
            self._suggest(rule)
            return
        if self.whole_tool:  # the tool is granted whole, but not writes outside the folders
            for word in u.writes:
                self._write(word, label, "removes" if u.removes else "writes to", glob=True)
        for effect in u.effects:  # whatever approved the command, these are checked anew
            self.effect(effect, label, depth)

    def effect(self, effect: Effect, label: str, depth: int) -> None:
        if effect.kind == "opaque":
            if not self.whole_tool:
                self.needs.append(f"{label} needs approval: {effect.why}")
        elif effect.kind in ("writes", "removes"):
            self._write(effect.words[0], label,
                        "writes to" if effect.kind == "writes" else "removes")
        elif effect.kind == "runs":
            if depth >= MAX_NESTING:
                self.needs.append(f"{label} runs commands nested too deeply to check")
                return
            inner = SimpleCommand([], list(effect.words), [], "command", join(effect.words))
            self.command(inner, depth + 1)

    def _write(self, target: Word, label: str, verb: str, *, glob: bool = False) -> None:
        if not self._write_ok(target, glob=glob):
            self.needs.append(f"{label} {verb} {target.raw}")
            self._suggest_edit(target)

    def _write_ok(self, target: Word | None, *, glob: bool = False) -> bool:
        return _write_ok(target, self.policy, self.where, glob=glob,
                         inside_ok=self.whole_tool or self.mode == "acceptEdits")

    def redirect(self, r: Redirect) -> None:
        if r.writes and not self._write_ok(r.target):
            self.needs.append(f"it writes to {r.target.raw if r.target else '?'}")
            if r.target is not None:
                self._suggest_edit(r.target)

    def _suggest(self, rule: str | None) -> None:
        if rule and rule not in self.suggestions:
            self.suggestions.append(rule)

    def _suggest_edit(self, target: Word) -> None:
        paths = self.where.resolve(target) if not target.glob else None
        if paths and len(paths) == 1 and not self.policy.protected(paths[0]):
            self._suggest(path_suggestion("Edit", paths[0], self.policy.scope))


def _grants_whole_tool(rules: RuleSet) -> bool:
    return any(rule.specifier is None and is_bash_rule(rule) for rule in rules.allow)


def _usage(cmd: SimpleCommand) -> Usage:
    if cmd.kind == "test":
        return _test_usage(cmd.source)
    if cmd.kind != "command":
        return Usage(False, reason="it sets shell variables")
    if any(w.value is None and "@P" in w.raw for w in cmd.words):
        return Usage(False, reason="${var@P} expansion can run commands")
    assigns, words = effective(cmd, deny=False, keep_xargs=True)
    if words and words[0].value in ("test", "["):
        return _test_usage(cmd.source)
    u = usage(words)
    if assigns:
        return Usage(False, u.reads, u.writes, False, u.removes,
                     "it sets environment variables for the command")
    return u


_ARITHMETIC = re.compile(r"(?:^|\s)-(?:eq|ne|lt|le|gt|ge|v)(?:\s|$)")
_CODE_IN_SUBSCRIPT = re.compile(r"\[[^\]]*(?:\$\(|`)")


def _test_usage(source: str) -> Usage:
    """`[[ … ]]` and `test`/`[` read nothing, unless an operand is evaluated as arithmetic:
    `-v a[…]` and `-eq`-style comparisons run any `$(…)` inside an array subscript."""
    if _ARITHMETIC.search(source) and _CODE_IN_SUBSCRIPT.search(source):
        why = "the test evaluates an array subscript with code in it, which runs that code"
        return Usage(False, reason=why, effects=(opaque(why),))
    return Usage(True)


def _code_in_variables(variables: dict[str, str]) -> str | None:
    """A variable the line sets to an array subscript with code: arithmetic on it (in
    `[[ -eq ]]`, `$(( ))`, `(( ))`) would run that code, wherever it is used."""
    for name, value in variables.items():
        if _CODE_IN_SUBSCRIPT.search(value):
            return name
    return None


def _allowed_by_rule(cmd: SimpleCommand, rules: RuleSet) -> Rule | None:
    """The allow rule that covers this command. A command whose name expands at run time
    matches only a bare `Bash` rule; one with unsafe `VAR=value` prefixes only a rule that
    spells them out (so `Bash(* --version)` does not cover `PAGER=x git --version`)."""
    assigns, words = effective(cmd, deny=False)
    static_name = bool(words) and words[0].value is not None
    spellings = forms(cmd, deny=False)
    for rule in rules.allow:
        if not is_bash_rule(rule):
            continue
        if rule.specifier is None:
            return rule
        if not static_name or (assigns and not _ASSIGNMENT.match(rule.specifier)):
            continue
        if any(command_matches(rule.specifier, s) for s in spellings):
            return rule
    return None


def _read_only_blocker(u: Usage, cmd: SimpleCommand, policy: PathPolicy,
                       where: Where) -> tuple[str | None, str | None]:
    """(None, None) if it runs as a read-only command; else why not ("" if it simply is
    not read-only) and the path outside the working folders it reads, if that is why."""
    if not u.read_only:
        return "", None
    reads = [*u.reads, *(r.target for r in cmd.redirects if r.reads and r.target)]
    folders: list[str] = []
    for word in reads:
        if word.value == PIPE_PATH:
            continue  # `<(…)`: a pipe, whose producer is a command of its own
        paths = where.resolve(word)
        if paths is None:
            return f"it reads {word.raw}, a path only known when it runs", None
        outside = next((p for p in paths if not policy.readable(p)), None)
        if outside is not None:
            return f"it reads {outside}, outside the working folders", outside
        folders += [p for p in paths if os.path.isdir(p)]
    if _follows_links(cmd):
        for folder in folders or where.cwds[:1]:
            escape = _link_out_of(policy, folder)
            if escape == "":
                return f"it follows symbolic links under {folder}, too many to check", None
            if escape is not None:
                return f"it follows a symbolic link to {escape}, outside the working folders", \
                    escape
    return None, None


def _follows_links(cmd: SimpleCommand) -> bool:
    """Does it read through every symbolic link under a folder (`grep -R`, `rg -L`)?"""
    _, words = effective(cmd, deny=True)
    if not words:
        return False
    name = os.path.basename(words[0].text)
    flags = [w.value or "" for w in words[1:]]
    short = "".join(f[1:] for f in flags if f.startswith("-") and not f.startswith("--"))
    if name in ("grep", "egrep", "fgrep"):
        return "R" in short or "--dereference-recursive" in flags
    if name == "rg":
        return "L" in short or "--follow" in flags
    return False


def _link_out_of(policy: PathPolicy, folder: str) -> str | None:
    """Where a symbolic link under `folder` leads outside the readable folders; "" if
    there are too many entries to tell; None if none does."""
    return _first_under(folder, lambda p: os.path.realpath(p)
                        if os.path.islink(p) and not policy.readable(p) else None)


def _accept_edits_ok(u: Usage, policy: PathPolicy, where: Where) -> bool:
    if not u.accept_edits:
        return False
    for word in (*u.writes, *u.reads):
        paths = where.resolve(word)
        if not paths or not all(policy.inside(p) for p in paths):
            return False
    return True


def _write_ok(target: Word | None, policy: PathPolicy, where: Where, *,
              inside_ok: bool, glob: bool = False) -> bool:
    """Would an Edit of `target` be allowed? (What approved the command does not count,
    except a bare `Bash` rule, which like acceptEdits makes `inside_ok`: any write inside
    the working folders.) A glob is expanded only for arguments (`glob`), never for a
    redirection's target."""
    if target is None or target.value in DEVICE_SINKS:
        return True
    paths = None if target.glob and not glob else where.resolve(target)
    if not paths:
        return False
    for path in paths:
        if policy.allowed(path, write=True):
            continue
        if not (inside_ok and policy.inside(path)):
            return False
    return True


def suggest(cmd: SimpleCommand) -> str | None:
    """The allow rule "always" adds for one command: `Bash(npm test *)`, `Bash(ls *)`."""
    assigns, words = effective(cmd, deny=False)
    if not words or words[0].value is None or cmd.kind != "command":
        return None
    if assigns:
        text = join([*assigns, *words])
        return None if any(c in text for c in "()\n*") else f"Bash({text})"
    name = words[0].value
    rule = f"Bash({name} *)"
    second = words[1].value if len(words) > 1 else None
    if name in TWO_WORD_TOOLS and second and not second.startswith("-"):
        rule = f"Bash({name} {second} *)"
    return None if any(c in rule[5:-1] for c in "()\n") else rule


def _short(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
