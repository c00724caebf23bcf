"""The texts compaction sends (cc/prompts/compact/), rendered, pinned by a golden file."""

from __future__ import annotations

import os
from pathlib import Path

from cc.compact.summarize import instruction, summary_of

GOLDEN = Path(__file__).parent / "golden" / "compact_texts.txt"


def test_golden_instruction() -> None:
    rendered = (f"## plain\n{instruction()}\n\n## with instructions\n"
                f"{instruction('keep the test names')}\n")
    if os.environ.get("CC_UPDATE_GOLDEN") == "1":
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(rendered, encoding="utf-8")
    assert GOLDEN.read_text(encoding="utf-8") == rendered, (
        "compaction texts changed; rerun with CC_UPDATE_GOLDEN=1 if intended")
    assert "$" not in rendered


def test_the_summary_is_taken_from_its_tags() -> None:
    assert summary_of("<analysis>a</analysis>\n<summary>\nthe body\n</summary>") == "the body"
    assert summary_of("<analysis>only thinking</analysis>") is None
    assert summary_of("no tags at all") == "no tags at all"
    assert summary_of("<summary>cut off before the end") == "cut off before the end"
    assert summary_of("") is None
