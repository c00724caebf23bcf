"""/rewind and Esc Esc in the REPL, in a real pseudo-terminal: two prompts edit files,
and a rewind brings the code and the conversation back to before the second."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fakeapi import FakeAPI, Reply, text, tool_use
from tests.ui.test_repl_pty import Setup


@pytest.fixture
def setup(tmp_path: Path, fake_api: FakeAPI) -> Iterator[Setup]:
    s = Setup(tmp_path, fake_api)
    yield s
    for term in s.terminals:
        term.close()


def prompts_sent(body: dict[str, Any]) -> list[str]:
    """The plain-text prompts of a request, in order."""
    return [m["content"] if isinstance(m["content"], str) else m["content"][0].get("text", "")
            for m in body["messages"] if m["role"] == "user"
            and not json.dumps(m["content"]).count("tool_result")]


def transcript(setup: Setup) -> list[dict[str, Any]]:
    [path] = (setup.config / "projects").glob("*/*.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_rewinding_code_and_conversation_to_before_the_second_prompt(setup: Setup) -> None:
    first, second = setup.root / "first.py", setup.root / "second.py"
    first.write_text("x = 1\n")
    second.write_text("y = 1\n")
    created = setup.root / "created.py"
    setup.api.script(
        Reply([tool_use("Read", {"file_path": str(first)})]),
        Reply([tool_use("Edit", {"file_path": str(first), "old_string": "1",
                                 "new_string": "2"})]),
        Reply([text("First done.")]),
        Reply([tool_use("Read", {"file_path": str(second)})]),
        Reply([tool_use("Edit", {"file_path": str(second), "old_string": "1",
                                 "new_string": "3"}),
               tool_use("Write", {"file_path": str(created), "content": "z = 0\n"})]),
        Reply([text("Second done.")]),
        Reply([text("Asked again.")]),
    )
    term = setup.start("--permission-mode", "acceptEdits")
    term.enter("change first")
    term.wait_for("● First done.")
    term.wait_idle()
    term.enter("change second")
    term.wait_for("● Second done.")
    term.wait_idle()
    assert (first.read_text(), second.read_text(), created.exists()) == ("x = 2\n", "y = 3\n",
                                                                         True)

    term.enter("/rewind")
    screen = term.wait_for("Rewind to before which prompt?",
                           "1. change second · second.py +1 -1, created.py +1",
                           "2. change first · first.py +1 -1")
    term.type("1")
    screen = term.wait_for("Restore code and conversation", "Never mind")
    assert "Restoring the code changes second.py, created.py (+1 -2)." in screen
    assert "not tracked" in screen  # what Bash changed is not undone
    term.type("1")
    screen = term.wait_for("Rewound the conversation to before: change second")
    assert "Restored the code (2 files changed)." in screen
    assert "● First done." in screen and "Second done." not in screen  # redrawn as it is
    term.wait_until(lambda _: term.prompt_line() == "> change second")  # back in the box
    assert (first.read_text(), second.read_text(), created.exists()) == ("x = 2\n", "y = 1\n",
                                                                         False)
    lines = transcript(setup)
    cut = lines[-1]
    assert cut["type"] == "system" and "change second" in cut["content"]
    before = next(i for i, line in enumerate(lines) if line.get("message", {}).get("content")
                  == "change second")
    kept = [line["uuid"] for line in lines[:before] if line["type"] == "assistant"]
    assert cut["parentUuid"] == kept[-1]  # hangs off the first turn's last line

    term.enter()  # send the prompt again, as it was put back
    term.wait_for("● Asked again.")
    assert prompts_sent(setup.api.bodies[-1]) == ["change first", "change second"]
    assert "Second done." not in json.dumps(setup.api.bodies[-1])
    assert "Rewound" not in json.dumps(setup.api.bodies[-1])  # the notice is not the model's
    setup.api.assert_clean()


def test_escape_twice_opens_the_rewind_and_restores_the_code_only(setup: Setup) -> None:
    made = setup.root / "made.txt"
    setup.api.script(
        Reply([tool_use("Write", {"file_path": str(made), "content": "new\n"})]),
        Reply([text("Made it.")]),
        Reply([text("Still here.")]),
    )
    term = setup.start("--permission-mode", "acceptEdits")
    term.enter("make a file")
    term.wait_for("● Made it.")
    term.wait_idle()
    assert made.exists()
    term.type("\x1b\x1b")
    term.wait_for("Rewind to before which prompt?", "1. make a file · made.txt +1")
    term.type("1")
    term.wait_for("Restore code and conversation")
    term.type("3")  # Restore code
    term.wait_for("Restored the code (1 file changed).")
    assert not made.exists()
    term.wait_idle()  # the input stays empty: the conversation is kept
    term.enter("still there?")
    term.wait_for("● Still here.")
    assert prompts_sent(setup.api.bodies[-1]) == ["make a file", "still there?"]
    setup.api.assert_clean()


def test_a_resumed_session_rewinds_what_the_first_run_changed(setup: Setup) -> None:
    kept = setup.root / "kept.txt"
    kept.write_text("before\n")
    setup.api.script(
        Reply([tool_use("Read", {"file_path": str(kept)})]),
        Reply([tool_use("Edit", {"file_path": str(kept), "old_string": "before",
                                 "new_string": "after"})]),
        Reply([text("Edited.")]),
    )
    term = setup.start("--permission-mode", "acceptEdits")
    term.enter("edit kept")
    term.wait_for("● Edited.")
    term.wait_idle()
    term.ctrl("d")
    assert term.wait_exit() == 0
    assert kept.read_text() == "after\n"

    again = setup.start("--continue")
    again.enter("/undo")
    again.wait_for("Rewind to before which prompt?", "1. edit kept · kept.txt +1 -1")
    again.type("1")
    again.wait_for("Restore code and conversation")
    again.type("3")
    again.wait_for("Restored the code (1 file changed).")
    assert kept.read_text() == "before\n"
    setup.api.assert_clean()
