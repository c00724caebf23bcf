"""Which command lines are subcommands, decided as Claude Code decides it (observed with
Claude Code 2.1.332), and what cc does with the ones it does not have yet."""

from __future__ import annotations

import pytest

from cc.app.subcommands import find_subcommand, nearest_subcommand
from cc.cli_args import build_parser
from tests.conftest import Project
from tests.fakeapi import Reply, text


@pytest.mark.parametrize(("argv", "found"), [
    (["mcp", "list"], ("mcp", ["list"])),
    (["--verbose", "mcp", "get", "x"], ("mcp", ["get", "x"])),
    (["--model", "opus", "mcp", "list"], ("mcp", ["list"])),
    (["--", "mcp", "list"], ("mcp", ["list"])),
    (["mcp", "add", "x", "--", "prog", "-p"], ("mcp", ["add", "x", "--", "prog", "-p"])),
    (["update"], ("update", [])),
    (["doctor", "--help"], ("doctor", ["--help"])),
    (["-p", "mcp", "list"], None),  # -p anywhere: a prompt
    (["mcp", "get", "x", "--print"], None),
    (["update the readme"], None),  # one word that is not a subcommand's name
    (["-p", "update"], None),
    (["--add-dir", "/tmp", "mcp", "list"], None),  # --add-dir took "mcp" and "list"
    (["-r", "mcp", "list"], None),  # -r took "mcp" as the session to resume
    (["mcpp", "list"], ("mcpp", ["list"])),  # a near miss: refused, with the nearest
    (["fix"], None),  # near no subcommand: a prompt
    (["upd"], None),  # three edits from "update"
    ([], None),
])
def test_which_lines_are_subcommands(argv: list[str],
                                     found: tuple[str, list[str]] | None) -> None:
    assert find_subcommand(argv, build_parser()) == found


def test_a_prompt_that_starts_with_a_subcommand_name_is_still_a_prompt(
        project: Project) -> None:
    project.api.script(*[Reply([text("Done.")]) for _ in range(3)])
    for argv in (["-p", "update the readme"], ["update the readme"], ["-p", "mcp", "list"]):
        run = project.run(*argv)
        assert (run.returncode, run.stdout) == (0, "Done.\n"), run.stderr
    prompts = [r.body["messages"][0]["content"][-1]["text"] for r in project.api.requests]
    assert prompts == ["update the readme", "update the readme", "mcp list"]


@pytest.mark.parametrize("name", ["plugin", "install", "setup-token", "stop"])
def test_subcommands_cc_lacks_say_so(project: Project, name: str) -> None:
    run = project.run(name)
    assert run.returncode == 1
    assert f'cc does not implement the "{name}" command yet' in run.stderr
    assert run.stdout == ""
    assert project.api.requests == []


@pytest.mark.parametrize(("word", "nearest"), [
    ("doctr", "doctor"), ("agent", "agents"), ("auht", "auth"), ("mpc", "mcp"),
    ("updte", "update"),
])
def test_a_near_miss_is_refused_with_the_nearest_name(project: Project, word: str,
                                                      nearest: str) -> None:
    run = project.run(word, "the", "readme")
    assert run.returncode == 1
    assert run.stderr == (f'✘ unknown command "{word}"\n  └ Did you mean cc {nearest}?\n\n'
                          f'Run cc --help to list commands, or cc -p "{word}" to send as a '
                          "prompt.\n")
    assert run.stdout == "" and project.api.requests == []


@pytest.mark.parametrize("prompt", ["fix", "hello", "upd", "test", "list"])
def test_a_word_near_no_subcommand_is_a_prompt(prompt: str) -> None:
    assert nearest_subcommand(prompt) is None
