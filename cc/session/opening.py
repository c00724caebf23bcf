"""The context a new transcript opens with, so that Claude Code can resume it.

Claude Code 2.1.332 no longer keeps the environment in its system prompt: it writes it
as `attachment` lines after a conversation's first prompt, and when it resumes a
transcript it rebuilds, from those lines' `rendered` text, a `system` message after that
prompt. A transcript without them gave it an empty system message. cc's own prompt keeps
the environment (its system prompt is not rebuilt from the transcript), so the lines are
for Claude Code only; cc's loader skips attachments, as it skips Claude Code's.

    {"type": "attachment", "attachment": {"type": "environment", "snapshot": {…}},
     "rendered": [{"content": "<system-reminder>\\n…\\n</system-reminder>"}],
     "renderedRole": "system"}
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def opening_lines(cwd: Path, model: str) -> list[dict[str, Any]]:
    """The fields of the lines to write after the first prompt (the envelope aside)."""
    from cc.prompts.builder import environment_for, environment_section

    env = environment_for(cwd, model)
    text = environment_section(env, None, None).text
    snapshot = {"workingDirectory": str(env.cwd), "isWorktree": False,
                "isGitRepo": env.is_git_repo, "additionalWorkingDirectories": [],
                "platform": env.platform, "shell": env.shell, "osVersion": env.os_version}
    return [{
        "type": "attachment",
        "attachment": {"type": "environment", "snapshot": snapshot},
        "rendered": [{"content": f"<system-reminder>\n{text}\n</system-reminder>"}],
        "renderedRole": "system",
    }]
