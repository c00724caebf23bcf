"""The texts of `prompt` hooks' requests (cc/prompts/hooks/), pinned by a golden file."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

from cc.hooks import prompt_hook
from cc.prompts import load_text

GOLDEN = Path(__file__).parent / "golden" / "hook_texts.txt"


def test_every_hook_text_is_used_and_loads() -> None:
    files = sorted(f"hooks/{p.name}" for p in resources.files("cc.prompts").joinpath("hooks")
                   .iterdir() if p.name.endswith(".md"))
    assert files == sorted([prompt_hook.SYSTEM_PROMPT, prompt_hook.STOP_CONDITION])
    assert "{condition}" in load_text(prompt_hook.STOP_CONDITION)
    assert '{"ok": false' in load_text(prompt_hook.SYSTEM_PROMPT)


def test_golden_hook_texts() -> None:
    folder = resources.files("cc.prompts").joinpath("hooks")
    rendered = "".join(f"## {p.name}\n{p.read_text(encoding='utf-8')}\n"
                       for p in sorted(folder.iterdir(), key=lambda p: p.name)
                       if p.name.endswith(".md"))
    if os.environ.get("CC_UPDATE_GOLDEN") == "1":
        GOLDEN.write_text(rendered, encoding="utf-8")
    assert GOLDEN.read_text(encoding="utf-8") == rendered, (
        "hook texts changed; rerun with CC_UPDATE_GOLDEN=1 if intended"
    )
