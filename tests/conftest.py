from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakeapi import FakeAPI


@pytest.fixture
def fake_api() -> Iterator[FakeAPI]:
    """A started fake Anthropic API; tests call ``fake_api.assert_clean()`` themselves."""
    with FakeAPI() as server:
        yield server
