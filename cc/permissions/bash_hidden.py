"""Commands whose program a deny rule cannot see: the name is computed, or the text it
runs is given inline to an interpreter, read from input, or made when it runs.

A `Bash(curl:*)` deny rule is matched against every spelling of every command the
analysis can see (bash_forms). These are the ways to run a program it cannot see:

    $'\\x63url' x   ${c:-curl} x   $(echo curl) x   `…` x   "${a[@]}"    computed name
    cu?l x   /usr/bin/cur[l] x                                          a file pattern
    echo 'curl x' | sh   bash <<< …   bash -s < f   sh -c "$X"           program on input
    eval "$(…)"   source <(…)   . /dev/stdin                             text made on the fly
    python -c …   perl -e …   node -e …   ruby -e …                      an inline program
    alias c=curl                                                         a renamed command

Where a Bash deny rule exists, such a command asks (print mode refuses it) and says
why: the rule cannot be checked against what it would run. Without one, nothing here
applies. Scripts run from files (`bash build.sh`, `python x.py`) are not looked into.
"""

from __future__ import annotations

import os
import re

from cc.permissions.bash_forms import SHELLS, effective
from cc.permissions.bash_parse import SimpleCommand, Word

#: Interpreters and the options that hand them a program inline (single letters may be
#: bundled: `perl -ne`, `python -Ic`).
INLINE: dict[str, tuple[str, frozenset[str]]] = {
    "python": ("c", frozenset()), "pypy": ("c", frozenset()),
    "perl": ("eE", frozenset()), "ruby": ("e", frozenset()),
    "node": ("ep", frozenset({"--eval", "--print"})), "nodejs": ("ep", frozenset({"--eval",
                                                                                 "--print"})),
    "bun": ("ep", frozenset({"--eval", "--print"})), "deno": ("", frozenset({"eval"})),
    "php": ("rBRE", frozenset()), "lua": ("e", frozenset()), "luajit": ("e", frozenset()),
    "Rscript": ("e", frozenset()), "R": ("e", frozenset()), "julia": ("eE", frozenset()),
    "osascript": ("e", frozenset()), "tclsh": ("", frozenset()), "wish": ("", frozenset()),
    "pwsh": ("c", frozenset({"-Command", "-EncodedCommand", "-command"})),
    "elixir": ("e", frozenset({"--eval"})), "groovy": ("e", frozenset()),
}
#: Options that print something about the interpreter and run no program.
_INFO = frozenset({"--version", "-V", "-v", "--help", "-h", "-version"})
#: Options whose next word is a value, not a script (per interpreter family).
_VALUE_OPTS = {"python": "WXQ", "pypy": "WXQ", "perl": "IMmx", "ruby": "IrCEFx",
               "node": "r", "nodejs": "r", "php": "cdz", "lua": "l"}
_STDIN_FILES = re.compile(r"/dev/stdin|/dev/fd/\d+|/proc/self/fd/\d+|-")
#: Files made when the line runs: a process substitution's pipe, the shell's own fds.
_MADE = re.compile(r"/dev/(?:stdin|fd/\d+)|/proc/self/fd/\d+")
_VERSIONED = re.compile(r"(python|pypy|ruby|perl|lua|php|node)[0-9.]*")


def hidden_program(cmd: SimpleCommand) -> str | None:
    """Why the program this command runs cannot be known before it runs, or None."""
    if cmd.kind != "command":
        return None
    _, words = effective(cmd, deny=True)
    if not words:
        return None
    first = words[0]
    if first.value is None:
        return f"its command name ({_short(first.raw)}) is computed when it runs"
    if first.glob:
        return f"its command name ({_short(first.raw)}) is a file pattern"
    if _MADE.match(first.value):
        return f"its command ({_short(first.raw)}) is a file made when it runs"
    name = os.path.basename(first.value)
    if name == "alias" and len(words) > 1:
        return "it defines an alias, which can give a command another name"
    if name == "eval" and any(w.value is None for w in words[1:]):
        return "eval runs text that is made when it runs"
    if name in ("source", ".") and len(words) > 1:
        arg = words[1]
        if arg.value is None or _STDIN_FILES.fullmatch(arg.value):
            return f"{name} runs commands that are made when it runs"
        return None
    if name in SHELLS:
        return _shell(name, words)
    family = _VERSIONED.fullmatch(name)
    key = family.group(1) if family else name
    if key in INLINE:
        return _interpreter(name, key, words)
    return None


def _shell(name: str, words: list[Word]) -> str | None:
    for i, word in enumerate(words[1:], 1):
        v = word.value
        if v is None:
            return f"{name} is given arguments that are made when it runs"
        if v == "-s":
            return f"{name} reads the commands it runs from its input"
        if v.startswith("-") and not v.startswith("--") and "c" in v:
            script = words[i + 1] if i + 1 < len(words) else None
            if script is None or script.value is None:
                return f"{name} -c runs a string that is made when it runs"
            return None  # a static string: it is parsed and checked (bash_forms.nested)
        if v in _INFO:
            return None
        if not v.startswith("-") or v == "-":
            if v == "-" or _MADE.fullmatch(v):
                return f"{name} reads the commands it runs from its input or a pipe"
            return None
    return f"{name} reads the commands it runs from its input"


def _interpreter(name: str, key: str, words: list[Word]) -> str | None:
    letters, long = INLINE[key]
    value_opts = _VALUE_OPTS.get(key, "")
    info = False
    i = 1
    while i < len(words):
        v = words[i].value
        if v is None:
            return f"{name} is given arguments that are made when it runs"
        if v in long or (v.startswith("-") and not v.startswith("--")
                         and _bundles(v[1:], letters, value_opts)):
            return f"it runs a {name} program given inline, which can start any command"
        if v == "-m" or v == "--":
            return None
        info = info or v in _INFO
        if v.startswith("-") and v != "-":
            i += 2 if len(v) == 2 and v[1] in value_opts else 1
            continue
        if v == "-" or _MADE.fullmatch(v):
            break
        return None  # a script file
    return None if info else f"{name} reads the program it runs from its input"


def _bundles(flags: str, letters: str, value_opts: str) -> bool:
    """Does `-xyz` hold one of `letters` before a letter whose value is the rest?"""
    for c in flags:
        if c in letters:
            return True
        if c in value_opts:
            return False
    return False


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
