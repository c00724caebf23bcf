"""/statusline: a prompt (our wording) that asks the model to set up `statusLine`, naming
this user's settings file and what the user asked for."""

from __future__ import annotations

from pathlib import Path

from cc.commands.registry import dispatch
from cc.core.query_engine import QueryEngine
from tests.commands import test_builtins
from tests.commands.test_builtins import make_ctx

engine = test_builtins.engine  # the fixture: a real engine against the fake API


async def test_statusline_asks_the_model_to_set_it_up(engine: QueryEngine,
                                                      tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    result = await dispatch("/statusline show the git branch", ctx)
    assert result is not None and result.submit is not None
    tags, prompt = (block.text for block in result.submit.content)  # type: ignore[union-attr]
    assert "<command-name>/statusline</command-name>" in tags
    assert "<command-args>show the git branch</command-args>" in tags
    assert str(ctx.config_dir / "settings.json") in prompt
    assert str(ctx.config_dir / "statusline.sh") in prompt
    assert '{"type": "command", "command": "<shell command>", "padding": 0}' in prompt
    assert "What I want: show the git branch" in prompt
    assert "{" not in prompt.replace("{\"type\"", "")  # every placeholder filled
    bare = await dispatch("/statusline", ctx)
    assert bare is not None and bare.submit is not None
    assert "What I want" not in bare.submit.content[1].text  # type: ignore[union-attr]
