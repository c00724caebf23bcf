"""Settings keys that change the request: `python -m cc -p` against the fake API, the
system prompt read from the request body the fake received."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import Project
from tests.fakeapi import Reply, text, tool_use

PR_LINE = "🤖 Generated with [Claude Code](https://claude.com/claude-code)"
CO_AUTHOR = "Co-Authored-By: Claude <noreply@anthropic.com>"


def _settings(project: Project, data: dict[str, Any], name: str = "settings.json") -> None:
    folder = project.root / ".claude"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(json.dumps(data), encoding="utf-8")


def _write(path: Path, body: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body, encoding="utf-8")


def _system(body: dict[str, Any]) -> str:
    return "\n\n".join(block["text"] for block in body["system"])


def _ask(project: Project) -> tuple[str, str]:
    """One prompt; (the system prompt sent, stderr)."""
    project.api.script(Reply([text("ok")]))
    run = project.run("-p", "hi")
    assert run.returncode == 0, run.stderr
    return _system(project.api.bodies[-1]), run.stderr


def test_agents_md_stands_in_for_claude_md_and_excludes_apply(project: Project) -> None:
    _write(project.root / "AGENTS.md", "AGENTS-MARKER\n")
    system, _ = _ask(project)
    assert f"Contents of {project.root / 'AGENTS.md'} (project instructions" in system
    assert "AGENTS-MARKER" in system
    _write(project.root / "CLAUDE.md", "CLAUDE-MARKER\n")
    system, _ = _ask(project)
    assert "CLAUDE-MARKER" in system and "AGENTS-MARKER" not in system
    _settings(project, {"claudeMdExcludes": ["**/project/CLAUDE.md"]})
    system, _ = _ask(project)
    assert "CLAUDE-MARKER" not in system and "AGENTS-MARKER" in system


def test_attribution_sets_or_drops_the_trailers(project: Project) -> None:
    system, _ = _ask(project)
    assert CO_AUTHOR in system and PR_LINE in system
    _settings(project, {"attribution": {"commit": "Made-with: cc", "pr": ""}})
    system, _ = _ask(project)
    assert "Made-with: cc" in system and CO_AUTHOR not in system
    assert "description of a pull request" not in system
    _settings(project, {"includeCoAuthoredBy": False})
    system, _ = _ask(project)
    assert CO_AUTHOR not in system and PR_LINE not in system
    # attribution wins over the older key for what it sets.
    _settings(project, {"includeCoAuthoredBy": False, "attribution": {"pr": "PR-LINE"}})
    system, _ = _ask(project)
    assert "PR-LINE" in system and CO_AUTHOR not in system


def test_language_and_a_built_in_style_stay_the_same_across_turns(project: Project) -> None:
    _settings(project, {"language": "français", "outputStyle": "Explanatory"})
    _write(project.root / "a.txt", "x\n")
    project.api.script(Reply([tool_use("Read", {"file_path": str(project.root / "a.txt")})]),
                       Reply([text("ok")]))
    run = project.run("-p", "hi")
    assert run.returncode == 0, run.stderr
    first, second = (_system(b) for b in project.api.bodies)
    assert first == second  # byte-stable: the prompt cache keeps working
    assert "# Language" in first and "replies in français" in first
    assert "# Output style: Explanatory" in first
    assert 'following the output style under "Output style"' in first
    assert "# Doing tasks" in first  # the built-in styles keep the coding instructions
    # The style comes after the environment and before CLAUDE.md and the tools.
    assert first.index("<env>") < first.index("# Language") < first.index("# Output style")
    assert run.stderr == ""


def test_custom_styles_from_files(project: Project) -> None:
    styles = project.root / ".claude" / "output-styles"
    _write(styles / "terse.md", "---\nname: Terse\ndescription: d\n---\nTERSE-STYLE\n")
    _write(styles / "broken.md", "---\nname: [unclosed\n---\nBROKEN\n")
    _write(project.config / "output-styles" / "kept.md",
           "---\nkeep-coding-instructions: true\n---\nKEPT-STYLE\n")
    _settings(project, {"outputStyle": "terse"})
    system, stderr = _ask(project)
    assert "# Output style: Terse" in system and "TERSE-STYLE" in system
    assert "# Doing tasks" not in system  # keep-coding-instructions defaults to false
    assert f"Skipped output style {styles / 'broken.md'}" in stderr
    _settings(project, {"outputStyle": "kept"})
    system, _ = _ask(project)
    assert "KEPT-STYLE" in system and "# Doing tasks" in system


def test_an_unknown_style_warns_and_the_default_applies(project: Project) -> None:
    _settings(project, {"outputStyle": "nonesuch"})
    system, stderr = _ask(project)
    assert 'Output style "nonesuch" not found' in stderr
    assert "# Output style" not in system and "# Doing tasks" in system


def test_unknown_keys_and_display_only_keys_make_no_noise(project: Project) -> None:
    _settings(project, {"fooBarBaz": 1, "spinnerTipsEnabled": False, "respectGitignore": True,
                        "statusLine": {"type": "command", "command": "echo hi"}})
    _, stderr = _ask(project)
    assert stderr == ""


def test_values_of_the_wrong_type_are_reported_and_ignored(project: Project) -> None:
    _settings(project, {"language": 3, "attribution": {"commit": False}})
    system, stderr = _ask(project)
    assert "language must be the name of a language" in stderr
    assert "attribution.commit must be a string" in stderr
    assert CO_AUTHOR in system and "# Language" not in system


def _transcript(project: Project, days_old: float) -> Path:
    import os
    import time
    import uuid

    from cc.session.paths import project_dir

    path = project_dir(project.root, project.config) / f"{uuid.uuid4()}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"type":"summary"}\n')
    when = time.time() - days_old * 86400
    os.utime(path, (when, when))
    return path


def test_cleanup_period_days_sweeps_old_transcripts_at_start(project: Project) -> None:
    _settings(project, {"cleanupPeriodDays": 0})
    ten_days = _transcript(project, 10)
    forty_days = _transcript(project, 40)
    _, stderr = _ask(project)
    assert "cleanupPeriodDays must be a whole number of at least 1 (got 0); using 30" in stderr
    assert ten_days.exists() and not forty_days.exists()  # the default 30 days applied
    _settings(project, {"cleanupPeriodDays": 7})
    _, stderr = _ask(project)
    assert stderr == "" and not ten_days.exists()
