"""What known shell commands do to files, as far as permissions care. Data first.

`usage(words)` says of one simple command (wrappers already stripped) whether it is
read-only, which paths it reads and writes, and whether acceptEdits may run it. The
read-only set is fixed (not configurable), like Claude Code's. A read-only command that
can write or execute through an option (`find -exec`, `sed -i`, `sort -o`, `git -c`…)
is not read-only when that option is used.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cc.permissions.bash_parse import Word
from cc.permissions.git_catalog import git_usage
from cc.permissions.sed_awk import awk_usage, sed_usage
from cc.permissions.shell_args import Args, Usage, split_args


@dataclass(frozen=True)
class Spec:
    #: Which positional arguments are paths: "none", "all", or "after_first" (a pattern first).
    paths: str = "none"
    #: Short options that take a value (`-n 5`), so the value is not a path.
    value_opts: str = ""
    #: Options that make it write or execute: exact words, or prefixes ending in "=".
    unsafe: tuple[str, ...] = ()
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
    "rg": _grep(("--pre", "--pre=", "--pre-glob", "--pre-glob="), "efgtTAmCBMjE"),
    "which": Spec(), "type": Spec(), "diff": Spec("all", "UCIxXFL"), "cmp": Spec("all", "in"),
    "stat": Spec("all", "fc"), "du": Spec("all", "dBtX"), "df": Spec("all", "tBx"),
    "file": Spec("all", "fmFeP", ("-C", "--compile")),
    "tree": Spec("all", "LPIHo", ("-o", "--fromfile")),
    "sort": Spec("all", "ktSTo", ("-o", "--output", "--output=", "--compress-program",
                                  "--compress-program=")),
    "uniq": Spec("all", "fsw", max_positionals=1), "cut": Spec("all", "dfcb"),
    "tr": Spec(), "basename": Spec(dynamic_ok=True), "dirname": Spec(dynamic_ok=True),
    "realpath": Spec(), "readlink": Spec(), "printenv": Spec(),
    "test": Spec(dynamic_ok=True), "[": Spec(dynamic_ok=True),
    "md5sum": _PATHS, "sha1sum": _PATHS, "sha256sum": _PATHS, "sha512sum": _PATHS,
    "cksum": _PATHS, "od": Spec("all", "AjNtw"), "strings": Spec("all", "nt"),
    "jq": Spec("after_first", "fL"),
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


def _read_only(spec: Spec, words: list[Word]) -> Usage:
    name, args = words[0].text, split_args(words[1:], spec.value_opts)
    bad = _unsafe(args, words[1:], spec.unsafe)
    if bad:
        return Usage(False, reason=f"{name} {bad} writes files or runs commands")
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

FIND_UNSAFE = frozenset({"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint",
                         "-fprint0", "-fprintf", "-fls"})


def _find(words: list[Word]) -> Usage:
    if any(w.value is None for w in words[1:]):
        return Usage(False, reason="the arguments of find expand when it runs")
    bad = next((w.text for w in words[1:] if w.value in FIND_UNSAFE), None)
    if bad:
        return Usage(False, reason=f"find {bad} runs commands or deletes files")
    i = 1
    while i < len(words) and words[i].text in ("-H", "-L", "-P"):
        i += 1
    paths = []
    for w in words[i:]:
        if w.text.startswith("-") or w.text in ("(", ")", "!", ","):
            break
        paths.append(w)
    return Usage(True, reads=tuple(paths) or (Word(".", "."),))


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
    return Usage(False, reason="xargs runs a command")


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


CUSTOM: dict[str, Callable[[list[Word]], Usage]] = {
    "find": _find, "date": _date, "env": _env, "xargs": _xargs, "command": _command,
    "cd": _cd, "git": git_usage, "sed": sed_usage, "awk": awk_usage, "gawk": awk_usage,
    "mawk": awk_usage, "nawk": awk_usage,
}
