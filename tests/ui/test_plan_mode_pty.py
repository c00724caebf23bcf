"""Plan mode and AskUserQuestion in the REPL, in a real pseudo-terminal."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.fakeapi import Dynamic, Reply, text, tool_use
from tests.ui.conftest import Setup


def results(body: dict[str, Any]) -> str:
    return json.dumps(body["messages"][-1])


def test_plan_mode_refuses_the_edit_until_the_plan_is_approved(setup: Setup) -> None:
    target = setup.root / "calc.py"
    target.write_text("def add(a, b):\n    return a - b\n")
    edit = {"file_path": str(target), "old_string": "a - b", "new_string": "a + b"}
    plans = re.escape(str(setup.config / "plans")) + r"/[a-z-]+\.md"
    plan_file: list[str] = []

    def write_plan(body: dict[str, Any]) -> Reply:
        assert "plan mode" in results(body)  # the refused Edit said why
        plan_file.append(re.findall(plans, json.dumps(body))[0])
        return Reply([tool_use("Write", {"file_path": plan_file[0],
                                         "content": "# Fix add\n\n1. Use `a + b`.\n"})])

    setup.api.script(
        Reply([tool_use("EnterPlanMode", {})]),
        Reply([tool_use("Read", {"file_path": str(target)})]),
        Reply([tool_use("Edit", edit)]),
        Dynamic(write_plan),
        Reply([tool_use("ExitPlanMode", {})]),
        Reply([tool_use("Edit", edit)]),
        Reply([text("Done.")]),
    )
    term = setup.start("--permission-mode", "default")
    term.enter("fix calc.py, plan first")
    screen = term.wait_for("Ready to code?", "1. Yes, and accept edits", "3. No, keep planning")
    assert "Fix add" in screen and "Use a + b" in screen and "Error: Permission to edit" in screen
    assert "a - b" in target.read_text()
    assert Path(plan_file[0]).read_text().startswith("# Fix add")
    term.type("1")
    # the answer and the footer's new mode are drawn apart (the footer a redraw later)
    term.wait_for("● Done.", "accept edits on")
    assert "a + b" in target.read_text()
    assert "approved the plan" in json.dumps(setup.api.bodies[-2]["messages"][-1])
    setup.api.assert_clean()


def test_a_question_is_answered_in_the_dialog(setup: Setup) -> None:
    question = {"question": "Which colour?", "header": "Colour", "multiSelect": False,
                "options": [{"label": "Red", "description": "warm"},
                            {"label": "Blue", "description": "cool"}]}
    setup.api.script(Reply([tool_use("AskUserQuestion", {"questions": [question]})]),
                     Reply("Blue it is."))
    term = setup.start()
    term.enter("paint it")
    screen = term.wait_for("[Colour] Which colour?", "3. Type something else")
    assert "cool" in screen
    term.type("\x1b[B")  # down to Blue
    term.enter()
    term.wait_for("● Blue it is.")
    assert '\\"Which colour?\\"=\\"Blue\\"' in json.dumps(setup.api.bodies[-1]["messages"][-1])
    setup.api.assert_clean()


def test_a_question_answered_in_the_users_own_words(setup: Setup) -> None:
    question = {"question": "Which colour?", "header": "Colour", "multiSelect": True,
                "options": [{"label": "Red", "description": "warm"},
                            {"label": "Blue", "description": "cool"}]}
    setup.api.script(Reply([tool_use("AskUserQuestion", {"questions": [question]})]),
                     Reply("Noted."))
    term = setup.start()
    term.enter("paint it")
    term.wait_for("[ ] Red", "3. Type something else")
    term.type("3")
    term.wait_for("Type your answer")
    term.enter("teal")
    term.wait_for("● Noted.")
    assert '\\"Which colour?\\"=\\"teal\\"' in json.dumps(setup.api.bodies[-1]["messages"][-1])
