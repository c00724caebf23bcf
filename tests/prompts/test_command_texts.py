"""The prompts of the prompt commands (/init, /review, /security-review) and the note an
unknown command's prompt gets in print mode (cc/prompts/commands/), pinned by a golden
file."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from cc.commands.headless import unknown_note
from tests.golden import assert_golden

GOLDEN = Path(__file__).parent / "golden" / "command_texts.txt"
NAMES = ("init.md", "review.md", "security_review.md", "unknown_command.md")


def test_golden_command_texts() -> None:
    folder = resources.files("cc.prompts").joinpath("commands")
    rendered = "".join(f"## {name}\n{folder.joinpath(name).read_text(encoding='utf-8')}\n"
                       for name in NAMES)
    assert_golden(GOLDEN, rendered, "command texts")


def test_unknown_note_names_the_nearest_command_when_there_is_one() -> None:
    near = unknown_note("exprot", "export")
    assert near.startswith("<system-reminder>\nThe message below begins with /exprot,")
    assert "The nearest command is /export." in near and near.endswith("</system-reminder>")
    assert "nearest" not in unknown_note("zzz", None)
