"""Custom commands: loading, frontmatter, argument substitution, expansion."""

from __future__ import annotations

from pathlib import Path

import pytest

from cc.errors import CommandError
from cc.input.custom import (
    expand_command,
    load_custom_commands,
    parse_command_file,
    split_arguments,
    split_frontmatter,
    substitute_arguments,
)
from cc.models.content_blocks import TextBlock


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    cwd, config = tmp_path / "proj", tmp_path / "config"
    cwd.mkdir()
    config.mkdir()
    return cwd, config


def test_loads_project_user_and_subfolder_commands(dirs: tuple[Path, Path]) -> None:
    cwd, config = dirs
    write(cwd / ".claude/commands/review.md", "Review the code.")
    write(cwd / ".claude/commands/frontend/component.md", "Make a component $ARGUMENTS.")
    write(config / "commands/commit.md", "Commit the work.")
    write(config / "commands/review.md", "The user's review, shadowed.")
    write(cwd / ".claude/commands/notes.txt", "not a command")
    commands = {c.qualified_name: c for c in load_custom_commands(cwd, config)}
    assert set(commands) == {"review", "frontend:component", "commit"}
    assert commands["review"].scope == "project"
    assert commands["review"].body == "Review the code."
    assert commands["review"].label == "(project)"
    assert commands["commit"].label == "(user)"
    component = commands["frontend:component"]
    assert (component.name, component.namespace) == ("component", "frontend")
    assert component.label == "(project:frontend)"


def test_frontmatter_fields(tmp_path: Path) -> None:
    path = write(
        tmp_path / "fix.md",
        "---\n"
        "description: Fix an issue\n"
        "argument-hint: [issue] [priority]\n"
        "allowed-tools: Bash(git add:*), Bash(git status:*), Read\n"
        "model: haiku\n"
        "disable-model-invocation: true\n"
        "---\n"
        "Fix issue $0 with priority $1.\n",
    )
    c = parse_command_file(path, "project")
    assert c.description == "Fix an issue"
    assert c.argument_hint == "[issue] [priority]"
    assert c.allowed_tools == ("Bash(git add:*)", "Bash(git status:*)", "Read")
    assert c.model == "haiku"
    assert c.disable_model_invocation is True
    assert c.body == "Fix issue $0 with priority $1.\n"


def test_description_defaults_to_first_line_and_bad_yaml_is_read_as_lines(tmp_path: Path) -> None:
    c = parse_command_file(write(tmp_path / "a.md", "\n# Tidy the imports\n\nMore text."), "user")
    assert c.description == "Tidy the imports"
    meta, body = split_frontmatter("---\ndescription: a: b: [c\nmodel: opus\n---\nbody")
    assert meta == {"description": "a: b: [c", "model": "opus"}
    assert body == "body"
    assert split_frontmatter("no frontmatter\n---\n") == ({}, "no frontmatter\n---\n")


def test_yaml_list_of_allowed_tools(tmp_path: Path) -> None:
    text = "---\nallowed-tools:\n  - Read\n  - Bash(ls:*)\n---\nx"
    assert parse_command_file(write(tmp_path / "b.md", text), "user").allowed_tools == ("Read", "Bash(ls:*)")


def test_split_arguments_respects_quotes() -> None:
    assert split_arguments('123 "hello world" \'a b\'') == ["123", "hello world", "a b"]
    assert split_arguments('unbalanced "quote') == ["unbalanced", '"quote']
    assert split_arguments("") == []


def test_positional_arguments_are_zero_based() -> None:
    args = '456 "high priority" alice'
    body = "PR $0, level $1, by $2; all: $ARGUMENTS; second: $ARGUMENTS[1]; none: $ARGUMENTS[7]."
    assert substitute_arguments(body, args) == (
        'PR 456, level high priority, by alice; all: 456 "high priority" alice; '
        "second: high priority; none: ."
    )


def test_unmatched_positional_stays_and_escapes_work() -> None:
    assert substitute_arguments("a=$0 b=$1 cost=\\$5 home=$HOME", "x") == "a=x b=$1 cost=$5 home=$HOME"


def test_arguments_appended_when_no_placeholder() -> None:
    assert substitute_arguments("Review the code.\n", "focus on auth") == (
        "Review the code.\n\nARGUMENTS: focus on auth"
    )
    assert substitute_arguments("Review the code.\n", "") == "Review the code.\n"


def test_named_arguments_and_variables() -> None:
    out = substitute_arguments(
        "Issue $issue on $branch in ${CLAUDE_PROJECT_DIR} (${CLAUDE_SESSION_ID})",
        "42 main",
        names=("issue", "branch"),
        variables={"CLAUDE_PROJECT_DIR": "/p", "CLAUDE_SESSION_ID": "sid"},
    )
    assert out == "Issue 42 on main in /p (sid)"


async def test_expand_runs_inline_bash_and_attaches_mentions(dirs: tuple[Path, Path]) -> None:
    cwd, config = dirs
    write(cwd / "notes.md", "first\nsecond\n")
    write(
        cwd / ".claude/commands/brief.md",
        "---\ndescription: Brief\n---\nSay !`echo hi` about @notes.md for $0.\n"
        "Git: !`printf 'a\\nb'`\n",
    )
    (command,) = load_custom_commands(cwd, config)
    expanded = await expand_command(command, '"Bob Smith"', cwd=cwd, session_id="sid")
    assert expanded.prompt == "Say hi about @notes.md for Bob Smith.\nGit: a\nb\n"
    blocks = expanded.message.content
    assert all(isinstance(b, TextBlock) for b in blocks)
    texts = [b.text for b in blocks if isinstance(b, TextBlock)]
    assert texts[0] == (
        "<command-name>/brief</command-name>\n<command-message>brief</command-message>\n"
        '<command-args>"Bob Smith"</command-args>'
    )
    assert texts[1] == expanded.prompt
    assert texts[2] == "<system-reminder>\nContents of notes.md:\n1\tfirst\n2\tsecond\n3\t\n</system-reminder>"


async def test_inline_bash_output_is_not_rescanned(tmp_path: Path) -> None:
    c = parse_command_file(write(tmp_path / "x.md", "Out: !`printf '\\x21\\x60echo nested\\x60'`"), "user")
    expanded = await expand_command(c, "", cwd=tmp_path)
    assert expanded.prompt == "Out: !`echo nested`"


async def test_failing_inline_bash_aborts(tmp_path: Path) -> None:
    c = parse_command_file(write(tmp_path / "x.md", "Out: !`echo oops >&2; exit 3`"), "user")
    with pytest.raises(CommandError, match=r'Shell command failed for pattern "!`echo oops >&2; exit 3`": oops'):
        await expand_command(c, "", cwd=tmp_path)
    grep = parse_command_file(write(tmp_path / "g.md", "Hits: !`grep nothing-here x.md`."), "user")
    assert (await expand_command(grep, "", cwd=tmp_path)).prompt == "Hits: ."


async def test_inline_bash_permission_check(tmp_path: Path) -> None:
    c = parse_command_file(write(tmp_path / "x.md", "A !`echo a` B !`rm -rf nothing`"), "user")
    asked: list[str] = []

    async def permit(command: str) -> bool:
        asked.append(command)
        return command.startswith("echo")

    with pytest.raises(CommandError, match="permission check failed"):
        await expand_command(c, "", cwd=tmp_path, permit=permit)
    assert asked == ["echo a", "rm -rf nothing"]


async def test_fenced_bash_block(tmp_path: Path) -> None:
    c = parse_command_file(write(tmp_path / "x.md", "Status:\n```!\necho one\necho two\n```\nend"), "user")
    assert (await expand_command(c, "", cwd=tmp_path)).prompt == "Status:\none\ntwo\nend"
