"""Project folder names: Claude Code's encoding of the cwd, long paths hashed."""

from __future__ import annotations

from pathlib import Path

import pytest

from cc.session.paths import (
    find_project_dir,
    js_string_hash,
    project_dir,
    sanitize,
    session_path,
)

# Values computed with node: h = (h << 5) - h + s.charCodeAt(i) | 0; Math.abs(h).toString(36)
LONG = "/home/u/" + "very-long-directory_name." * 10 + "end"


@pytest.mark.parametrize(
    ("cwd", "name"),
    [
        ("/home/u/my_proj.v2", "-home-u-my-proj-v2"),
        ("/home/u/my_proj.x", "-home-u-my-proj-x"),
        ("/srv/a b/c~d", "-srv-a-b-c-d"),
        ("/home/u/caf\u00e9/\U0001f600x", "-home-u-caf----x"),  # astral char: two JS units
    ],
)
def test_every_non_alphanumeric_becomes_a_dash(cwd: str, name: str) -> None:
    assert sanitize(cwd) == name


def test_project_dir_and_session_path(tmp_path: Path) -> None:
    config = tmp_path / "cfg"
    assert project_dir(Path("/home/u/my_proj.v2"), config) == (
        config / "projects" / "-home-u-my-proj-v2"
    )
    assert session_path(Path("/home/u/my_proj.v2"), config, "abc") == (
        config / "projects" / "-home-u-my-proj-v2" / "abc.jsonl"
    )


def test_project_dir_uses_the_real_path(tmp_path: Path) -> None:
    real = tmp_path / "real_dir"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    assert project_dir(link, tmp_path) == project_dir(real, tmp_path)


def test_long_paths_are_cut_and_hashed() -> None:
    assert len(LONG) == 261
    name = sanitize(LONG)
    assert name == sanitize(LONG)[:200] + "-fe38ps"
    assert len(name) == 207
    assert js_string_hash("/home/u/caf\u00e9/\U0001f600x") == "s4jev2"
    assert (js_string_hash(""), js_string_hash("a")) == ("0", "2p")


def test_long_path_found_by_prefix_when_hashed_differently(tmp_path: Path) -> None:
    """The CLI under Bun may hash long paths differently: match on the 200-char prefix."""
    other = tmp_path / "projects" / (sanitize(LONG)[:200] + "-otherhash")
    other.mkdir(parents=True)
    assert find_project_dir(Path(LONG), tmp_path) == other
    assert find_project_dir(Path("/short"), tmp_path) is None


def test_project_dir_name_override(tmp_path: Path) -> None:
    env = {"CLAUDE_CODE_PROJECT_DIR_NAME": "my.team"}
    assert project_dir(Path("/x"), tmp_path, env=env) == tmp_path / "projects" / "my-team"
