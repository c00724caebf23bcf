"""/export: the conversation as plain text, to a file, the clipboard or the screen,
saying which."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cc.commands.registry import dispatch
from cc.core.query_engine import QueryEngine
from tests.commands.test_builtins import make_ctx, output
from tests.fakeapi import FakeAPI, Reply, text


async def _talk(engine: QueryEngine, fake_api: FakeAPI) -> None:
    fake_api.script(Reply([text("The test expects **3**.\n\nFixed it.")]))
    _ = [e async for e in engine.submit("why does\nthe test fail?")]


async def test_export_to_a_file(engine: QueryEngine, fake_api: FakeAPI, tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    await dispatch("/export", ctx)
    assert output(ctx) == "Nothing to export yet: the conversation is empty."
    await _talk(engine, fake_api)
    await dispatch("/export notes/chat.txt", ctx)
    path = ctx.cwd / "notes" / "chat.txt"
    assert " ".join(output(ctx).split()) == f"Conversation exported to {path}"
    head, body = path.read_text().split("\n\n", 1)
    assert head.startswith("cc ") and f"session {engine.session_id}" in head
    assert body == "> why does\n  the test fail?\n\n● The test expects **3**.\n\n  Fixed it.\n"


async def test_export_without_a_file_uses_the_clipboard(
        engine: QueryEngine, fake_api: FakeAPI, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    clip = tmp_path / "clipboard.txt"
    program = bin_dir / "xclip"
    program.write_text(f"#!/bin/sh\ncat > {clip}\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/usr/bin:/bin")
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    await _talk(engine, fake_api)
    ctx = make_ctx(engine, tmp_path)
    await dispatch("/export", ctx)
    assert output(ctx).startswith("Conversation copied to the clipboard (with xclip)")
    assert clip.read_text().endswith("> why does\n  the test fail?\n\n● The test expects "
                                     "**3**.\n\n  Fixed it.\n")


async def test_export_without_a_clipboard_prints_it(
        engine: QueryEngine, fake_api: FakeAPI, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "nothing"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    await _talk(engine, fake_api)
    ctx = make_ctx(engine, tmp_path)
    await dispatch("/export", ctx)
    out = output(ctx)
    assert out.startswith("No clipboard program found")
    assert out.endswith("● The test expects **3**.\n\n  Fixed it.")


def test_the_text_shows_tool_calls_results_and_commands(tmp_path: Path) -> None:
    from cc.commands.conversation_text import conversation_text
    from cc.models.content_blocks import TextBlock, ToolResultBlock, ToolUseBlock
    from cc.models.messages import AssistantMessage, UserMessage

    messages = [
        UserMessage([TextBlock("<command-name>/review</command-name>\n<command-message>review"
                               "</command-message>\n<command-args>42</command-args>"),
                     TextBlock("the long prompt of /review")]),
        UserMessage.text("<system-reminder>\nnot typed\n</system-reminder>", is_meta=True),
        AssistantMessage([TextBlock("Reading."), ToolUseBlock(
            "t1", "Read", {"file_path": str(tmp_path / "src" / "a.py")}), ToolUseBlock(
            "t2", "Bash", {"command": "pytest -q"})]),
        UserMessage([ToolResultBlock("t1", "1\n2\n3\n4\n5\n6"),
                     ToolResultBlock("t2", [{"type": "text", "text": "boom"}], is_error=True)]),
    ]
    assert conversation_text(messages, tmp_path) == (
        "> /review 42\n\n● Reading.\n\n● Read(src/a.py)\n\n● Bash(pytest -q)\n\n"
        "  ⎿  1\n     2\n     3\n     4\n     … +2 lines\n\n  ⎿  Error: boom\n")
