from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from cc.core.services import services_of
from cc.tools.base import EngineRef, ToolContext
from tests.core.engines import close_all, make_engine
from tests.fakeapi import FakeAPI
from tests.tools.web.pages import Site, serve


@pytest.fixture
def site() -> Iterator[Site]:
    with serve() as s:
        yield s


@pytest.fixture
async def web_ctx(fake_api: FakeAPI, tmp_path: Path) -> AsyncIterator[ToolContext]:
    """A context whose side requests go to the fake API through a real engine."""
    engine = make_engine(fake_api, tmp_path)
    yield ToolContext(cwd=tmp_path, engine_ref=EngineRef(services_of(engine)))
    await close_all()
