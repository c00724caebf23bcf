from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.core.engines import close_all


@pytest.fixture(autouse=True)
async def _close_engines() -> AsyncIterator[None]:
    yield
    await close_all()
