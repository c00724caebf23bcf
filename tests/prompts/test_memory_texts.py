"""The memory keeper's directive and the sub-agents' index text (cc/prompts/memory/),
pinned by a golden file."""

from __future__ import annotations

from pathlib import Path
from string import Template

from cc.prompts import load_text
from tests.golden import assert_golden, folder_texts

GOLDEN = Path(__file__).parent / "golden" / "memory_texts.txt"


def test_the_keepers_directive_fills_every_blank() -> None:
    text = Template(load_text("memory/extract.md")).substitute(
        folder="/m", since="4", index="- [a](a.md) - a")
    assert "$" not in text and "from message 4 onwards" in text and "- [a](a.md)" in text


def test_golden_memory_texts() -> None:
    assert_golden(GOLDEN, folder_texts("memory"), "memory texts")
