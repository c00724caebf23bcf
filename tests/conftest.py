from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.cache_prefix import breaks
from tests.fakeapi import FakeAPI
from tests.privileges import open_tmp  # noqa: F401 - a fixture for every test


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "cache_prefix_exempt(why): the test's requests follow no conversation rule "
        "(e.g. deliberately garbled ones); fake_api does not check the prompt cache's prefix")


@pytest.fixture
def fake_api(request: pytest.FixtureRequest) -> Iterator[FakeAPI]:
    """A started fake Anthropic API; tests call ``fake_api.assert_clean()`` themselves.

    At teardown every request it received is checked with the prompt cache's rule
    (`tests.cache_prefix`): a conversation's request that does not extend the one before,
    and is none of the named exceptions, fails the test, unless it is marked
    ``@pytest.mark.cache_prefix_exempt("why")``."""
    with FakeAPI() as server:
        yield server
    exempt = request.node.get_closest_marker("cache_prefix_exempt")
    if exempt is not None:
        assert exempt.args and str(exempt.args[0]).strip(), "cache_prefix_exempt needs a reason"
        return
    found = breaks(server.requests)
    if found:
        pytest.fail("the prompt cache's prefix broke (tests/cache_prefix.py):\n  "
                    + "\n  ".join(found), pytrace=False)


@dataclass
class CCRun:
    returncode: int
    stdout: str
    stderr: str

    def json(self) -> dict[str, Any]:
        return json.loads(self.stdout)

    def records(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.stdout.splitlines() if line.startswith("{")]


@dataclass
class Project:
    """A temporary project folder with its own config and home, and a way to run cc in it."""

    root: Path
    config: Path
    home: Path
    api: FakeAPI
    env: dict[str, str] = field(default_factory=dict)

    def base_env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE"))}
        env.update(
            ANTHROPIC_BASE_URL=self.api.base_url,
            ANTHROPIC_API_KEY="test-key",
            CLAUDE_CONFIG_DIR=str(self.config),
            HOME=str(self.home),
            CC_RETRY_SCALE="0.001",
            PYTHONPATH=str(REPO_ROOT),
            # Background memory extraction sends requests of its own after each turn;
            # the tests of it turn it back on.
            CC_DISABLE_MEMORY_EXTRACTION="1",
        )
        env.update(self.env)
        return env

    def run(self, *args: str, stdin: str | None = None, timeout: float = 120) -> CCRun:
        proc = subprocess.run(
            [sys.executable, "-m", "cc", *args],
            cwd=self.root,
            env=self.base_env(),
            input=stdin,
            stdin=None if stdin is not None else subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        return CCRun(proc.returncode, proc.stdout, proc.stderr)


REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def project(tmp_path: Path, fake_api: FakeAPI) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    (tmp_path / "config").mkdir()
    (tmp_path / "home").mkdir()
    return Project(root, tmp_path / "config", tmp_path / "home", fake_api)


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the real ~/.claude."""
    base = tmp_path_factory.mktemp("isolated")
    monkeypatch.setenv("HOME", str(base / "home"))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(base / "config"))
    monkeypatch.setenv("CC_RETRY_SCALE", "0.001")
