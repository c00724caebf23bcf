"""Subcommand arguments read by commander's rules, as Claude Code reads them."""

from __future__ import annotations

import pytest

from cc.subcommand_args import Grammar, Option, Parsed, parse

GRAMMAR = Grammar((Option("--scope", "-s", "value"), Option("--env", "-e", "list"),
                   Option("--force")), ("name", "target"), rest="args")


def test_options_anywhere_and_after_the_double_dash_only_words() -> None:
    got = parse(["a", "-s", "user", "b", "c", "--force", "--", "-x", "--scope"], GRAMMAR)
    assert got == Parsed(flags={"force"}, values={"scope": "user"},
                         positionals={"name": "a", "target": "b"}, rest=["c", "-x", "--scope"])


def test_attached_values() -> None:
    got = parse(["--scope=project", "a", "b", "-euser=1"], GRAMMAR)
    assert isinstance(got, Parsed)
    assert got.values == {"scope": "project"} and got.lists == {"env": ["user=1"]}


def test_a_list_option_takes_words_up_to_the_next_option() -> None:
    got = parse(["a", "-e", "A=1", "B=2", "-e", "C=3", "--", "b"], GRAMMAR)
    assert isinstance(got, Parsed)
    assert got.lists == {"env": ["A=1", "B=2", "C=3"]}
    assert got.positionals == {"name": "a", "target": "b"}
    assert parse(["-e", "A=1", "a", "b"], GRAMMAR) == "missing argument <name>"


@pytest.mark.parametrize(("argv", "problem"), [
    (["a", "b", "-x"], "unknown option '-x'"),
    (["a", "b", "-s"], "option '-s, --scope' needs a value"),
    (["a", "b", "-e"], "option '-e, --env' needs a value"),
    (["a", "b", "--force=yes"], "option '--force' takes no value"),
    (["a"], "missing argument <target>"),
])
def test_problems_come_back_as_values(argv: list[str], problem: str) -> None:
    assert parse(argv, GRAMMAR) == problem


def test_help_wins_over_missing_arguments() -> None:
    got = parse(["--help"], GRAMMAR)
    assert isinstance(got, Parsed) and got.help


def test_a_lone_dash_is_a_word() -> None:
    got = parse(["a", "-"], GRAMMAR)
    assert isinstance(got, Parsed) and got.positionals["target"] == "-"
