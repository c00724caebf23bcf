"""sed and awk: read-only only when their scripts cannot write files or run commands.

sed's `w`/`W` commands and `s///w` write files and `e`/`s///e` run commands; awk's
`system(…)`, `print > file`, `cmd | getline` and `getline < file` do the same. A script
that cannot be read with confidence is treated as unsafe.
"""

from __future__ import annotations

import re

from cc.permissions.bash_parse import Word
from cc.permissions.shell_args import Usage, opaque, writes

_SED_FLAGS = frozenset("nErsuzb")
_SED_LONG_FLAGS = frozenset({"--quiet", "--silent", "--regexp-extended", "--separate",
                             "--unbuffered", "--null-data", "--posix", "--debug", "--sandbox",
                             "--binary", "--follow-symlinks"})


def sed_usage(words: list[Word]) -> Usage:
    scripts: list[str] = []
    positionals: list[Word] = []
    inplace, ended, i = False, False, 1
    while i < len(words):
        word, i = words[i], i + 1
        v = word.value
        if v is None:
            return Usage(False, reason="the arguments of sed expand when it runs")
        if ended or not v.startswith("-") or v == "-":
            positionals.append(word)
        elif v == "--":
            ended = True
        elif v.startswith("--"):
            name, eq, value = v.partition("=")
            if name == "--in-place":
                inplace = True
            elif name == "--expression":
                if not eq and i < len(words):
                    value, i = words[i].text, i + 1
                scripts.append(value)
            elif name == "--line-length":
                i += 0 if eq else 1
            elif name not in _SED_LONG_FLAGS:
                why = f"sed {name} is not known to be safe"
                return Usage(False, reason=why, effects=(opaque(why),))
        else:
            for j, letter in enumerate(v[1:], 1):
                if letter == "i":
                    inplace = True
                    break
                if letter in "el":
                    rest = v[j + 1:]
                    if not rest and i < len(words):
                        rest, i = words[i].text, i + 1
                    if letter == "e":
                        scripts.append(rest)
                    break
                if letter not in _SED_FLAGS:
                    why = f"sed -{letter} is not known to be safe"
                    return Usage(False, reason=why, effects=(opaque(why),))
    if not scripts:
        if not positionals:
            return Usage(False, reason="sed without a script")
        scripts.append(positionals.pop(0).text)
    if not all(sed_script_safe(s) for s in scripts):
        why = "the sed script writes files or runs commands"
        return Usage(False, reason=why, effects=(opaque(why),))
    if inplace:
        return Usage(False, reads=tuple(positionals), accept_edits=True,
                     reason="sed -i edits files in place",
                     effects=tuple(writes(p) for p in positionals))
    return Usage(True, reads=tuple(positionals))


def sed_script_safe(script: str) -> bool:
    """False if the script has `w`, `W`, `e`, or `s///` with the `w`/`e` flag, or if it
    cannot be read."""
    s, n = script, len(script)

    def delimited(i: int, delim: str) -> int:
        while i < n:
            if s[i] == "\\":
                i += 2
            elif s[i] == delim:
                return i + 1
            else:
                i += 1
        return -1

    def address(i: int) -> int:
        if i < n and s[i].isdigit():
            while i < n and (s[i].isdigit() or s[i] == "~"):
                i += 1
        elif i < n and s[i] == "$":
            i += 1
        elif i < n and (s[i] == "/" or (s[i] == "\\" and i + 1 < n)):
            i = delimited(i + 1, "/") if s[i] == "/" else delimited(i + 2, s[i + 1])
            while 0 <= i < n and s[i] in "IM":
                i += 1
        return i

    def skip(i: int, chars: str = " \t") -> int:
        while i < n and s[i] in chars:
            i += 1
        return i

    def to(i: int, stops: str) -> int:
        while i < n and s[i] not in stops:
            i += 2 if s[i] == "\\" else 1
        return i

    i = 0
    while i < n:
        if s[i] in " \t\n;}":
            i += 1
            continue
        if s[i] == "#":
            i = to(i, "\n")
            continue
        j = address(i)
        if j < 0:
            return False
        if j != i:
            i = skip(j)
            if i < n and s[i] == ",":
                i = skip(i + 1)
                if i < n and s[i] in "+~":
                    i = skip(i + 1, "0123456789")
                else:
                    j = address(i)
                    if j <= i:
                        return False
                    i = j
        i = skip(i)
        if i < n and s[i] == "!":
            i = skip(i + 1)
        if i >= n:
            return False
        c, i = s[i], i + 1
        if c in "wWe":
            return False
        if c == "{":
            continue
        if c in "=dDgGhHnNpPxzFlLqQ":
            i = skip(i, " \t0123456789")
        elif c in "aicrR":
            i = to(i, "\n")
        elif c in ":btTv":
            i = to(i, ";\n")
        elif c in "sy":
            if i >= n or s[i] in "\\\n":
                return False
            i = delimited(i + 1, s[i])
            i = -1 if i < 0 else delimited(i, s[i - 1])
            if i < 0:
                return False
            while c == "s" and i < n and s[i] in "gpiImMe0123456789w":
                if s[i] in "we":
                    return False
                i += 1
        else:
            return False
    return True


_AWK_FLAGS = frozenset("bcPrsSNMOtn")
_AWK_LONG_OK = frozenset({"--sandbox", "--posix", "--traditional", "--characters-as-bytes",
                          "--re-interval", "--non-decimal-data", "--bignum", "--optimize"})
#: Names whose use makes an awk program unsafe: they run commands, read other files or
#: the environment.
_AWK_UNSAFE_NAMES = frozenset({"system", "getline", "ENVIRON", "PROCINFO"})
_AWK_SINK = re.compile(r'>>?[ \t]*"/dev/(?:stdout|stderr|null)"[ \t]*(?=[;}\n]|$)')
#: Keywords after which a `/` opens a regular expression.
_AWK_EXPRESSION_KEYWORDS = frozenset({"print", "printf", "return", "else", "do", "in",
                                      "case"})
#: After one of these (or at the start) a `/` opens a regular expression, not a division.
_AWK_REGEX_AFTER = frozenset("(,{};!~&|?:=+-*%^<>\n")
_ASSIGN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


def awk_usage(words: list[Word]) -> Usage:
    programs: list[str] = []
    files: list[Word] = []
    have_program, i = False, 1
    while i < len(words):
        word, i = words[i], i + 1
        v = word.value
        if v is None:
            return Usage(False, reason="the arguments of awk expand when it runs")
        if not have_program and v.startswith("-") and v != "-":
            name, eq, _ = v.partition("=")
            if v == "--":
                continue
            if v[:2] in ("-F", "-v") or name in ("--field-separator", "--assign"):
                i += 1 if (len(v) == 2 or (name.startswith("--") and not eq)) else 0
            elif v in ("-e", "--source"):
                if i < len(words):
                    programs.append(words[i].text)
                    i += 1
            elif name in _AWK_LONG_OK or (not v.startswith("--") and set(v[1:]) <= _AWK_FLAGS):
                pass
            else:
                why = f"awk {name} loads or writes files"
                return Usage(False, reason=why, effects=(opaque(why),))
        elif not have_program and not programs:
            programs.append(v)
            have_program = True
        elif not _ASSIGN.match(v):
            files.append(word)
    if not programs:
        return Usage(False, reason="awk without a program")
    if not all(awk_program_safe(p) for p in programs):
        why = "the awk program runs commands or writes files"
        return Usage(False, reason=why, effects=(opaque(why),))
    return Usage(True, reads=tuple(files))


def awk_program_safe(program: str) -> bool:
    """False if the program can run a command or touch a file other than its input:
    `system()`, `getline` (from a command or a file), `ENVIRON`/`PROCINFO`, `@load` and
    `@include`, or output redirected with `>`, `>>` or `|` inside a `print`/`printf`
    statement (except to /dev/stdout, /dev/stderr or /dev/null). Strings, regular
    expressions and comments are skipped, so `NR>=1 && NR<=2`, `/a|b/` and `"x > y"` are
    what they look like: comparisons and text.

    Where awks could read the text differently (a `/` that may start a regular
    expression or divide, with a `"` before the next `/`; a `/` inside a bracket
    expression; a `"` inside a regular expression), or it cannot be read, it is unsafe."""
    s, n = program, len(program)
    i, depth = 0, 0
    last = "\n"  # the last significant character ("a": an operand ended)
    printing: int | None = None  # the paren depth of the `print` statement we are in

    def literal_end(i: int, quote: str) -> int:
        """The index after the literal that opens before `i`; -1 if it is unsafe."""
        bracket = False
        while i < n:
            c = s[i]
            if c == "\\":
                i += 2
                continue
            if c == "\n" or (quote == "/" and c == '"'):
                return -1
            if quote == "/" and c == "[" and not bracket:  # `[^]…]`: the first ] is literal
                bracket, i = True, i + 1
                i += s[i:i + 1] == "^"
                i += s[i:i + 1] == "]"
                continue
            if bracket and c == "]":
                bracket = False
            elif c == quote:
                return -1 if bracket else i + 1
            i += 1
        return -1

    while i < n:
        c = s[i]
        if c in " \t" or (c == "\\" and s[i + 1:i + 2] == "\n"):  # blanks, continued lines
            i += 1 if c != "\\" else 2
            continue
        if c == "#":
            while i < n and s[i] != "\n":
                i += 1
            continue
        if c == '"' or (c == "/" and last in _AWK_REGEX_AFTER):
            end = literal_end(i + 1, c)
            if end < 0 or (c == "/" and _names(s[i + 1:end - 1]) & _AWK_UNSAFE_NAMES):
                return False
            i, last = end, "a"
            continue
        if c == "/":  # a division, unless an awk reads a regular expression here
            close = s.find("/", i + 1)
            line_end = s.find("\n", i + 1)
            if close >= 0 and (line_end < 0 or close < line_end) and '"' in s[i + 1:close]:
                return False
        if c.isalpha() or c == "_":
            j = i
            while j < n and (s[j].isalnum() or s[j] == "_"):
                j += 1
            name = s[i:j]
            if name in _AWK_UNSAFE_NAMES:
                return False
            if name in ("print", "printf") and printing is None:
                printing = depth
            i, last = j, "(" if name in _AWK_EXPRESSION_KEYWORDS else "a"
            continue
        if c == "@":
            return False
        if c in "+-" and s[i + 1:i + 2] == c:  # x++ and x-- end an operand
            i, last = i + 2, "a"
            continue
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c in ";\n{}":
            if printing is not None and depth <= printing:
                printing = None
        elif printing is not None and depth == printing and c in ">|":
            if c == "|" or not _to_sink(s, i):
                return False
            i = _to_sink(s, i)
            last = "a"
            continue
        last = c
        i += 1
    return depth == 0


def _names(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))


def _to_sink(s: str, i: int) -> int:
    """For `> "/dev/stderr"` at `i` (also `>>`), ending the statement: the index after
    it; else 0."""
    m = _AWK_SINK.match(s, i)
    return m.end() if m else 0
