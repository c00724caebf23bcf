"""git commands that print file contents (`git log -p`, `git show`, `git diff`,
`git blame`) against Read deny rules, in a real repository whose history holds a file
a deny rule covers."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cc.permissions.bash_rules import evaluate_bash
from cc.permissions.rules import RuleSet
from tests.permissions.conftest import Proj


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=root,
                   check=True, capture_output=True)


@pytest.fixture
def repo(proj: Proj) -> Proj:
    git(proj.root, "init", "-q", ".")
    (proj.root / ".env").write_text("API_KEY=SECRET\n")
    git(proj.root, "add", ".env", "README.md", "src/main.py")
    git(proj.root, "commit", "-qm", "first, with the secret")
    git(proj.root, "rm", "-q", "--cached", ".env")
    git(proj.root, "commit", "-qm", "the secret leaves the index")
    (proj.root / "src" / "main.py").write_text("changed\n")
    return proj


CASES = [
    ("git log -p", "deny"),
    ("git log --patch --all", "deny"),
    ("git log -p -- .env", "deny"),
    ("git log -p -- src", "allow"),
    ("git log -p -- 'src/*.py'", "deny"),  # a wildcard pathspec may match anything
    ("git show HEAD~1", "deny"),
    ("git show HEAD~1 --stat", "allow"),
    ("git show HEAD:README.md", "allow"),
    ("git show HEAD~1:.env", "deny"),
    ("git diff HEAD~1 HEAD", "deny"),
    ("git diff HEAD~1 HEAD -- src", "allow"),
    ("git diff", "allow"),  # only tracked files: .env is no longer one
    ("git diff --stat HEAD~1", "allow"),
    ("git blame .env", "deny"),
    ("git blame README.md", "allow"),
    ("git stash show -p", "deny"),
    ("git log --oneline -3", "allow"),
    ("git log --stat", "allow"),
]


@pytest.mark.parametrize(("command", "expected"), CASES)
def test_contents_from_history(repo: Proj, command: str, expected: str) -> None:
    rules = RuleSet.from_strings(cwd=repo.root, deny=["Read(.env)"])
    verdict = evaluate_bash(command, rules, "default", repo.root, home=repo.home,
                            config_dir=repo.config)
    assert verdict.behavior == expected, verdict


def test_without_a_read_deny_rule_git_is_not_listed(repo: Proj) -> None:
    rules = RuleSet.from_strings(cwd=repo.root, deny=["Bash(rm:*)"])
    assert evaluate_bash("git log -p", rules, "default", repo.root, home=repo.home
                         ).behavior == "allow"


def test_a_listing_that_fails_asks(repo: Proj) -> None:
    (repo.root / ".git" / "HEAD").write_text("garbage\n")  # git no longer reads it
    rules = RuleSet.from_strings(cwd=repo.root, deny=["Read(.env)"])
    verdict = evaluate_bash("git log -p", rules, "default", repo.root, home=repo.home)
    assert verdict.behavior == "ask" and "could not be listed" in verdict.reason
