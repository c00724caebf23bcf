"""/output-style: lists the styles, saves a choice to the local settings, and /clear
puts it into the main agent's prompt (the conversation under way keeps its prompt)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from cc.commands.context import CommandContext
from cc.commands.registry import dispatch
from cc.core.query_engine import QueryEngine
from cc.prompts.builder import render
from tests.commands import test_builtins
from tests.commands.test_builtins import make_ctx

engine = test_builtins.engine  # the fixture: a real engine against the fake API


def _out(ctx: CommandContext) -> str:
    return ctx.console.file.getvalue()  # type: ignore[attr-defined]


def _local(tmp_path: Path) -> dict[str, object]:
    return json.loads((tmp_path / "proj" / ".claude" / "settings.local.json").read_text())


async def test_lists_built_in_and_file_styles(engine: QueryEngine, tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    styles = ctx.cwd / ".claude" / "output-styles"
    styles.mkdir(parents=True)
    (styles / "pirate.md").write_text("---\ndescription: Talks like a pirate\n---\nArr.\n")
    (styles / "bad.md").write_text("---\nkeep-coding-instructions: maybe\n---\nx\n")
    await dispatch("/output-style", ctx)
    out = _out(ctx)
    assert "Output style: default" in out
    assert "default (current):" in out and "Explanatory:" in out and "Learning:" in out
    assert "pirate: Talks like a pirate [project]" in out
    # the console wraps the long temporary path where it likes: read it unwrapped
    assert "Skipped output style" in out and "bad.md" in out.replace("\n", "")
    assert not (ctx.cwd / ".claude" / "settings.local.json").exists()


async def test_choosing_saves_and_takes_effect_after_clear(engine: QueryEngine,
                                                          tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    local = ctx.cwd / ".claude" / "settings.local.json"
    local.parent.mkdir(parents=True)
    local.write_text(json.dumps({"permissions": {"allow": ["Read"]}}))
    before = render(engine.config.system)
    await dispatch("/output-style learning", ctx)
    assert "Set the output style to Learning" in _out(ctx)
    assert _local(tmp_path) == {"permissions": {"allow": ["Read"]}, "outputStyle": "Learning"}
    assert render(engine.config.system) == before  # this conversation keeps its prompt
    await dispatch("/clear", ctx)
    after = render(engine.config.system)
    assert "# Output style: Learning" in after and "TODO(human)" in after
    assert ctx.runtime.output_style == "Learning"
    await dispatch("/output-style default", ctx)
    await dispatch("/clear", ctx)
    assert "# Output style" not in render(engine.config.system)


async def test_the_picker_and_an_unknown_name(engine: QueryEngine, tmp_path: Path) -> None:
    async def choose(title: str, options: Sequence[str]) -> int | None:
        assert title == "Choose an output style"
        return next(i for i, o in enumerate(options) if o.startswith("Explanatory"))

    ctx = make_ctx(engine, tmp_path)
    await dispatch("/output-style nonesuch", ctx)
    assert 'No output style "nonesuch"' in _out(ctx)
    ctx.choose = choose
    await dispatch("/output-style", ctx)
    assert _local(tmp_path) == {"outputStyle": "Explanatory"}


async def test_a_broken_settings_file_is_not_overwritten(engine: QueryEngine,
                                                        tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    local = ctx.cwd / ".claude" / "settings.local.json"
    local.parent.mkdir(parents=True)
    local.write_text("{ oops")
    await dispatch("/output-style Learning", ctx)
    assert "Did not save" in _out(ctx)
    assert local.read_text() == "{ oops"
