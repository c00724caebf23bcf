"""What known shell commands do to files, as far as permissions care. Data first.

`usage(words)` says of one simple command (wrappers already stripped) whether it is
read-only, which paths it reads and writes, and whether acceptEdits may run it. The
read-only set is fixed (not configurable), like Claude Code's. A read-only command that
can write or execute through an option (`find -exec`, `sed -i`, `sort -o`, `git -c`…)
is not read-only when that option is used, and what the option does is an `Effect`
(writes this, runs that, or something unseeable) that an allow rule for the command
does not grant.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cc.permissions.bash_parse import Word
from cc.permissions.git_catalog import git_usage
from cc.permissions.sed_awk import awk_usage, sed_usage
from cc.permissions.shell_args import (
    Args,
    Effect,
    Usage,
    opaque,
    runs,
    split_args,
    writes,
)


@dataclass(frozen=True)
class Spec:
    #: Which positional arguments are paths: "none", "all", or "after_first" (a pattern first).
    paths: str = "none"
    #: Short options that take a value (`-n 5`), so the value is not a path.
    value_opts: str = ""
    #: Options that make it write or execute: exact words, or prefixes ending in "=".
    unsafe: tuple[str, ...] = ()
    #: What an unsafe option does with its value: "writes" a file, "runs" a command
    #: (an option not named here is opaque).
    unsafe_effects: tuple[tuple[str, str], ...] = ()
    max_positionals: int | None = None
    #: Arguments may expand at run time (they cannot turn into options that matter).
    dynamic_ok: bool = False


@dataclass(frozen=True)
class WriteSpec:
    value_opts: str = ""
    #: The option naming a target folder (`cp -t dir`).
    target_opt: str | None = None
    skip_first: bool = False  # chmod MODE, chown OWNER
    accept_edits: bool = False
    removes: bool = False


def _grep(unsafe: tuple[str, ...], value_opts: str) -> Spec:
    return Spec("after_first", value_opts, unsafe)


_PATHS = Spec("all")
READ_ONLY: dict[str, Spec] = {
    "ls": Spec("all", "ITw"), "cat": _PATHS, "head": Spec("all", "nc"),
    "tail": Spec("all", "ncs"), "wc": _PATHS, "nl": Spec("all", "bdfhilnsvw"),
    "echo": Spec(dynamic_ok=True), "printf": Spec(unsafe=("-v",), dynamic_ok=True),
    "pwd": Spec(), "true": Spec(dynamic_ok=True), "false": Spec(dynamic_ok=True),
    ":": Spec(dynamic_ok=True), "whoami": Spec(), "id": Spec(), "uname": Spec(),
    "sleep": Spec(), "seq": Spec(), "nproc": Spec(), "groups": Spec(), "arch": Spec(),
    "hostname": Spec(unsafe=("-F", "--file", "-b", "--boot"), max_positionals=0),
    "grep": _grep((), "efABCmdD"), "egrep": _grep((), "efABCmdD"),
    "fgrep": _grep((), "efABCmdD"),
    "rg": Spec("after_first", "efgtTAmCBMjE", ("--pre", "--pre=", "--pre-glob", "--pre-glob=",
                                                "--hostname-bin", "--hostname-bin="),
               (("--pre", "runs"), ("--hostname-bin", "runs"))),
    "which": Spec(), "type": Spec(), "diff": Spec("all", "UCIxXFL"), "cmp": Spec("all", "in"),
    "stat": Spec("all", "fc"), "du": Spec("all", "dBtX"), "df": Spec("all", "tBx"),
    "file": Spec("all", "fmFeP", ("-C", "--compile")),
    "tree": Spec("all", "LPIHo", ("-o", "--fromfile"), (("-o", "writes"),)),
    "sort": Spec("all", "ktSTo", ("-o", "--output", "--output=", "--compress-program",
                                  "--compress-program="),
                 (("-o", "writes"), ("--output", "writes"), ("--compress-program", "runs"))),
    "uniq": Spec("all", "fsw", max_positionals=1), "cut": Spec("all", "dfcb"),
    "tr": Spec(), "basename": Spec(dynamic_ok=True), "dirname": Spec(dynamic_ok=True),
    "realpath": Spec(), "readlink": Spec(), "printenv": Spec(),
    "test": Spec(dynamic_ok=True), "[": Spec(dynamic_ok=True),
    "md5sum": _PATHS, "sha1sum": _PATHS, "sha256sum": _PATHS, "sha512sum": _PATHS,
    "cksum": _PATHS, "od": Spec("all", "AjNtw"), "strings": Spec("all", "nt"),
    "jq": Spec("after_first", "fL"), "column": Spec("all", "csoNRTEHWld"),
    "comm": _PATHS,
}
WRITES: dict[str, WriteSpec] = {
    "mkdir": WriteSpec("m", accept_edits=True), "touch": WriteSpec("dtr", accept_edits=True),
    "rm": WriteSpec(accept_edits=True, removes=True),
    "rmdir": WriteSpec(accept_edits=True, removes=True),
    "mv": WriteSpec("tS", "t", accept_edits=True), "cp": WriteSpec("tS", "t", accept_edits=True),
    "ln": WriteSpec("tS", "t"), "tee": WriteSpec(), "chmod": WriteSpec(skip_first=True),
    "chown": WriteSpec(skip_first=True), "chgrp": WriteSpec(skip_first=True),
    "truncate": WriteSpec("sr"), "install": WriteSpec("mogtS", "t"),
}
_SYSTEM_BINS = ("/bin/", "/usr/bin/", "/usr/local/bin/", "/sbin/", "/usr/sbin/")


def usage(words: list[Word]) -> Usage:
    if not words:
        return Usage(True)
    name = words[0].value
    if name is None:
        return Usage(False, reason="its command name is computed when it runs")
    if name.startswith(_SYSTEM_BINS) and name.count("/") in (2, 3):
        name = name.rsplit("/", 1)[1]
    custom = CUSTOM.get(name)
    if custom is not None:
        return custom(words)
    if name in READ_ONLY:
        return _read_only(READ_ONLY[name], words)
    if name in WRITES:
        return _writes(WRITES[name], words)
    return Usage(False, reason=f"{name} is not a known read-only command")


def _unsafe(args: Args, words: list[Word], unsafe: tuple[str, ...]) -> str | None:
    for opt in unsafe:
        if opt.endswith("="):
            if any(w.value and w.value.startswith(opt) for w in words):
                return opt[:-1]
        elif opt in args.options or any(w.value == opt for w in words):
            return opt
    return None


def option_value(words: list[Word], opt: str) -> Word | None:
    """The value given to `opt`: `--opt=v`, `--opt v`, `-ov` or `-o v` (None if absent)."""
    for i, word in enumerate(words):
        v = word.value
        if v is None:
            continue
        if v == opt:
            return words[i + 1] if i + 1 < len(words) else None
        if opt.startswith("--") and v.startswith(opt + "="):
            rest = v[len(opt) + 1:]
            return Word(rest, rest)
        if len(opt) == 2 and not opt.startswith("--") and v.startswith(opt) and len(v) > 2:
            return Word(v[2:], v[2:])
    return None


def _option_effect(name: str, opt: str, words: list[Word], spec: Spec) -> Effect:
    kind = dict(spec.unsafe_effects).get(opt)
    value = option_value(words, opt) if kind else None
    if kind == "writes" and value is not None:
        return writes(value)
    if kind == "runs" and value is not None:
        return runs([value])
    return opaque(f"{name} {opt} writes files or runs commands")


def _read_only(spec: Spec, words: list[Word]) -> Usage:
    name, args = words[0].text, split_args(words[1:], spec.value_opts)
    bad = _unsafe(args, words[1:], spec.unsafe)
    if bad:
        return Usage(False, reason=f"{name} {bad} writes files or runs commands",
                     effects=(_option_effect(name, bad, words[1:], spec),))
    if args.dynamic and not spec.dynamic_ok:
        return Usage(False, reason=f"the arguments of {name} expand when it runs")
    if spec.max_positionals is not None and len(args.positionals) > spec.max_positionals:
        return Usage(False, reason=f"{name} with {len(args.positionals)} arguments writes")
    paths = args.positionals
    if spec.paths == "none":
        paths = []
    elif spec.paths == "after_first" and not any(
        o in ("-e", "-f") or o.startswith(("--regexp", "--file")) for o in args.options
    ):
        paths = paths[1:]
    return Usage(True, reads=tuple(paths))


def _writes(spec: WriteSpec, words: list[Word]) -> Usage:
    name, args = words[0].text, split_args(words[1:], spec.value_opts)
    targets = list(args.positionals[1:] if spec.skip_first else args.positionals)
    if spec.target_opt:
        targets += args.values.get("-" + spec.target_opt, [])
        targets += [Word(o.split("=", 1)[1], o.split("=", 1)[1]) for o in args.options
                    if o.startswith("--target-directory=")]
    return Usage(False, writes=tuple(targets), accept_edits=spec.accept_edits,
                 removes=spec.removes, reason=f"{name} changes files")


# --- commands that need a closer look -----------------------------------------------------------

FIND_RUNS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
FIND_WRITES = frozenset({"-fprint", "-fprint0", "-fprintf", "-fls"})
FIND_UNSAFE = FIND_RUNS | FIND_WRITES | {"-delete"}


def _find(words: list[Word]) -> Usage:
    if any(w.value is None for w in words[1:]):
        return Usage(False, reason="the arguments of find expand when it runs")
    i = 1
    while i < len(words) and words[i].text in ("-H", "-L", "-P"):
        i += 1
    paths = []
    for w in words[i:]:
        if w.text.startswith("-") or w.text in ("(", ")", "!", ","):
            break
        paths.append(w)
    roots = tuple(paths) or (Word(".", "."),)
    effects = _find_effects(words, roots)
    if effects:
        bad = next(w.text for w in words[1:] if w.value in FIND_UNSAFE)
        return Usage(False, reads=roots, reason=f"find {bad} runs commands or changes files",
                     effects=tuple(effects))
    return Usage(True, reads=roots)


def _find_effects(words: list[Word], roots: tuple[Word, ...]) -> list[Effect]:
    """What find's actions do: `-exec cmd {} ;` runs cmd on files under the roots (so
    `{}` stands for each root), `-delete` removes them, `-fprint f` writes f."""
    effects: list[Effect] = []
    i = 1
    while i < len(words):
        v = words[i].value
        if v in FIND_RUNS:
            end = i + 1
            while end < len(words) and words[end].value not in (";", "+"):
                end += 1
            command = words[i + 1:end]
            if not command:
                effects.append(opaque(f"find {v} without a command"))
            for root in roots:
                effects.append(runs([root if w.value == "{}" else w for w in command]))
            i = end + 1
        elif v == "-delete":
            effects += [Effect("removes", (root,)) for root in roots]
            i += 1
        elif v in FIND_WRITES:
            effects.append(writes(words[i + 1]) if i + 1 < len(words)
                           else opaque(f"find {v} without a file"))
            i += 2
        else:
            i += 1
    return effects


def _date(words: list[Word]) -> Usage:
    args = split_args(words[1:], "dfrI")
    if {"-s", "--set"} & set(args.options) or any(o.startswith("--set=") for o in args.options):
        return Usage(False, reason="date --set changes the clock")
    if args.dynamic or any(not p.text.startswith("+") for p in args.positionals):
        return Usage(False, reason="date with a bare argument sets the clock")
    return Usage(True)


def _env(words: list[Word]) -> Usage:
    if len(words) == 1:
        return Usage(True)
    return Usage(False, reason="env with arguments runs a command")


def _xargs(words: list[Word]) -> Usage:
    if len(words) == 1:
        return Usage(True)
    i = 1
    while i < len(words) and (words[i].value or "").startswith("-"):
        v = words[i].value or ""
        i += 2 if len(v) == 2 and v[1] in "IaLnPdEs" else 1
    rest = words[i:]
    if any(w.value is None for w in words[1:i]) or not rest:
        return Usage(False, reason="xargs runs a command",
                     effects=(opaque("xargs runs a command that is not known in advance"),))
    # The input adds arguments no one has seen: what it runs is only known in part.
    return Usage(False, reason="xargs runs a command", effects=(runs(rest),))


_TAR_RUNS = ("--to-command", "--checkpoint-action", "--use-compress-program", "-I",
             "--info-script", "--new-volume-script", "-F", "--rsh-command")


def _tar(words: list[Word]) -> Usage:
    """tar changes files (what an allow rule for it grants), and some options run commands."""
    for opt in _TAR_RUNS:
        if option_value(words[1:], opt) is not None or any(
            w.value == opt for w in words[1:]
        ):
            return Usage(False, reason=f"tar {opt} runs a command",
                         effects=(opaque(f"tar {opt} runs a command"),))
    if any(w.value is None for w in words[1:]):
        return Usage(False, reason="the arguments of tar expand when it runs")
    return Usage(False, reason="tar changes files")


def _dd(words: list[Word]) -> Usage:
    targets = [Word(w.value[3:], w.value[3:]) for w in words[1:]
               if w.value is not None and w.value.startswith("of=")]
    if any(w.value is None for w in words[1:]):
        return Usage(False, reason="the arguments of dd expand when it runs",
                     effects=(opaque("the arguments of dd expand when it runs"),))
    return Usage(False, reason="dd writes files", effects=tuple(writes(t) for t in targets))


def _command(words: list[Word]) -> Usage:
    if len(words) == 1 or (words[1].value in ("-v", "-V") and
                           all(w.value is not None for w in words)):
        return Usage(True)
    return Usage(False, reason="command runs a command")


def _cd(words: list[Word]) -> Usage:
    args = [w for w in words[1:] if w.value not in ("-P", "-L", "-e", "-@", "--")]
    if not args:
        return Usage(True, reads=(Word("~", "~", tilde=True),))
    if len(args) > 1 or args[0].value == "-" or args[0].value is None:
        return Usage(False, reason="where this cd goes is not known in advance")
    return Usage(True, reads=(args[0],))


#: Package-manager settings that name a program to run or a config file to load (which
#: can name one): given on the command line, they make even `npm test` run something else.
_PACKAGE_MANAGERS = frozenset({"npm", "npx", "pnpm", "pnpx", "yarn", "bun", "bunx"})
_RUNNING_SETTINGS = frozenset({
    "script-shell", "shell", "node-options", "userconfig", "globalconfig", "editor", "git",
    "browser", "viewer", "init-module", "call", "onload-script", "node-gyp", "config",
    "rc-file", "use-yarnrc", "yarn-path", "preload", "require", "tsconfig-override",
})


def _package_manager(words: list[Word]) -> Usage:
    name = words[0].value
    for word in words[1:]:
        v = word.value
        if v == "--":
            break
        if v is None:
            continue
        key = v[2:].split("=", 1)[0].replace("_", "-") if v.startswith("--") else ""
        if key in _RUNNING_SETTINGS or (v in ("-c", "-r") and name in ("npx", "bun", "bunx")):
            why = f"{name} {v.split('=', 1)[0]} names a program to run or a config to load"
            return Usage(False, reason=why, effects=(opaque(why),))
    return Usage(False, reason=f"{name} runs the project's scripts")


CUSTOM: dict[str, Callable[[list[Word]], Usage]] = {
    **{name: _package_manager for name in _PACKAGE_MANAGERS},
    "find": _find, "date": _date, "env": _env, "xargs": _xargs, "command": _command,
    "tar": _tar, "dd": _dd,
    "cd": _cd, "git": git_usage, "sed": sed_usage, "awk": awk_usage, "gawk": awk_usage,
    "mawk": awk_usage, "nawk": awk_usage,
}
