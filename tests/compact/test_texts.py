"""The texts compaction sends (cc/prompts/compact/), rendered, pinned by a golden file."""

from __future__ import annotations

from pathlib import Path

from cc.compact.summarize import instruction, summary_of
from tests.golden import assert_golden

GOLDEN = Path(__file__).parent / "golden" / "compact_texts.txt"


def test_golden_instruction() -> None:
    rendered = (f"## plain\n{instruction()}\n\n## with instructions\n"
                f"{instruction('keep the test names')}\n")
    assert_golden(GOLDEN, rendered, "compaction texts")
    assert "$" not in rendered


def test_the_summary_is_taken_from_its_tags() -> None:
    assert summary_of("<analysis>a</analysis>\n<summary>\nthe body\n</summary>") == "the body"
    assert summary_of("<analysis>only thinking</analysis>") is None
    assert summary_of("no tags at all") == "no tags at all"
    assert summary_of("<summary>cut off before the end") == "cut off before the end"
    assert summary_of("") is None
