"""git run in another repository than the project's.

git reads the configuration of the repository it opens, and that configuration can run
code: hooks, `core.fsmonitor`, the pager, aliases, filters, `diff.external`. The
project's repository is the user's; another one (a nested clone, a bare repository, a
folder reached by `cd`, `-C`, `--git-dir`, `--work-tree` or `GIT_DIR`) is not, so git
run there asks whatever allowed the command (only bypassPermissions runs it). A
submodule of the project keeps its configuration in the project's `.git/modules` and
counts as the project's. Where git would run is not known (a `cd $X`, a folder that is
not there yet, or one that other parts of the line may fill first): that asks too.
"""

from __future__ import annotations

import os

from cc.permissions.bash_forms import effective
from cc.permissions.bash_parse import SimpleCommand, Word
from cc.permissions.bash_where import Where
from cc.permissions.repositories import belongs_to, repository_at, repository_of
from cc.permissions.verdict import Assessment

_GIT_ENV = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR")


def check_foreign_git(a: Assessment, cmds: list[SimpleCommand],
                      changing: list[SimpleCommand], where: Where, cwd: str) -> None:
    """`cmds`: every command of the line (nested and run ones too); `changing`: those of
    them that are not read-only; `cwd`: the project folder."""
    home = repository_of(cwd)
    start = where.cwds[0]
    for cmd in cmds:
        assigns, words = effective(cmd, deny=False)
        if not words or os.path.basename(words[0].text) != "git":
            continue
        folders = git_folders(assigns, words)
        if folders is None or where.unknown:
            a.add_safety("unverifiable", "git runs in a folder only known when it runs, "
                                         "maybe another repository with code of its own")
            return
        for folder in folders:
            paths = (where.resolve(Word(folder, folder)) if folder else where.cwds) or ()
            if any(p != start for p in paths) and any(c is not cmd for c in changing):
                a.add_safety("unverifiable", "git runs in another folder after commands that "
                                             "may change what is there")
                return
            for path in paths:
                if not os.path.isdir(path):
                    a.add_safety("unverifiable", f"git would run in {path}, which is not "
                                                 "there yet")
                    return
                other = repository_at(path)
                if other is not None and other != home and not belongs_to(other, home):
                    a.add_safety("protected", f"git would run in {other}, another repository, "
                                              "whose configuration can run code of its own")
                    return


def git_folders(assigns: list[Word], words: list[Word]) -> list[str] | None:
    """The folders git is pointed at ("" for where it runs); None if one is not known."""
    out: list[str] = []
    for word in assigns:
        if word.value is None:
            return None
        name, _, value = word.value.partition("=")
        if name in _GIT_ENV:
            out.append(value)
    i = 1
    while i < len(words) and (words[i].value or "-").startswith("-"):
        v = words[i].value
        if v is None:
            return None
        if v in ("-C", "--git-dir", "--work-tree") and i + 1 < len(words):
            if words[i + 1].value is None:
                return None
            out.append(words[i + 1].value or "")
            i += 2
            continue
        if v.startswith(("--git-dir=", "--work-tree=")):
            out.append(v.split("=", 1)[1])
        i += 1
    return out or [""]
