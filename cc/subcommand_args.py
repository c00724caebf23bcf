"""The arguments of one subcommand (`mcp add …`), read as Claude Code's command line
reads them (commander's rules), so the same lines mean the same things:

    options anywhere   `mcp add foo cmd --scope user` sets the scope; an unknown
                       option is an error, even after the positionals
    `--`               everything after it is positional (`add foo -- cmd -x`)
    values             `-s user`, `-suser`, `--scope=user`; a list option (`-e A=1 B=2`)
                       takes each following word up to the next one starting with `-`
    positionals        required ones must be there; extra ones are ignored unless the
                       grammar collects them (`rest`)

`parse(argv, grammar)` returns the `Parsed` arguments or the problem as a string.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["Grammar", "Option", "Parsed", "parse"]

Takes = Literal["flag", "value", "list"]


@dataclass(frozen=True)
class Option:
    long: str  #: "--scope"
    short: str | None = None  #: "-s"
    takes: Takes = "flag"

    @property
    def key(self) -> str:
        return self.long.removeprefix("--").replace("-", "_")


@dataclass(frozen=True)
class Grammar:
    options: tuple[Option, ...] = ()
    required: tuple[str, ...] = ()
    #: The name the words after the required positionals are collected under (None:
    #: they are ignored).
    rest: str | None = None


@dataclass
class Parsed:
    flags: set[str] = field(default_factory=set)
    values: dict[str, str] = field(default_factory=dict)
    lists: dict[str, list[str]] = field(default_factory=dict)
    positionals: dict[str, str] = field(default_factory=dict)
    rest: list[str] = field(default_factory=list)
    help: bool = False


HELP = Option("--help", "-h")


def parse(argv: Sequence[str], grammar: Grammar) -> Parsed | str:
    by_name = {name: o for o in (*grammar.options, HELP)
               for name in (o.long, o.short) if name is not None}
    out = Parsed()
    words: list[str] = []
    i = 0
    while i < len(argv):
        word = argv[i]
        i += 1
        if word == "--":
            words.extend(argv[i:])
            break
        if not word.startswith("-") or word == "-":
            words.append(word)
            continue
        name, attached = _split(word, by_name)
        option = by_name.get(name)
        if option is None:
            return f"unknown option '{word}'"
        if option is HELP:
            out.help = True
        elif option.takes == "flag":
            if attached is not None:
                return f"option '{option.long}' takes no value"
            out.flags.add(option.key)
        elif option.takes == "value":
            if attached is None:
                if i >= len(argv):
                    return f"option '{_label(option)}' needs a value"
                attached, i = argv[i], i + 1
            out.values[option.key] = attached
        else:
            taken = [] if attached is None else [attached]
            while i < len(argv) and not argv[i].startswith("-"):
                taken.append(argv[i])
                i += 1
            if not taken:
                return f"option '{_label(option)}' needs a value"
            out.lists.setdefault(option.key, []).extend(taken)
    if out.help:
        return out
    for name in grammar.required:
        if not words:
            return f"missing argument <{name}>"
        out.positionals[name] = words.pop(0)
    if grammar.rest is not None:
        out.rest = words
    return out


def _split(word: str, by_name: dict[str, Option]) -> tuple[str, str | None]:
    """`--scope=user` → ("--scope", "user"); `-suser` → ("-s", "user") when -s takes
    a value; anything else whole."""
    if word.startswith("--"):
        name, sep, value = word.partition("=")
        return (name, value) if sep else (word, None)
    short = word[:2]
    option = by_name.get(short)
    if len(word) > 2 and option is not None and option.takes != "flag":
        return short, word[2:]
    return word, None


def _label(option: Option) -> str:
    return f"{option.short}, {option.long}" if option.short else option.long
