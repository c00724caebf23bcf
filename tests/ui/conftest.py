"""What the REPL's pty tests share: a project with its own config and home, and the
terminals started in it (closed after each test). A module that needs more of its
folders or environment names its own `Setup` subclass as `SETUP`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakeapi import FakeAPI
from tests.ui.terminal import Terminal, cc_argv, cc_env, trust


class Setup:
    def __init__(self, tmp_path: Path, api: FakeAPI) -> None:
        self.root = tmp_path / "project"
        self.config = tmp_path / "config"
        self.home = tmp_path / "home"
        for d in (self.root, self.config, self.home):
            d.mkdir()
        trust(self.config, self.root)
        self.api = api
        self.terminals: list[Terminal] = []

    def start(self, *args: str, **env: str) -> Terminal:
        term = Terminal(cc_argv(*args), self.root, {**cc_env(self.api.base_url, self.config, self.home), **env})
        self.terminals.append(term)
        term.wait_until(lambda screen: "cwd:" in screen and term.prompt_line() == ">")
        return term


@pytest.fixture
def setup(tmp_path: Path, fake_api: FakeAPI, request: pytest.FixtureRequest) -> Iterator[Setup]:
    s = getattr(request.module, "SETUP", Setup)(tmp_path, fake_api)
    yield s
    for term in s.terminals:
        term.close()
