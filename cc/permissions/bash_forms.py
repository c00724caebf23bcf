"""How a shell command is spelled for rule matching, past assignments and wrappers.

`timeout 5 npm test` is matched as itself and as `npm test`; `FOO=1 rm x` as itself and,
for deny and ask rules only, as `rm x` (allow rules look past a few safe variables
only). Deny and ask rules also look through `env`, `sudo`, `exec`, and into the strings
run by `eval` and `sh -c`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from cc.permissions.bash_parse import ParsedCommand, SimpleCommand, Word, parse
from cc.permissions.rules import BASH_TOOLS, Rule, name_matches

#: Leading `VAR=value` assignments an allow rule may look past (values must be static).
SAFE_ENV_VARS = frozenset({"NODE_ENV", "RUST_BACKTRACE", "RUST_LOG", "PYTHONUNBUFFERED",
                           "PYTHONDONTWRITEBYTECODE", "NO_COLOR", "FORCE_COLOR", "CI", "TZ",
                           "LANG", "LC_ALL", "TERM", "COLUMNS", "DEBUG"})
ALLOW_WRAPPERS = frozenset({"timeout", "time", "nice", "nohup", "stdbuf", "command", "builtin",
                            "noglob", "xargs"})
#: Deny and ask rules also look through these.
DENY_WRAPPERS = ALLOW_WRAPPERS | {"env", "sudo", "doas", "exec", "watch", "setsid", "ionice",
                                  "flock", "chroot", "taskset", "busybox", "unbuffer",
                                  "pkexec", "chrt", "nsenter", "unshare", "strace", "ltrace"}
SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish"})
_VALUE_OPTS = {"timeout": "sk", "nice": "n", "stdbuf": "ioe", "xargs": "IaLnPdEs",
               "sudo": "ugpCDhrtU", "doas": "uC", "env": "uCS", "exec": "a", "watch": "nd",
               "ionice": "cnp", "flock": "wEc", "taskset": "", "chrt": "T",
               "nsenter": "tSGrwFp", "unshare": "S", "strace": "eopsaSIbXPU",
               "ltrace": "eopsaSnuAD"}
#: Wrappers whose first argument is not the command: `timeout 5 cmd`, `flock FILE cmd`.
_LEADING_ARGS = {"timeout": 1, "flock": 1, "chroot": 1, "taskset": 1, "chrt": 1}


def join(words: Iterable[Word]) -> str:
    return " ".join(w.text for w in words)


def _safe_assignment(word: Word) -> bool:
    return word.value is not None and word.value.split("=", 1)[0] in SAFE_ENV_VARS


def strip_wrapper(words: list[Word], *, deny: bool) -> list[Word] | None:
    """The command a wrapper runs (`timeout 5 npm test` → `npm test`), or None."""
    name = words[0].value
    if name not in (DENY_WRAPPERS if deny else ALLOW_WRAPPERS):
        return None
    if name == "command" and len(words) > 1 and words[1].value in ("-v", "-V"):
        return None
    value_opts, i = _VALUE_OPTS.get(name, ""), 1
    if name == "xargs" and not deny and len(words) > 1 and (words[1].value or "-")[:1] == "-":
        return None
    while i < len(words):
        v = words[i].value
        if v is None:
            return None
        if v == "--":
            i += 1
            break
        if name == "env" and "=" in v and not v.startswith("-"):
            i += 1
        elif v.startswith("-") and len(v) > 1:
            takes = len(v) == 2 and v[1] in value_opts
            i += 2 if takes else 1
        else:
            break
    i += _LEADING_ARGS.get(name, 0)  # the duration, the lock file, the new root…
    rest = words[i:]
    if rest and name in _LEADING_ARGS and (rest[0].value or "-").startswith("-"):
        return None  # `flock FILE -c '…'`: a string to run (see _inner_script)
    return rest or None


def forms(cmd: SimpleCommand, *, deny: bool) -> list[str]:
    """Every spelling a rule is tried against: as written, past assignments (deny/ask: any;
    allow: safe ones), past wrappers, and (deny/ask) with `/usr/bin/rm` read as `rm`."""
    out: list[str] = []
    todo = [(cmd.assignments, cmd.words)]
    while todo and len(out) < 32:
        assigns, words = todo.pop()
        text = join([*assigns, *words])
        if text in out:
            continue
        out.append(text)
        if assigns and (deny or all(map(_safe_assignment, assigns))):
            todo.append(([], words))
        if words:
            inner = strip_wrapper(words, deny=deny)
            if inner:
                todo.append((assigns, inner))
            name = words[0].value
            if deny and name and "/" in name.rstrip("/"):
                todo.append((assigns, [Word(name.rsplit("/", 1)[1], name.rsplit("/", 1)[1]),
                                       *words[1:]]))
    return out


def effective(cmd: SimpleCommand, *, deny: bool,
              keep_xargs: bool = False) -> tuple[list[Word], list[Word]]:
    """(assignments left, words) once safe assignments and wrappers are looked past.
    `keep_xargs`: `xargs cmd` stays itself (it runs `cmd` on input: never read-only)."""
    assigns, words = cmd.assignments, cmd.words
    for _ in range(16):
        if assigns and (deny or all(map(_safe_assignment, assigns))):
            assigns = []
            continue
        if keep_xargs and words and words[0].value == "xargs":
            break
        inner = strip_wrapper(words, deny=deny) if words else None
        if inner is None:
            break
        words = inner
    return assigns, words


def nested(cmds: list[SimpleCommand], depth: int = 0) -> list[ParsedCommand]:
    """Commands inside `eval '…'` and `sh -c '…'` strings (for deny and ask rules)."""
    out: list[ParsedCommand] = []
    for cmd in cmds:
        _, words = effective(cmd, deny=True)
        inner = _inner_script(words)
        if inner is not None and depth < 3:
            parsed = parse(inner)
            out += [parsed, *nested(parsed.commands, depth + 1)]
    return out


#: Commands that run a string as a shell command line, and the option that gives it.
_STRING_RUNNERS = {"script": "c", "flock": "c", "su": "c", "runuser": "c", "env": "S"}
_LONG_STRING_OPTS = ("--command", "--split-string")


def _inner_script(words: list[Word]) -> str | None:
    if not words or any(w.value is None for w in words):
        return None
    name = os.path.basename(words[0].text)
    if name == "eval" and len(words) > 1:
        return " ".join(w.text for w in words[1:])
    if name == "watch":  # runs its arguments through `sh -c`
        return " ".join(w.text for w in strip_wrapper(words, deny=True) or ())
    letter = "c" if name in SHELLS else _STRING_RUNNERS.get(name)
    if letter is None:
        return None
    for i, w in enumerate(words[1:], 1):
        text, nxt = w.text, words[i + 1].text if i + 1 < len(words) else None
        if text.startswith(_LONG_STRING_OPTS) and name not in SHELLS:
            return text.split("=", 1)[1] if "=" in text else nxt
        if text.startswith("-") and not text.startswith("--") and letter in text:
            return nxt
    return None


def is_bash_rule(rule: Rule) -> bool:
    if rule.param is not None:
        return False
    if rule.specifier is None:
        return name_matches(rule.tool, "Bash")
    return rule.tool in BASH_TOOLS


_VARIABLE = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")
_PLAIN = re.compile(r"(?:[A-Za-z0-9_./@%+,:=-]|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?)+")


def static_variables(cmds: list[SimpleCommand]) -> dict[str, str]:
    """Variables the command line sets to known values (`x=curl; …`, `export y=z`)."""
    out: dict[str, str] = {}
    for cmd in cmds:
        words = cmd.assignments if cmd.kind == "assignment" else (
            cmd.words[1:] if cmd.kind == "declaration" else []
        )
        for word in words:
            if word.value is not None and "=" in word.value:
                name, value = word.value.split("=", 1)
                if name.isidentifier():
                    out[name] = value
    return out


def substituted(cmd: SimpleCommand, variables: dict[str, str]) -> SimpleCommand:
    """`cmd` with `$x` / `${x}` in its words replaced by values the line itself set, so
    that `x=curl; $x evil` is matched as `curl evil` (by deny and ask rules)."""
    if not variables or "IFS" in variables or all(w.value is not None for w in cmd.words):
        return cmd  # (a new IFS splits expansions in ways not followed here)

    def expand(word: Word) -> Word:
        if word.value is not None or not _PLAIN.fullmatch(word.raw):
            return word
        names = [a or b for a, b in _VARIABLE.findall(word.raw)]
        if not all(n in variables for n in names):
            return word
        value = _VARIABLE.sub(lambda m: variables[m.group(1) or m.group(2)], word.raw)
        return Word(word.raw, value)

    return SimpleCommand(cmd.assignments, [expand(w) for w in cmd.words], cmd.redirects,
                         cmd.kind, cmd.source)
