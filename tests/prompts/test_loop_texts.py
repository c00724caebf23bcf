"""The texts the query loop adds to a conversation (cc/prompts/loop/), pinned by a golden file."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from cc.core import query_loop, structured_answer
from cc.prompts import load_text
from tests.golden import assert_golden, folder_texts

GOLDEN = Path(__file__).parent / "golden" / "loop_texts.txt"


def test_every_loop_text_is_a_prompt_file_and_loads() -> None:
    names = [query_loop.CONTINUE_AFTER_MAX_TOKENS, query_loop.NUDGE_AFTER_EMPTY,
             query_loop.REFUSAL_NOTE, query_loop.CUT_TOOL_USE,
             structured_answer.ASK_FOR_STRUCTURED_OUTPUT]
    files = sorted(f"loop/{p.name}" for p in resources.files("cc.prompts").joinpath("loop").iterdir()
                   if p.name.endswith(".md"))
    assert sorted(names) == files
    assert all(load_text(n).strip() for n in names)
    assert "{received}" in load_text(query_loop.CUT_TOOL_USE)


def test_golden_loop_texts() -> None:
    rendered = folder_texts("loop")
    assert_golden(GOLDEN, rendered, "loop texts")
