from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from cc.prompts.builder import (
    PromptEnv,
    build_system_prompt,
    environment_for,
    model_display_name,
    render,
)
from tests.golden import assert_golden

GOLDEN = Path(__file__).parent / "golden" / "system_prompt.txt"
STATIC = [
    "intro",
    "system",
    "doing_tasks",
    "actions_with_care",
    "using_tools",
    "tone_style",
    "output_efficiency",
]
TOOLS = ["Read", "Edit", "Write", "Glob", "Grep", "Bash"]


def make_env(cwd: str = "/home/dev/project", today: date = date(2025, 3, 14)) -> PromptEnv:
    return PromptEnv(
        cwd=Path(cwd),
        is_git_repo=True,
        platform="linux",
        shell="/bin/bash",
        os_version="Linux 6.8.0",
        model="claude-sonnet-4-5-20250929",
        today=today,
    )


def by_name(sections: list) -> dict[str, str]:
    return {s.name: s.text for s in sections}


def test_default_order_and_cacheable_flags() -> None:
    sections = build_system_prompt(
        make_env(), tool_names=TOOLS, claude_md="Use tabs.", memory_index="- [a](a.md)"
    )
    assert [s.name for s in sections] == [*STATIC, "environment", "tools", "memory", "claude_md"]
    assert [s.cacheable for s in sections] == [True] * 7 + [False] * 4


def test_memory_and_claude_md_only_when_given() -> None:
    sections = build_system_prompt(make_env(), tool_names=TOOLS)
    assert [s.name for s in sections] == [*STATIC, "environment", "tools"]
    blank = build_system_prompt(make_env(), tool_names=TOOLS, claude_md="\n", memory_index="")
    assert [s.name for s in blank] == [*STATIC, "environment", "tools"]


def test_environment_section_facts() -> None:
    text = by_name(build_system_prompt(make_env(), tool_names=TOOLS))["environment"]
    assert "Working directory: /home/dev/project" in text
    assert "Is directory a git repo: Yes" in text
    assert "Today's date: 2025-03-14" in text
    assert "claude-sonnet-4-5-20250929" in text
    assert "Claude Sonnet 4.5" in text
    assert "Platform: linux" in text and "Shell: /bin/bash" in text
    not_git = PromptEnv(**{**make_env().__dict__, "is_git_repo": False})
    assert "Is directory a git repo: No" in by_name(
        build_system_prompt(not_git, tool_names=TOOLS)
    )["environment"]


def test_tools_section_lists_names_and_deferred_only_when_any() -> None:
    plain = by_name(build_system_prompt(make_env(), tool_names=TOOLS))["tools"]
    assert "Read, Edit, Write, Glob, Grep, Bash" in plain
    assert "eferred" not in plain
    assert "note briefly in your reply" in plain
    deferred = by_name(
        build_system_prompt(make_env(), tool_names=TOOLS, deferred_tool_names=["WebFetch"])
    )["tools"]
    assert "Deferred tools (load one with ToolSearch before calling it): WebFetch." in deferred


def test_memory_section_wraps_index_and_optional_dir() -> None:
    index = "- [Testing](feedback_testing.md) - run pytest -q"
    text = by_name(build_system_prompt(make_env(), tool_names=TOOLS, memory_index=index))[
        "memory"
    ]
    assert f"<memory-index>\n{index}\n</memory-index>" in text
    assert "still holds before relying on it" in text and "`feedback`" in text
    assert "$" not in text
    with_dir = by_name(
        build_system_prompt(
            make_env(), tool_names=TOOLS, memory_index=index, memory_dir=Path("/m/memory")
        )
    )["memory"]
    assert "`/m/memory`" in with_dir


def test_claude_md_is_last_default_section_and_keeps_dollars() -> None:
    sections = build_system_prompt(make_env(), tool_names=TOOLS, claude_md="Cost is $5 ${x}")
    assert sections[-1].name == "claude_md"
    assert sections[-1].text.endswith("Cost is $5 ${x}")


def test_override_replaces_everything() -> None:
    sections = build_system_prompt(
        make_env(),
        tool_names=TOOLS,
        claude_md="Use tabs.",
        memory_index="- x",
        override="Be a cat.",
    )
    assert [(s.name, s.text, s.cacheable) for s in sections] == [("override", "Be a cat.", True)]


def test_append_comes_last_in_either_case() -> None:
    default = build_system_prompt(make_env(), tool_names=TOOLS, claude_md="x", append="Extra.")
    last = default[-1]
    assert (last.name, last.text, last.cacheable) == ("append", "Extra.", False)
    assert default[-2].name == "claude_md"
    overridden = build_system_prompt(make_env(), tool_names=TOOLS, override="O", append="A")
    assert [s.name for s in overridden] == ["override", "append"]
    assert render(overridden) == "O\n\nA"


def test_static_prefix_is_byte_identical_across_sessions() -> None:
    first = build_system_prompt(make_env(), tool_names=TOOLS)
    second = build_system_prompt(
        make_env("/srv/other", date(2031, 1, 2)),
        tool_names=["Read"],
        deferred_tool_names=["WebFetch"],
        claude_md="rules",
        memory_index="- m",
    )
    prefix = render(s for s in first if s.cacheable)
    assert prefix == render(s for s in second if s.cacheable)
    assert "/home/dev/project" not in prefix and "2025" not in prefix
    assert render(first) != render(second)


def test_static_prompt_is_concise() -> None:
    static = render(s for s in build_system_prompt(make_env(), tool_names=TOOLS) if s.cacheable)
    assert len(static.split()) < 1800


def test_no_unfilled_placeholders() -> None:
    sections = build_system_prompt(
        make_env(),
        tool_names=TOOLS,
        deferred_tool_names=["WebFetch"],
        claude_md="c",
        memory_index="m",
        memory_dir=Path("/m"),
    )
    assert "$" not in render(sections)


def test_golden_rendered_prompt() -> None:
    sections = build_system_prompt(
        make_env(),
        tool_names=TOOLS,
        deferred_tool_names=["WebFetch", "WebSearch", "TodoWrite"],
        claude_md="Contents of /home/dev/project/CLAUDE.md (project instructions, shared with"
        " the team):\n\nRun `make test` before finishing.",
        memory_index="- [User role](user_role.md) - backend developer, prefers pytest",
        memory_dir=Path("/home/dev/.claude/projects/-home-dev-project/memory"),
        append="Answer in English.",
    )
    rendered = render(sections) + "\n"
    assert_golden(GOLDEN, rendered, "system prompt")


def test_environment_for_detects_git_by_walking_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHELL", "/usr/bin/zsh")
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    deep = tmp_path / "repo" / "src" / "pkg"
    deep.mkdir(parents=True)
    env = environment_for(deep, "claude-opus-4-1", today=date(2025, 1, 1))
    assert env.is_git_repo and env.cwd == deep
    assert env.shell == "/usr/bin/zsh"
    assert env.model == "claude-opus-4-1" and env.today == date(2025, 1, 1)
    assert env.platform and env.os_version
    (tmp_path / "plain").mkdir()
    # tmp_path itself may sit inside a git checkout on some machines; only assert the walk.
    outside = environment_for(tmp_path / "plain", "m")
    assert outside.is_git_repo == any(
        (p / ".git").exists() for p in (tmp_path / "plain", *(tmp_path / "plain").parents)
    )
    assert outside.today == date.today()


def test_git_worktree_file_counts(tmp_path: Path) -> None:
    (tmp_path / ".git").write_text("gitdir: /elsewhere\n")
    assert environment_for(tmp_path, "m").is_git_repo


@pytest.mark.parametrize(
    ("model", "name"),
    [
        ("claude-sonnet-4-5-20250929", "Claude Sonnet 4.5"),
        ("claude-opus-4-1", "Claude Opus 4.1"),
        ("claude-opus-4-20250514", "Claude Opus 4"),
        ("claude-3-5-haiku-20241022", "Claude 3.5 Haiku"),
        ("claude-3-7-sonnet-latest", "Claude 3.7 Sonnet"),
        ("llama3:8b", "llama3:8b"),
    ],
)
def test_model_display_name(model: str, name: str) -> None:
    assert model_display_name(model) == name


def test_commit_trailer_only_when_given() -> None:
    env = PromptEnv(Path("/w"), True, "linux", "/bin/bash", "Linux 6", "claude-opus-5-5",
                    date(2026, 1, 2))
    with_trailer = render(build_system_prompt(env, tool_names=["Read"], commit_trailer="X-Trailer"))
    without = render(build_system_prompt(env, tool_names=["Read"]))
    assert "X-Trailer" in with_trailer and "trailer" in with_trailer
    assert "trailer" not in without
