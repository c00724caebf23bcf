"""The texts the query loop adds to a conversation (cc/prompts/loop/), pinned by a golden file."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

from cc.core import query_loop, structured_answer
from cc.prompts import load_text

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
    folder = resources.files("cc.prompts").joinpath("loop")
    rendered = "".join(f"## {p.name}\n{p.read_text(encoding='utf-8')}\n"
                       for p in sorted(folder.iterdir(), key=lambda p: p.name)
                       if p.name.endswith(".md"))
    if os.environ.get("CC_UPDATE_GOLDEN") == "1":
        GOLDEN.write_text(rendered, encoding="utf-8")
    assert GOLDEN.read_text(encoding="utf-8") == rendered, (
        "loop texts changed; rerun with CC_UPDATE_GOLDEN=1 if intended"
    )
