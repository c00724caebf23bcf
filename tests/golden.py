"""Texts pinned by golden files: a prompt changes only when its golden file changes with
it (`CC_UPDATE_GOLDEN=1` rewrites the files from the texts as they are)."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path


def folder_texts(folder: str, names: tuple[str, ...] | None = None) -> str:
    """The `.md` texts of `cc/prompts/<folder>` (or the `names` given, in that order),
    each under a `## name` heading."""
    root = resources.files("cc.prompts").joinpath(folder)
    if names is None:
        names = tuple(sorted(p.name for p in root.iterdir() if p.name.endswith(".md")))
    return "".join(f"## {name}\n{root.joinpath(name).read_text(encoding='utf-8')}\n"
                   for name in names)


def assert_golden(golden: Path, rendered: str, what: str) -> None:
    if os.environ.get("CC_UPDATE_GOLDEN") == "1":
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(rendered, encoding="utf-8")
    assert golden.read_text(encoding="utf-8") == rendered, (
        f"{what} changed; rerun with CC_UPDATE_GOLDEN=1 if intended")
