from __future__ import annotations

from pathlib import Path

import pytest

from cc.tools.base import ToolContext
from cc.tools.read import ReadInput, ReadTool

#: What Edit and Write say about a file the conversation has not read.
NOT_READ = (
    "<tool_use_error>File has not been read yet. Read it first before writing to it."
    "</tool_use_error>"
)


@pytest.fixture
def ctx(tmp_path: Path) -> ToolContext:
    return ToolContext(cwd=tmp_path)


async def read_first(ctx: ToolContext, path: Path) -> None:
    """Read `path` as the model would before editing it."""
    result = await ReadTool().call(ReadInput(file_path=str(path)), ctx)
    assert not result.is_error, result.content
