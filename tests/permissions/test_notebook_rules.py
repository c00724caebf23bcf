"""NotebookEdit is an edit tool for permissions: its path is `notebook_path`, `Edit(...)`
rules and acceptEdits grant it, Read deny rules block it, and outside the working folders
it asks (refused with no one to ask)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cc.permissions.checker import PermissionChecker
from cc.permissions.gate import Decision
from cc.permissions.tool_rules import tool_path
from cc.tools.notebook_edit import NotebookEditInput, NotebookEditTool
from tests.permissions.conftest import Proj, make_checker

TOOL = NotebookEditTool()


async def notebook_edit(checker: PermissionChecker, path: Path) -> Decision:
    inp = NotebookEditInput(notebook_path=str(path), cell_id="c1", new_source="x = 1")
    return await checker.check(TOOL, inp, "toolu_nb")


def nb(proj: Proj, where: str = "notebooks/a.ipynb") -> Path:
    return proj.root / where


def test_its_path_is_notebook_path(proj: Proj) -> None:
    inp: dict[str, Any] = {"notebook_path": "notebooks/a.ipynb", "new_source": ""}
    assert tool_path("NotebookEdit", inp, proj.root, proj.home) == str(nb(proj))
    assert not TOOL.is_read_only(NotebookEditInput.model_validate(inp))


@pytest.mark.parametrize("mode, inside, outside", [
    ("default", "deny", "deny"),  # would ask; print mode has no one to ask
    ("acceptEdits", "allow", "deny"),
    ("plan", "deny", "deny"),
    ("bypassPermissions", "allow", "allow"),
])
async def test_modes(proj: Proj, mode: str, inside: str, outside: str) -> None:
    checker = make_checker(proj, mode)
    assert (await notebook_edit(checker, nb(proj))).behavior == inside
    assert (await notebook_edit(checker, proj.outside / "a.ipynb")).behavior == outside


async def test_a_refusal_says_what_was_asked(proj: Proj) -> None:
    decision = await notebook_edit(make_checker(proj), nb(proj))
    assert (decision.message or "").startswith(f"Permission to edit the notebook {nb(proj)}")


async def test_edit_rules_grant_it(proj: Proj) -> None:
    checker = make_checker(proj, allow=("Edit(./notebooks/**)",))
    assert (await notebook_edit(checker, nb(proj))).behavior == "allow"
    assert (await notebook_edit(checker, nb(proj, "other/a.ipynb"))).behavior == "deny"
    bare = make_checker(proj, allow=("Edit",))
    assert (await notebook_edit(bare, nb(proj, "other/a.ipynb"))).behavior == "allow"


async def test_read_and_edit_deny_rules_block_it(proj: Proj) -> None:
    for rule in ("Read(./notebooks/**)", "Edit(./notebooks/**)", "NotebookEdit"):
        checker = make_checker(proj, "acceptEdits", deny=(rule,))
        decision = await notebook_edit(checker, nb(proj))
        assert decision.behavior == "deny", rule
        assert "deny rule" in (decision.message or ""), (rule, decision.message)
    checker = make_checker(proj, "bypassPermissions", deny=("Read(./notebooks/**)",))
    assert (await notebook_edit(checker, nb(proj))).behavior == "deny"
