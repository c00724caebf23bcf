"""The plan file: `<config>/plans/<slug>.md`, the one file written in plan mode.

The slug is three random words, chosen once per session (Claude Code's are prompt words
plus two random words, e.g. `say-hi-fuzzy-hennessy.md`). The permission context holds the
path; the checker lets Write and Edit of it through in plan mode, and ExitPlanMode shows
what it holds to the user.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

_ADJECTIVES = ("amber", "brisk", "calm", "dapper", "eager", "fuzzy", "gentle", "hazy",
               "jolly", "keen", "lucid", "mellow", "nimble", "quiet", "rosy", "sunny",
               "tidy", "vivid", "witty", "zesty")
_NOUNS = ("acorn", "badger", "canyon", "dolphin", "ember", "falcon", "glacier", "harbor",
          "island", "juniper", "kestrel", "lantern", "meadow", "nebula", "orchard",
          "pebble", "quartz", "river", "sparrow", "thistle")


def plan_slug(rng: random.Random | None = None) -> str:
    pick = rng or random.SystemRandom()
    return "-".join((pick.choice(_ADJECTIVES), pick.choice(_ADJECTIVES), pick.choice(_NOUNS)))


def new_plan_file(config_dir: Path, rng: random.Random | None = None) -> Path:
    """A fresh plan file path for a session (nothing is created on disk)."""
    return config_dir / "plans" / f"{plan_slug(rng)}.md"


def read_plan(path: Path) -> str | None:
    """The plan as written, or None if there is none (missing, unreadable or blank)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return text if text.strip() else None


def is_plan_file(path: str | Path | None, plan_file: Path | None) -> bool:
    """`path` is the plan file (symlinks resolved)."""
    if path is None or plan_file is None:
        return False
    return os.path.realpath(path) == os.path.realpath(plan_file)
