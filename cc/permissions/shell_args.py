"""What one shell command does (`Usage`) and a plain splitter of its arguments."""

from __future__ import annotations

from dataclasses import dataclass, field

from cc.permissions.bash_parse import Word


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


