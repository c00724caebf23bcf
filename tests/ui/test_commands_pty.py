"""Issue 24's slash commands in the REPL, on a real pseudo-terminal: /cost with the
prompt cache, /export to a file, an unknown command's suggestion, /vim's editing keys."""

from __future__ import annotations

import json

from tests.fakeapi import Reply
from tests.ui.conftest import Setup


def test_cost_export_and_a_mistyped_command(setup: Setup) -> None:
    setup.api.script(Reply("Hello there!", usage={"input_tokens": 1000, "output_tokens": 100,
                                                   "cache_read_input_tokens": 3000,
                                                   "cache_creation_input_tokens": 500}))
    term = setup.start()
    term.enter("hi")
    term.wait_for("● Hello there!")
    term.wait_idle()
    term.enter("/cost")
    screen = term.wait_for("Prompt cache:")
    assert "Prompt cache:          67% of input tokens from cache (3.0k read, 500 written)" in screen
    term.enter("/exprot chat.txt")
    term.wait_for("Unknown command: /exprot. Did you mean /export?")
    term.enter("/export chat.txt")
    term.wait_for("Conversation exported to")
    exported = (setup.root / "chat.txt").read_text()
    assert exported.endswith("> hi\n\n● Hello there!\n")
    assert len(setup.api.requests) == 1  # neither command reached the model
    term.ctrl("d")
    assert term.wait_exit() == 0


def test_vim_switches_the_editing_keys(setup: Setup) -> None:
    term = setup.start()
    term.enter("/vim")
    term.wait_for("Editor mode set to vim")
    assert json.loads((setup.config / ".claude.json").read_text())["editorMode"] == "vim"
    term.type("hello world")
    term.wait_until(lambda s: term.prompt_line() == "> hello world")
    term.type("\x1b")  # normal mode: `0` goes to the start, `x` deletes a character
    term.type("0")
    term.type("x")
    term.wait_until(lambda s: term.prompt_line() == "> ello world")
    term.type("dd")
    term.wait_until(lambda s: term.prompt_line() == ">")
    term.type("i")
    term.enter("/vim")
    term.wait_for("Editor mode set to normal")
    assert json.loads((setup.config / ".claude.json").read_text())["editorMode"] == "normal"


def test_vim_mode_is_remembered_at_start(setup: Setup) -> None:
    state = json.loads((setup.config / ".claude.json").read_text())
    (setup.config / ".claude.json").write_text(json.dumps({**state, "editorMode": "vim"}))
    term = setup.start()
    term.type("abc")
    term.wait_until(lambda s: term.prompt_line() == "> abc")
    term.type("\x1b")
    term.type("0")
    term.type("x")
    term.wait_until(lambda s: term.prompt_line() == "> bc")
