"""Output styles in the system prompt: where the style's section goes, what it replaces,
and that switching back gives the very prompt the default builds (byte for byte)."""

from __future__ import annotations

from pathlib import Path

from cc.prompts.builder import build_system_prompt, render, with_output_style
from cc.prompts.output_styles import DEFAULT, OutputStyle, load_styles, resolve_style
from tests.prompts.test_builder import TOOLS, make_env


def _names(style: OutputStyle | None, **kw: str) -> list[str]:
    return [s.name for s in build_system_prompt(make_env(), tool_names=TOOLS,
                                                output_style=style, **kw)]


def test_built_in_styles_keep_the_coding_section_and_follow_the_environment(
        tmp_path: Path) -> None:
    styles, warnings = load_styles(tmp_path, tmp_path)
    assert warnings == []
    assert [s.name for s in styles] == ["default", "Explanatory", "Learning"]
    learning = styles[2]
    assert learning.keep_coding_instructions and learning.source == "built-in"
    names = _names(learning, claude_md="rules", language="Deutsch")
    assert names[:3] == ["intro", "system", "doing_tasks"]
    assert names[names.index("environment") + 1:][:3] == ["language", "output_style", "tools"]
    assert names[-1] == "claude_md"


def test_a_style_without_coding_instructions_and_back_to_default(tmp_path: Path) -> None:
    custom = OutputStyle("Terse", "d", "Answer in one line.", False, "project")
    plain = build_system_prompt(make_env(), tool_names=TOOLS, claude_md="rules")
    styled = with_output_style(plain, custom)
    assert "doing_tasks" not in [s.name for s in styled]
    assert styled[0].text != plain[0].text and styled[0].cacheable
    assert "Answer in one line." in render(styled)
    assert render(with_output_style(styled, DEFAULT)) == render(plain)
    assert with_output_style(styled, custom) == styled  # applying it twice changes nothing


def test_resolve_style_by_any_case_and_reports_what_is_wrong(tmp_path: Path) -> None:
    assert resolve_style(None, tmp_path, tmp_path) == (DEFAULT, [])
    assert resolve_style("explanatory", tmp_path, tmp_path)[0].name == "Explanatory"
    style, warnings = resolve_style(["x"], tmp_path, tmp_path)
    assert style is DEFAULT and "outputStyle must be the name" in warnings[0]
    folder = tmp_path / "output-styles"
    folder.mkdir()
    (folder / "empty.md").write_text("---\nname: Empty\n---\n")
    (folder / "default.md").write_text("Shadowing the default.\n")
    styles, warnings = load_styles(tmp_path / "nowhere", tmp_path)
    assert [s.name for s in styles] == ["default", "Explanatory", "Learning"]
    assert any("empty.md" in w and "no instructions" in w for w in warnings)
    assert any("default.md" in w for w in warnings)
