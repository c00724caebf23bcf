"""/config shows the keys cc reads and sets or removes one in a settings file, checking
the value's type first (a bad value writes nothing)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from cc.commands.context import CommandContext
from cc.commands.registry import dispatch
from cc.core.query_engine import QueryEngine
from tests.commands import test_builtins
from tests.commands.test_builtins import make_ctx

engine = test_builtins.engine  # the fixture: a real engine against the fake API


def _out(ctx: CommandContext) -> str:
    text = ctx.console.file.getvalue()  # type: ignore[attr-defined]
    ctx.console.file.truncate(0)  # type: ignore[attr-defined]
    ctx.console.file.seek(0)  # type: ignore[attr-defined]
    return str(text)


def _said(ctx: CommandContext) -> str:
    """What was said, as one line (the console wraps long paths where it likes)."""
    return " ".join(_out(ctx).split())


def _json(path: Path) -> object:
    return json.loads(path.read_text())


async def test_config_lists_the_keys_with_values_and_files(engine: QueryEngine,
                                                           tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    await dispatch("/config", ctx)
    out = _out(ctx)
    # (the values line up in a column as wide as the longest key)
    assert re.search(r'^  model +"opus"  \[user\]$', out, re.M)
    assert re.search(r"^  cleanupPeriodDays +\(not set\)$", out, re.M)
    for key in ("attribution", "outputStyle", "language", "claudeMdExcludes",
                "respectGitignore", "statusLine", "spinnerTipsEnabled"):
        assert f"  {key} " in out
    assert out.endswith('{\n  "model": "opus"\n}\n')  # the merged settings, as before


async def test_set_and_unset_keep_the_rest_of_the_file(engine: QueryEngine,
                                                       tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    user = ctx.config_dir / "settings.json"
    user.write_text(json.dumps({"model": "opus", "hooks": {}}))
    await dispatch("/config set cleanupPeriodDays 7", ctx)
    assert "applies from the next session" in _said(ctx)
    await dispatch('/config set attribution {"commit": "", "pr": "Made with cc"}', ctx)
    await dispatch("/config set language français canadien", ctx)
    assert _json(user) == {"model": "opus", "hooks": {}, "cleanupPeriodDays": 7,
                           "attribution": {"commit": "", "pr": "Made with cc"},
                           "language": "français canadien"}
    await dispatch("/config unset cleanupPeriodDays", ctx)
    assert "cleanupPeriodDays" not in _json(user)  # type: ignore[operator]
    await dispatch("/config set --local outputStyle Learning", ctx)
    assert "next conversation (/clear)" in _said(ctx)
    local = ctx.cwd / ".claude" / "settings.local.json"
    assert _json(local) == {"outputStyle": "Learning"}
    await dispatch("/config set --project respectGitignore false", ctx)
    assert _json(ctx.cwd / ".claude" / "settings.json") == {"respectGitignore": False}


async def test_bad_values_write_nothing(engine: QueryEngine, tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    user = ctx.config_dir / "settings.json"
    await dispatch("/config set cleanupPeriodDays 0", ctx)
    assert "Not saved: cleanupPeriodDays: Input should be greater than or equal to 1" in _said(ctx)
    await dispatch('/config set statusLine {"type": "command"}', ctx)
    assert "Not saved: statusLine: command: Field required" in _said(ctx)
    await dispatch("/config set respectGitignore maybe", ctx)
    assert "Not saved: respectGitignore" in _said(ctx)
    await dispatch("/config set model", ctx)
    assert "Usage: /config" in _said(ctx)
    assert not user.exists()
    await dispatch("/config set somethingElse 1", ctx)
    assert "cc does not use somethingElse; it is kept in the file." in _said(ctx)
    assert _json(user) == {"somethingElse": 1}
