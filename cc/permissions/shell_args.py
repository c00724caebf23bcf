"""What one shell command does (`Usage`, with its `Effect`s) and a plain splitter of its
arguments."""

from __future__ import annotations

from dataclasses import dataclass, field

from cc.permissions.bash_parse import Word


@dataclass(frozen=True)
class Effect:
    """Something a command does besides what its name says, through an option or script.

    An allow rule for the command does not grant it: each is checked on its own.

        writes   `words[0]` is a path it writes (checked like an Edit of it)
        removes  `words[0]` is a path it deletes (likewise, and never a critical folder)
        runs     `words` is a command it runs (checked as a command of its own)
        opaque   it can run or write things the analysis cannot see (`why` says how)
    """

    kind: str
    words: tuple[Word, ...] = ()
    why: str = ""


def writes(word: Word) -> Effect:
    return Effect("writes", (word,))


def runs(words: list[Word] | tuple[Word, ...]) -> Effect:
    return Effect("runs", tuple(words))


def opaque(why: str) -> Effect:
    return Effect("opaque", why=why)


@dataclass(frozen=True)
class Usage:
    read_only: bool
    #: Paths it reads: each must be inside the working folders (or Read-allowed).
    reads: tuple[Word, ...] = ()
    #: Paths it writes, moves or removes (checked like an Edit of each).
    writes: tuple[Word, ...] = ()
    #: acceptEdits runs it when every path it touches is inside the working folders.
    accept_edits: bool = False
    #: rm/rmdir: never approved on /, top-level folders, home or a working folder.
    removes: bool = False
    #: Why it is not read-only, for messages.
    reason: str = ""
    #: What its options or scripts make it do (see `Effect`).
    effects: tuple[Effect, ...] = ()


# --- argument splitting -----------------------------------------------------------------------


@dataclass
class Args:
    options: list[str] = field(default_factory=list)
    values: dict[str, list[Word]] = field(default_factory=dict)
    positionals: list[Word] = field(default_factory=list)
    dynamic: bool = False


def split_args(args: list[Word], value_opts: str = "") -> Args:
    out, i, ended = Args(), 0, False
    while i < len(args):
        word, i = args[i], i + 1
        v = word.value
        if v is None:
            out.dynamic = True
            out.positionals.append(word)
        elif ended or not v.startswith("-") or v == "-":
            out.positionals.append(word)
        elif v == "--":
            ended = True
        elif v.startswith("--"):
            out.options.append(v)
        else:
            for j, letter in enumerate(v[1:], 1):
                out.options.append("-" + letter)
                if letter in value_opts:
                    if j + 1 < len(v):
                        out.values.setdefault("-" + letter, []).append(Word(v[j + 1:],
                                                                            v[j + 1:]))
                    elif i < len(args):
                        out.values.setdefault("-" + letter, []).append(args[i])
                        i += 1
                    break
    return out


