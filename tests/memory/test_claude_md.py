from __future__ import annotations

from pathlib import Path

import pytest

from cc.memory.claude_md import MemoryFile, load_claude_md, render_claude_md
from tests.privileges import unprivileged


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home


@pytest.fixture
def config_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "config"
    folder.mkdir()
    return folder


@pytest.fixture
def cwd(tmp_path: Path) -> Path:
    folder = tmp_path / "work" / "repo" / "pkg"
    folder.mkdir(parents=True)
    return folder


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def contents(files: list[MemoryFile]) -> list[str]:
    return [f.content.strip() for f in files]


def test_order_broad_to_specific(cwd: Path, config_dir: Path, home: Path) -> None:
    repo = cwd.parent
    write(config_dir / "CLAUDE.md", "user")
    write(repo / "CLAUDE.local.md", "repo local")
    write(repo / ".claude" / "CLAUDE.md", "repo dot-claude")
    write(repo / "CLAUDE.md", "repo")
    write(repo.parent / "CLAUDE.md", "work")
    write(cwd / "CLAUDE.md", "pkg")
    write(cwd / "CLAUDE.local.md", "pkg local")
    files = load_claude_md(cwd, config_dir)
    assert contents(files) == [
        "user",
        "work",
        "repo",
        "repo dot-claude",
        "repo local",
        "pkg",
        "pkg local",
    ]
    assert [f.scope for f in files] == [
        "user",
        "project",
        "project",
        "project",
        "local",
        "project",
        "local",
    ]
    assert files[0].path == config_dir / "CLAUDE.md"
    assert files[-1].path == cwd / "CLAUDE.local.md"


def test_no_files_renders_none(cwd: Path, config_dir: Path, home: Path) -> None:
    assert load_claude_md(cwd, config_dir) == []
    assert render_claude_md([]) is None


def test_render_introduces_each_file_by_path_and_scope(
    cwd: Path, config_dir: Path, home: Path
) -> None:
    write(config_dir / "CLAUDE.md", "Be brief.\n")
    write(cwd / "CLAUDE.local.md", "My sandbox URL is local.\n")
    write(cwd / "CLAUDE.md", "<!-- only a comment -->\n")
    rendered = render_claude_md(load_claude_md(cwd, config_dir))
    assert rendered == (
        f"Contents of {config_dir / 'CLAUDE.md'} (the user's instructions for all projects):"
        "\n\nBe brief.\n\n"
        f"Contents of {cwd / 'CLAUDE.local.md'} (the user's private instructions for this"
        " project):\n\nMy sandbox URL is local."
    )


def test_config_dir_inside_tree_is_loaded_once(tmp_path: Path, home: Path) -> None:
    config = home / ".claude"
    write(config / "CLAUDE.md", "user")
    project = home / "code"
    project.mkdir()
    files = load_claude_md(project, config)
    assert [(f.scope, f.content) for f in files] == [("user", "user")]


def test_relative_and_home_imports(cwd: Path, config_dir: Path, home: Path) -> None:
    write(cwd / "docs" / "style.md", "STYLE")
    write(cwd / "docs" / "nested.md", "NESTED @../top.md")
    write(cwd / "top.md", "TOP")
    write(home / "prefs.md", "PREFS")
    write(cwd / "CLAUDE.md", "See @docs/style.md\n- @~/prefs.md and @docs/nested.md\nend")
    [file] = load_claude_md(cwd, config_dir)
    assert file.content == (
        "See @docs/style.md\nSTYLE\n- @~/prefs.md and @docs/nested.md\nPREFS\n"
        "NESTED @../top.md\nTOP\nend"
    )


def test_absolute_import_and_relative_to_importing_file(
    tmp_path: Path, cwd: Path, config_dir: Path, home: Path
) -> None:
    shared = write(tmp_path / "shared" / "rules.md", "RULES @more.md")
    write(tmp_path / "shared" / "more.md", "MORE")
    write(cwd / "more.md", "WRONG")
    write(config_dir / "CLAUDE.md", f"@{shared}")
    [file] = load_claude_md(cwd, config_dir)
    assert file.content == f"@{shared}\nRULES @more.md\nMORE"


def test_import_depth_is_capped_at_five_hops(cwd: Path, config_dir: Path, home: Path) -> None:
    for n in range(1, 8):
        write(cwd / f"f{n}.md", f"F{n} @f{n + 1}.md")
    write(cwd / "CLAUDE.md", "@f1.md")
    [file] = load_claude_md(cwd, config_dir)
    assert "F5" in file.content
    assert "F6" not in file.content


def test_import_cycle_is_broken(cwd: Path, config_dir: Path, home: Path) -> None:
    write(cwd / "a.md", "A @b.md")
    write(cwd / "b.md", "B @a.md @CLAUDE.md")
    write(cwd / "CLAUDE.md", "root @a.md")
    [file] = load_claude_md(cwd, config_dir)
    assert file.content == "root @a.md\nA @b.md\nB @a.md @CLAUDE.md"


def test_no_imports_in_code_spans_fences_or_emails(
    cwd: Path, config_dir: Path, home: Path
) -> None:
    write(cwd / "x.md", "IMPORTED")
    text = (
        "Use `@x.md` literally, or ``code @x.md``.\n"
        "Mail me@x.md or foo@x.md.\n"
        "```\n@x.md\n```\n"
        "~~~~md\n```\n@x.md\n~~~~\n"
        "after"
    )
    write(cwd / "CLAUDE.md", text)
    [file] = load_claude_md(cwd, config_dir)
    assert file.content == text


def test_missing_and_directory_imports_are_ignored(
    cwd: Path, config_dir: Path, home: Path
) -> None:
    (cwd / "adir").mkdir()
    write(cwd / "CLAUDE.md", "@nope.md @adir @~ @ @/does/not/exist")
    [file] = load_claude_md(cwd, config_dir)
    assert file.content == "@nope.md @adir @~ @ @/does/not/exist"


def test_html_block_comments_are_stripped(cwd: Path, config_dir: Path, home: Path) -> None:
    write(cwd / "secret.md", "SECRET")
    write(cwd / "part.md", "<!-- hidden in import -->\nPART")
    text = (
        "keep\n"
        "<!-- one line -->\n"
        "  <!--\n  many lines @secret.md\n  -->\n"
        "inline <!-- stays --> text\n"
        "```html\n<!-- kept in code -->\n```\n"
        "@part.md"
    )
    write(cwd / "CLAUDE.md", text)
    [file] = load_claude_md(cwd, config_dir)
    assert file.content == (
        "keep\n"
        "inline <!-- stays --> text\n"
        "```html\n<!-- kept in code -->\n```\n"
        "@part.md\nPART"
    )


def test_oversized_and_undecodable_files_are_skipped(
    cwd: Path, config_dir: Path, home: Path
) -> None:
    (cwd / "CLAUDE.md").write_bytes(b"x" * (4 * 1024 * 1024 + 1))
    (cwd / "CLAUDE.local.md").write_bytes(b"\xff\xfe\x00bad")
    write(config_dir / "CLAUDE.md", "ok")
    assert contents(load_claude_md(cwd, config_dir)) == ["ok"]


def test_unreadable_file_is_skipped(open_tmp: Path, config_dir: Path, home: Path) -> None:
    cwd = open_tmp / "project"
    cwd.mkdir()
    write(cwd / "CLAUDE.md", "hidden").chmod(0)
    write(cwd / "CLAUDE.local.md", "shown")
    with unprivileged():  # as root too: the file is really unreadable
        assert not _can_read(cwd / "CLAUDE.md")
        assert contents(load_claude_md(cwd, config_dir)) == ["shown"]


def test_directory_named_claude_md_is_ignored(cwd: Path, config_dir: Path, home: Path) -> None:
    (cwd / "CLAUDE.md").mkdir()
    assert load_claude_md(cwd, config_dir) == []


def _can_read(path: Path) -> bool:
    try:
        path.read_bytes()
    except OSError:
        return False
    return True


def test_agents_md_is_read_where_no_claude_md_is(cwd: Path, config_dir: Path,
                                                 home: Path) -> None:
    write(config_dir / "CLAUDE.md", "user")  # the user's own file does not count
    write(cwd.parent / "AGENTS.md", "repo agents")
    write(cwd / "AGENTS.md", "pkg agents")
    files = load_claude_md(cwd, config_dir)
    assert contents(files) == ["user", "repo agents", "pkg agents"]
    assert files[-1].path == cwd / "AGENTS.md" and files[-1].scope == "project"
    assert "project instructions" in (render_claude_md(files) or "")


@pytest.mark.parametrize("claude_file", ["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"])
def test_any_claude_md_on_the_walk_wins_over_every_agents_md(
        cwd: Path, config_dir: Path, home: Path, claude_file: str) -> None:
    write(cwd.parent / claude_file, "claude")
    write(cwd.parent / "AGENTS.md", "agents here")
    write(cwd / "AGENTS.md", "agents below")
    assert contents(load_claude_md(cwd, config_dir)) == ["claude"]


def test_excludes_drop_files_by_glob(cwd: Path, config_dir: Path, home: Path) -> None:
    write(config_dir / "CLAUDE.md", "user")
    write(cwd.parent / "CLAUDE.md", "repo")
    write(cwd / "CLAUDE.md", "pkg")
    write(cwd / "CLAUDE.local.md", "pkg local")
    excludes = [f"**/{cwd.parent.name}/CLAUDE.md", str(cwd) + "/*.local.md", "~/nothing"]
    assert contents(load_claude_md(cwd, config_dir, excludes)) == ["user", "pkg"]
    assert contents(load_claude_md(cwd, config_dir, [str(config_dir / "*.md")])) == [
        "repo", "pkg", "pkg local"]
    # Not a list of strings: nothing is excluded.
    assert len(load_claude_md(cwd, config_dir, "CLAUDE.md")) == 4
    assert len(load_claude_md(cwd, config_dir, [1, None])) == 4


def test_an_excluded_claude_md_lets_the_agents_md_beside_it_in(
        cwd: Path, config_dir: Path, home: Path) -> None:
    write(cwd / "CLAUDE.md", "claude")
    write(cwd / "AGENTS.md", "agents")
    assert contents(load_claude_md(cwd, config_dir, ["**/pkg/CLAUDE.md"])) == ["agents"]
    assert contents(load_claude_md(cwd, config_dir, ["**/pkg/*.md"])) == []
