"""Prompt and tool-description text, kept as files beside this module."""

from __future__ import annotations

from functools import cache
from importlib import resources


@cache
def load_text(name: str) -> str:
    """The text of `cc/prompts/<name>` (e.g. "tools/Read.md")."""
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
