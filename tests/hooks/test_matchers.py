"""The `if` rule of a handler, tested against tool calls."""

from __future__ import annotations

from pathlib import Path

import pytest

from cc.hooks.matchers import MatcherError, compile_matcher, rule_matches

PROJECT = Path("/work/proj")


def matches(rule: str, tool: str, **inp: object) -> bool:
    return rule_matches(rule, tool, inp, cwd=PROJECT, project_dir=PROJECT)


def test_invalid_regex_is_an_error() -> None:
    with pytest.raises(MatcherError):
        compile_matcher("(unclosed")


@pytest.mark.parametrize(
    ("rule", "command", "expected"),
    [
        ("Bash", "anything", True),
        ("Bash(rm *)", "rm -rf build", True),
        ("Bash(rm *)", "rm", True),
        ("Bash(rm *)", "rmdir x", False),
        ("Bash(rm *)", "cd build && rm -rf out", True),
        ("Bash(npm test:*)", "npm test -- --watch", True),
        ("Bash(npm test:*)", "npm install", False),
        ("Bash(git * main)", "git push origin main", True),
        ("Bash(git * main)", "git push origin dev", False),
        ("Read", "ls", False),
    ],
)
def test_bash_rules(rule: str, command: str, expected: bool) -> None:
    assert matches(rule, "Bash", command=command) is expected


@pytest.mark.parametrize(
    ("rule", "path", "expected"),
    [
        ("Edit(*.py)", "/work/proj/src/a.py", True),
        ("Edit(*.py)", "src/a.py", True),
        ("Edit(*.py)", "/work/proj/src/a.ts", False),
        ("Edit(/src/**)", "/work/proj/src/deep/a.ts", True),
        ("Edit(/src/**)", "/work/proj/lib/a.ts", False),
        ("Edit(src/*.py)", "/work/proj/src/a.py", True),
        ("Edit(src/*.py)", "/work/proj/src/sub/a.py", False),
        ("Edit(//etc/**)", "/etc/passwd", True),
        ("Edit(.env)", "/work/proj/config/.env", True),
        ("Write(.env)", "/work/proj/.env", False),
    ],
)
def test_path_rules(rule: str, path: str, expected: bool) -> None:
    assert matches(rule, "Edit", file_path=path) is expected


def test_other_rules() -> None:
    assert matches("WebFetch(domain:example.com)", "WebFetch", url="https://example.com/x")
    assert not matches("WebFetch(domain:example.com)", "WebFetch", url="https://evil.com/x")
    assert matches("Agent(subagent_type:Explore)", "Agent", subagent_type="Explore")
    assert matches("Task", "Agent", prompt="go")
    assert matches("mcp__db__query(*drop*)", "mcp__db__query", sql="drop table x")
    assert not matches("mcp__db__query(*drop*)", "mcp__db__query", sql="select 1")
    assert not matches("not a rule (", "Bash", command="x")
