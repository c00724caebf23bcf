"""Read/Edit path rules: anchors, `..`, symlinks, `~`, bare names, and the Read/Edit links."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cc.permissions.path_policy import PathPolicy
from cc.permissions.paths import Scope, compile_path_pattern, protected_reason
from cc.permissions.rules import RuleSet
from tests.permissions.conftest import Proj, check, make_checker


def policy(proj: Proj, **rules: list[str]) -> PathPolicy:
    return PathPolicy(RuleSet.from_strings(cwd=proj.root, **rules),
                      Scope(proj.root, (), proj.home, proj.config))


# --- anchors ---------------------------------------------------------------------------------


def test_double_slash_is_the_filesystem_root(proj: Proj) -> None:
    p = policy(proj, deny=["Read(//etc/**)"])
    assert p.denied("/etc/passwd", write=False)
    assert not p.denied(str(proj.root / "etc/passwd"), write=False)


def test_single_slash_is_relative_to_the_settings_source(proj: Proj) -> None:
    pattern = compile_path_pattern("/src/**", anchor=proj.outside, cwd=proj.root,
                                   home=proj.home, deny=True)
    assert pattern.matches(str(proj.outside / "src/x.py"), deny=True)
    assert not pattern.matches(str(proj.root / "src/x.py"), deny=True)
    assert not pattern.matches("/src/x.py", deny=True)


def test_dot_slash_and_bare_relative_are_the_working_folder(proj: Proj) -> None:
    p = policy(proj, allow=["Edit(./src/**)", "Edit(docs/*.md)"])
    assert p.allowed(str(proj.root / "src/deep/x.py"), write=True)
    assert p.allowed(str(proj.root / "docs/a.md"), write=True)
    assert not p.allowed(str(proj.root / "docs/sub/a.md"), write=True)  # * is one segment
    assert not p.allowed(str(proj.outside / "src/x.py"), write=True)


def test_tilde_is_home(proj: Proj) -> None:
    p = policy(proj, allow=["Read(~/notes/**)"])
    assert p.allowed(str(proj.home / "notes/today.md"), write=False)
    assert not p.allowed(str(proj.root / "notes/today.md"), write=False)


def test_single_folder_pattern_anchors_for_allow_but_not_for_deny(proj: Proj) -> None:
    p = policy(proj, allow=["Edit(src/**)"], deny=["Read(secrets/**)"])
    assert p.allowed(str(proj.root / "src/a.py"), write=True)
    assert not p.allowed(str(proj.root / "lib/src/a.py"), write=True)
    assert p.denied(str(proj.root / "secrets/k"), write=False)
    assert p.denied(str(proj.root / "a/b/secrets/k"), write=False)


def test_bare_filename_matches_at_any_depth(proj: Proj) -> None:
    p = policy(proj, deny=["Read(.env)"])
    for path in (proj.root / ".env", proj.root / "sub/.env", proj.outside / "x/.env"):
        assert p.denied(str(path), write=False), path
    assert not p.denied(str(proj.root / ".envrc"), write=False)


def test_star_is_one_segment_and_double_star_crosses(proj: Proj) -> None:
    p = policy(proj, deny=["Read(./logs/*.log)", "Read(./data/**/*.csv)"])
    assert p.denied(str(proj.root / "logs/a.log"), write=False)
    assert not p.denied(str(proj.root / "logs/old/a.log"), write=False)
    assert p.denied(str(proj.root / "data/a.csv"), write=False)
    assert p.denied(str(proj.root / "data/x/y/a.csv"), write=False)


# --- `..` and symlinks -----------------------------------------------------------------------


def test_dot_dot_does_not_escape_an_allowed_folder(proj: Proj) -> None:
    p = policy(proj, allow=["Read(./src/**)"])
    assert p.allowed(str(proj.root / "src/main.py"), write=False)
    assert not p.allowed(str(proj.root / "src/../secret"), write=False)


async def test_dot_dot_out_of_an_allowed_outside_folder_asks(proj: Proj) -> None:
    (proj.outside / "pub").mkdir()
    checker = make_checker(proj, allow=(f"Read(/{proj.outside}/pub/**)",))
    assert (await check(checker, "Read", file_path=str(proj.outside / "pub/x"))).behavior \
        == "allow"
    escaped = await check(checker, "Read", file_path=str(proj.outside / "pub/../secret.txt"))
    assert escaped.behavior == "deny" and "non-interactive" in (escaped.message or "")


async def test_symlink_out_of_an_allowed_folder_is_not_allowed(proj: Proj) -> None:
    (proj.outside / "pub").mkdir()
    (proj.outside / "pub/link").symlink_to(proj.outside / "secret.txt")
    (proj.root / "link").symlink_to(proj.outside / "secret.txt")
    checker = make_checker(proj, allow=(f"Read(/{proj.outside}/pub/**)",))
    for path in (proj.outside / "pub/link", proj.root / "link"):
        assert (await check(checker, "Read", file_path=str(path))).behavior == "deny", path


async def test_deny_is_not_escaped_by_dot_dot_or_a_symlink(proj: Proj) -> None:
    (proj.root / "pw").symlink_to("/etc/passwd")
    checker = make_checker(proj, deny=("Read(//etc/**)",))
    for path in ("/etc/passwd", "/etc/../etc/passwd", str(proj.root / "pw"),
                 str(proj.root / "src/../pw")):
        decision = await check(checker, "Read", file_path=path)
        assert decision.behavior == "deny", path
        assert "deny rule Read(//etc/**)" in (decision.message or "")
    bash = await check(checker, "Bash", command="cat pw")
    assert bash.behavior == "deny"


def test_deny_matches_the_link_itself_too(proj: Proj) -> None:
    (proj.root / "alias").symlink_to(proj.root / "README.md")
    p = policy(proj, deny=["Read(./alias)"])
    assert p.denied(str(proj.root / "alias"), write=False)


# --- Read and Edit -----------------------------------------------------------------------------


async def test_edit_allow_grants_read(proj: Proj) -> None:
    target = str(proj.outside / "secret.txt")
    assert (await check(make_checker(proj), "Read", file_path=target)).behavior == "deny"
    checker = make_checker(proj, allow=(f"Edit(/{proj.outside}/**)",))
    assert (await check(checker, "Read", file_path=target)).behavior == "allow"
    assert (await check(checker, "Edit", file_path=target)).behavior == "allow"


async def test_read_deny_blocks_edit_and_write(proj: Proj) -> None:
    checker = make_checker(proj, "acceptEdits", deny=("Read(.env)",))
    for tool in ("Read", "Edit", "Write"):
        decision = await check(checker, tool, file_path=str(proj.root / "sub/.env"))
        assert decision.behavior == "deny", tool
    assert (await check(checker, "Edit", file_path=str(proj.root / "a"))).behavior == "allow"


async def test_search_tools_default_to_the_working_folder(proj: Proj) -> None:
    checker = make_checker(proj)
    assert (await check(checker, "Grep")).behavior == "allow"
    assert (await check(checker, "Glob")).behavior == "allow"
    outside = await check(checker, "Grep", path=str(proj.outside))
    assert outside.behavior == "deny"
    assert (await check(checker, "Glob", pattern=f"{proj.outside}/**")).behavior == "deny"
    assert (await check(checker, "Glob", pattern="../**")).behavior == "deny"


async def test_additional_directories_are_working_folders(proj: Proj) -> None:
    checker = make_checker(proj, "acceptEdits", add_dirs=(str(proj.outside),))
    target = str(proj.outside / "secret.txt")
    assert (await check(checker, "Read", file_path=target)).behavior == "allow"
    assert (await check(checker, "Edit", file_path=target)).behavior == "allow"


@pytest.mark.parametrize("rel", [
    ".claude/settings.json", ".claude/settings.local.json", ".claude/commands/x.md",
    ".claude/agents/a.md", ".claude/skills/s/SKILL.md", ".mcp.json", ".git/hooks/pre-commit",
    ".git/config", ".gitconfig", ".gitmodules", ".bashrc", ".zshrc", ".profile",
    ".bash_profile", ".zprofile", ".bash_login", "sub/.vscode/settings.json",
])
def test_protected_files(proj: Proj, rel: str) -> None:
    assert protected_reason(str(proj.root / rel), proj.config)


@pytest.mark.parametrize("rel", [
    ".ssh/authorized_keys", ".ssh/config", ".ssh/id_ed25519", ".gnupg/gpg.conf",
    ".aws/credentials", ".aws/config", ".kube/config", ".netrc", ".git-credentials",
    ".pgpass", ".bash_aliases", ".zshenv", ".config/fish/config.fish",
    ".config/autostart/x.desktop", ".config/git/config",
])
async def test_credentials_and_start_up_files_in_an_added_folder_ask_in_accept_edits(
        proj: Proj, rel: str) -> None:
    """acceptEdits approves edits inside the working folders, but not of a credential or
    start-up file there (an added folder is often the home folder)."""
    checker = make_checker(proj, "acceptEdits", add_dirs=(str(proj.home),))
    target = proj.home / rel
    assert (await check(checker, "Write", file_path=str(target))).behavior == "deny"
    assert (await check(checker, "Write", file_path=str(proj.home / "notes.txt"))
            ).behavior == "allow"
    bash = await check(checker, "Bash", command=f"echo x >> {target}")
    assert bash.behavior == "deny" and "protected" in (bash.message or "")


async def test_a_hard_link_to_a_denied_file_is_denied_too(proj: Proj) -> None:
    import os

    secrets = proj.home / ".aws"
    secrets.mkdir()
    (secrets / "credentials").write_text("key\n")
    os.link(secrets / "credentials", proj.root / "notes.txt")
    os.link(proj.root / ".env", proj.root / "src" / "settings.txt")
    checker = make_checker(proj, deny=("Read(~/.aws/**)", "Read(.env)"))
    for target in ("notes.txt", "src/settings.txt"):
        decision = await check(checker, "Read", file_path=str(proj.root / target))
        assert decision.behavior == "deny" and "hard link" in (decision.message or "")
        assert (await check(checker, "Edit", file_path=str(proj.root / target))
                ).behavior == "deny"
    assert (await check(checker, "Read", file_path=str(proj.root / "a"))).behavior == "allow"


def test_protected_through_a_symlink_and_in_the_config_folder(proj: Proj) -> None:
    (proj.root / "innocent").symlink_to(proj.home / ".bashrc")
    assert protected_reason(str(proj.root / "innocent"))
    assert protected_reason(str(proj.config / "settings.json"), proj.config)
    assert protected_reason(str(proj.config / "agents/x.md"), proj.config)
    assert not protected_reason(str(proj.config / "projects/p/memory/MEMORY.md"), proj.config)
    assert not protected_reason(str(proj.root / ".claude/worktrees/x/a.py"), proj.config)
    assert not protected_reason(str(proj.root / "src/main.py"), proj.config)


def test_realpath_of_a_working_folder_counts(proj: Proj, tmp_path: Path) -> None:
    alias = tmp_path / "alias"
    alias.symlink_to(proj.root)
    p = PathPolicy(RuleSet(), Scope(alias, (), proj.home))
    assert p.inside(str(proj.root / "a"))
    assert p.inside(os.path.join(alias, "a"))
