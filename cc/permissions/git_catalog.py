"""Which git invocations are read-only.

Only listed sub-commands count, and only in their listing/showing forms (`git branch`
lists, `git branch x` creates). Global options that load other configuration or code
(`-c`, `--exec-path`, `--git-dir`, `--work-tree`…) make any git command a non-read-only
one; `-C dir` is allowed when the folder is a working folder (the caller checks it).
"""

from __future__ import annotations

from collections.abc import Callable

from cc.permissions.bash_parse import Word
from cc.permissions.shell_args import Usage, opaque, split_args, writes

READ_ONLY_SUBCOMMANDS = frozenset({
    "status", "diff", "log", "show", "blame", "annotate", "rev-parse", "ls-files", "ls-tree",
    "shortlog", "describe", "cat-file", "grep", "rev-list", "merge-base", "name-rev",
    "for-each-ref", "show-ref", "count-objects", "whatchanged", "cherry", "check-ignore",
    "check-attr", "version", "diff-tree", "diff-files", "diff-index", "var",
})
SAFE_GLOBAL_FLAGS = frozenset({"--no-pager", "-P", "--paginate", "-p", "--no-optional-locks",
                               "--literal-pathspecs", "--glob-pathspecs",
                               "--noglob-pathspecs", "--icase-pathspecs",
                               "--no-replace-objects"})
#: Arguments (or prefixes) with which even a read-only sub-command writes or runs things.
UNSAFE_ARGS = ("--output", "-O", "--open-files-in-pager", "--ext-diff", "--upload-pack",
               "--receive-pack", "--exec")
_BRANCH_WRITES = frozenset({"-d", "-D", "--delete", "-m", "-M", "--move", "-c", "-C", "--copy",
                            "-u", "--set-upstream-to", "--unset-upstream", "-f", "--force",
                            "--edit-description", "-t", "--track", "--no-track",
                            "--create-reflog"})
_TAG_WRITES = frozenset({"-d", "--delete", "-a", "--annotate", "-s", "--sign", "-u",
                         "--local-user", "-f", "--force", "-m", "--message", "-F", "--file",
                         "-e", "--edit"})
_LIST_WITH_ARGS = frozenset({"-l", "--list", "--contains", "--no-contains", "--merged",
                             "--no-merged", "--points-at"})
_CONFIG_READS = frozenset({"--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list",
                           "-l", "--get-color", "--get-colorbool"})
_CONFIG_WRITES = frozenset({"--add", "--unset", "--unset-all", "--replace-all",
                            "--rename-section", "--remove-section", "-e", "--edit"})


def git_usage(words: list[Word]) -> Usage:
    i, reads = 1, []
    while i < len(words) and (words[i].value or "-").startswith("-"):
        flag = words[i].value
        if flag == "-C" and i + 1 < len(words):
            reads.append(words[i + 1])
            i += 2
        elif flag in SAFE_GLOBAL_FLAGS:
            i += 1
        else:
            shown = flag if flag is not None else words[i].raw
            why = f"git {shown} can load other configuration or code"
            return Usage(False, reason=why, effects=(opaque(why),))
    if i >= len(words):
        return Usage(True, reads=tuple(reads))
    sub, rest = words[i].value, words[i + 1:]
    if sub is None or any(w.value is None for w in rest):
        return Usage(False, reason="the arguments of git expand when it runs")
    args = [w.value or "" for w in rest]
    bad = next((a for a in args if a.startswith(UNSAFE_ARGS)), None)
    if bad:
        why = f"git {sub} {bad} writes files or runs commands"
        target = bad.split("=", 1)[1] if bad.startswith("--output=") else None
        effect = writes(Word(target, target)) if target else opaque(why)
        return Usage(False, reason=why, effects=(effect,))
    check = LISTING.get(sub)
    if sub in READ_ONLY_SUBCOMMANDS or (check is not None and check(args)):
        if "--no-index" in args:
            reads += split_args(rest).positionals
        return Usage(True, reads=tuple(reads))
    return Usage(False, reason=f"git {sub} changes the repository or is not known to be safe")


def _positionals(args: list[str]) -> list[str]:
    return [a for a in args if not a.startswith("-")]


def _branch(args: list[str]) -> bool:
    if any(a.split("=")[0] in _BRANCH_WRITES for a in args):
        return False
    return not _positionals(args) or any(a.split("=")[0] in _LIST_WITH_ARGS for a in args)


def _tag(args: list[str]) -> bool:
    if any(a.split("=")[0] in _TAG_WRITES for a in args):
        return False
    return not _positionals(args) or any(a.split("=")[0] in _LIST_WITH_ARGS for a in args)


def _remote(args: list[str]) -> bool:
    rest = [a for a in args if a not in ("-v", "--verbose")]
    return not rest or rest[0] in ("show", "get-url")


def _config(args: list[str]) -> bool:
    if args and args[0] in ("get", "list"):
        return True
    names = {a.split("=")[0] for a in args}
    return bool(names & _CONFIG_READS) and not names & _CONFIG_WRITES


def _reflog(args: list[str]) -> bool:
    return not args or args[0] not in ("expire", "delete")


def _symbolic_ref(args: list[str]) -> bool:
    return len(_positionals(args)) <= 1 and not {"-d", "--delete"} & set(args)


LISTING: dict[str, Callable[[list[str]], bool]] = {
    "branch": _branch, "tag": _tag, "remote": _remote, "config": _config, "reflog": _reflog,
    "symbolic-ref": _symbolic_ref,
    "stash": lambda a: bool(a) and a[0] in ("list", "show"),
    "worktree": lambda a: bool(a) and a[0] == "list",
}
