"""Top-level subcommands (`python -m cc mcp list`): found before anything else starts,
run here, never sent to the model.

Which lines are subcommands, as Claude Code decides it (it reads its command line with
commander, and was observed doing this):

    claude mcp list                the first positional word names a subcommand
    claude --verbose mcp list      ... whatever options come before it
    claude --add-dir /tmp mcp …    not one: `--add-dir` takes the words after it
    claude -p mcp list             not one: -p/--print anywhere (before `--`) makes the
    claude mcp get foo -p          line a prompt
    claude "update the readme"     not one: a quoted prompt is one word, not "update"
    claude -- mcp list             one: the words after `--` count too

`mcp`, `doctor`, `update`, `auth` and `agents` answer locally (`cc.mcp.cli`,
`cc.app.local_subcommands`). Claude Code's subcommands that cc does not have yet say so
and exit 1 rather than becoming prompts. A near miss (`cc doctr`, `cc mpc list`: a first
word within two edits of a subcommand's name, and mostly alike) is refused with the
nearest name, as Claude Code refuses it; a word near no name (`cc fix`) is a prompt.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

__all__ = ["NOT_YET", "find_subcommand", "run_subcommand"]

#: Claude Code 2.1's subcommands that cc does not implement (its --help lists most;
#: `project`, `daemon` and `remote-control` answer --help but are not listed).
NOT_YET = frozenset({
    "attach", "auto-mode", "daemon", "gateway", "import", "install", "kill", "logs",
    "plugin", "plugins", "project", "purge", "remote-control", "respawn", "rm",
    "setup-token", "stop", "ultrareview",
})
IMPLEMENTED = frozenset({"mcp", "doctor", "update", "upgrade", "auth", "agents"})


def find_subcommand(argv: Sequence[str], parser: argparse.ArgumentParser
                    ) -> tuple[str, list[str]] | None:
    """The subcommand `argv` runs and the words after it, or None (a session)."""
    cut = argv.index("--") if "--" in argv else len(argv)
    head = list(argv[:cut])
    if "-p" in head or "--print" in head:
        return None
    index = _first_positional(head, parser)
    if index is None and cut + 1 < len(argv):
        index = cut + 1  # `claude -- mcp list` is still the subcommand
    if index is None:
        return None
    word = argv[index]
    if word not in IMPLEMENTED | NOT_YET and nearest_subcommand(word) is None:
        return None
    return word, list(argv[index + 1:])


def nearest_subcommand(word: str) -> str | None:
    """The subcommand `word` is a near miss of (fewer than 3 edits, more than 40% alike;
    the nearest, then the first in alphabetical order), or None."""
    if not word or any(c.isspace() for c in word):
        return None
    best, found = 3, None
    for name in sorted(IMPLEMENTED | NOT_YET):
        distance = _edits(word, name)
        longest = max(len(word), len(name))
        if (longest - distance) / longest > 0.4 and distance < best:
            best, found = distance, name
    return found


def _edits(a: str, b: str) -> int:
    """Edits (insert, delete, replace, swap two neighbours) turning `a` into `b`."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


def _first_positional(argv: list[str], parser: argparse.ArgumentParser) -> int | None:
    """Where the first word that is no option nor an option's value is."""
    actions = parser._option_string_actions  # noqa: SLF001 - argparse's own table
    i = 0
    while i < len(argv):
        word = argv[i]
        if not word.startswith("-") or word == "-":
            return i
        i += 1
        action = actions.get(word)
        if action is None or action.nargs == 0:  # a flag, `--opt=value`, or unknown
            continue
        if action.nargs in ("?", "*", "+"):
            while i < len(argv) and not argv[i].startswith("-"):
                i += 1
                if action.nargs == "?":
                    break
        else:
            i += action.nargs if isinstance(action.nargs, int) else 1
    return None


def run_subcommand(name: str, rest: list[str]) -> int:
    if name not in IMPLEMENTED | NOT_YET:  # a near miss
        print(f'✘ unknown command "{name}"\n  └ Did you mean cc {nearest_subcommand(name)}?\n\n'
              f'Run cc --help to list commands, or cc -p "{name}" to send as a prompt.',
              file=sys.stderr)
        return 1
    if name in NOT_YET:
        print(f'cc does not implement the "{name}" command yet (it is Claude Code\'s '
              f'"claude {name}"). Nothing was done.', file=sys.stderr)
        return 1
    from pathlib import Path

    from cc.config.paths import config_dir

    def err(text: str) -> None:
        print(text, file=sys.stderr)

    if name != "mcp":
        from cc.app.local_subcommands import run_local

        return run_local(name, rest, Path.cwd(), config_dir(), print, err)
    from cc.mcp.cli import Context, run_mcp

    return run_mcp(rest, Context(Path.cwd(), config_dir(), print, err, sys.stdin.read))
