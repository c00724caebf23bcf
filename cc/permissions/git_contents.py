"""git commands that print the contents of files, for the Read deny rules.

`git log -p`, `git show <commit>`, `git diff`, `git stash show -p`, `git blame <file>`
print what files hold (or held), whatever the deny rules say of those files' names.
When a Read deny rule exists, such a command is checked against the files it could
show: those tracked now (`git diff` with no revision) or anywhere in the history (the
rest), as the project's own repository lists them, narrowed by the paths the command
names. A denied file among them denies the command; a listing that cannot be had (no
git, a slow or broken repository) asks.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from cc.permissions.bash_forms import effective
from cc.permissions.bash_parse import SimpleCommand, Word
from cc.permissions.bash_where import Where
from cc.permissions.path_policy import PathPolicy
from cc.permissions.paths import expand, within
from cc.permissions.repositories import repository_of
from cc.permissions.verdict import Assessment

#: Options after which these commands print names or counts, not contents.
_NAMES_ONLY = frozenset({"--stat", "--numstat", "--shortstat", "--name-only", "--name-status",
                         "--summary", "--dirstat", "--raw", "-s", "--no-patch", "--quiet",
                         "--compact-summary"})
_PATCH = ("-p", "-u", "--patch", "--patch-with-stat", "--patch-with-raw", "-L", "--word-diff",
          "--cc", "--unified", "-U", "--full-diff", "--color-words")
#: Sub-commands that print contents unless told to print names only.
_ALWAYS = frozenset({"show", "diff", "diff-tree", "diff-index", "diff-files", "range-diff"})
#: Sub-commands that print contents only with a patch option.
_WITH_PATCH = frozenset({"log", "whatchanged", "reflog"})
_BLAME = frozenset({"blame", "annotate"})
LISTING_TIMEOUT = 5.0


@dataclass(frozen=True)
class Contents:
    """What a git command may print: "tracked" (the files tracked now) or "history"
    (any file any commit held), limited to `paths` when it names some."""

    scope: str
    paths: tuple[str, ...]


def shown_contents(words: list[Word], cwd: str) -> Contents | None:
    """What file contents this git command (run in `cwd`) prints (None: none, or handled
    elsewhere, like `git show REV:path`)."""
    i = 1
    while i < len(words) and (words[i].value or "-").startswith("-"):
        i += 2 if words[i].value in ("-C", "-c", "--git-dir", "--work-tree") else 1
    if i >= len(words):
        return None
    sub = words[i].value
    args = [w.value or "" for w in words[i + 1:]]
    if sub == "stash":
        if not args or args[0] != "show" or not any(a.startswith(_PATCH) for a in args):
            return None
        args = args[1:]
    elif sub in _BLAME:
        files = [a for a in args if not a.startswith("-")]
        return Contents("history", tuple(files[-1:]))
    elif sub in _WITH_PATCH:
        if not any(a.startswith(_PATCH) for a in args):
            return None
    elif sub not in _ALWAYS:
        return None
    if any(a in _NAMES_ONLY for a in args) and not any(a.startswith(_PATCH) for a in args):
        return None
    positionals, paths, dashes = [], [], False
    for a in args:
        if a == "--":
            dashes = True
        elif dashes:
            paths.append(a)
        elif not a.startswith("-"):
            positionals.append(a)
    if sub == "show" and positionals and all(":" in p for p in positionals):
        return None  # `git show REV:path` names its files (bash_rules._read_extras)
    if not dashes:  # without `--`, names of existing files are paths, the rest revisions
        paths = [p for p in positionals if os.path.exists(os.path.join(cwd, p))]
        revisions = [p for p in positionals if p not in paths]
    else:
        revisions = positionals
    tracked = sub in ("diff", "diff-files") and not revisions
    return Contents("tracked" if tracked else "history", tuple(paths))


def listed_files(repository: str, scope: str) -> list[str] | None:
    """Paths (relative to the repository) of the files tracked now, or that any commit
    held; None if git could not list them in time."""
    listing = (["ls-files", "-z"] if scope == "tracked" else
               ["log", "--all", "--reflog", "--format=", "--name-only", "--no-renames", "-z"])
    try:
        done = subprocess.run(
            ["git", "--no-optional-locks", "-c", "core.fsmonitor=false", "-c",
             "log.showSignature=false", "-C", repository, *listing],
            capture_output=True, timeout=LISTING_TIMEOUT, stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    names = done.stdout.decode("utf-8", "surrogateescape").replace("\n", "\0").split("\0")
    return list(dict.fromkeys(n for n in names if n))


def check_git_contents(a: Assessment, cmd: SimpleCommand, policy: PathPolicy,
                       where: Where) -> None:
    """The files whose contents a git command may print, against the Read deny rules."""
    if not any(r.tool == "Read" and r.specifier for r in policy.rules.deny):
        return
    _, words = effective(cmd, deny=True)
    if not words or os.path.basename(words[0].text) != "git":
        return
    cwd = where.cwds[0]
    shown = shown_contents(words, cwd)
    repository = repository_of(cwd) if shown is not None else None
    if shown is None or repository is None:
        return
    files = listed_files(repository, shown.scope)
    if files is None:
        a.ask_once("it prints file contents from the repository, which could not be listed "
                   "to check them against the deny rules")
        return
    specs = [expand(p, Path(cwd), where.home) for p in shown.paths]
    if any(c in p for p in shown.paths for c in "*?[:"):
        specs = []  # a pathspec with wildcards or magic: every file may match
    for rel in files:
        path = os.path.join(repository, rel)
        if specs and not any(within(path, spec) for spec in specs):
            continue
        rule = policy.denied_name(path)
        if rule is not None:
            a.deny_once(f"it prints the contents of {path} (from the repository's files or "
                        f"history), which the deny rule {rule} covers")
            return
