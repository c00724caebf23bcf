"""The texts of `prompt` hooks' requests (cc/prompts/hooks/), pinned by a golden file."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from cc.hooks import prompt_hook
from cc.prompts import load_text
from tests.golden import assert_golden, folder_texts

GOLDEN = Path(__file__).parent / "golden" / "hook_texts.txt"


def test_every_hook_text_is_used_and_loads() -> None:
    files = sorted(f"hooks/{p.name}" for p in resources.files("cc.prompts").joinpath("hooks")
                   .iterdir() if p.name.endswith(".md"))
    assert files == sorted([prompt_hook.SYSTEM_PROMPT, prompt_hook.STOP_CONDITION])
    assert "{condition}" in load_text(prompt_hook.STOP_CONDITION)
    assert '{"ok": false' in load_text(prompt_hook.SYSTEM_PROMPT)


def test_golden_hook_texts() -> None:
    rendered = folder_texts("hooks")
    assert_golden(GOLDEN, rendered, "hook texts")
