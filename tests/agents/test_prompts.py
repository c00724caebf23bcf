"""The built-in agents' prompts and descriptions (cc/prompts/agents/), pinned by a golden file."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from cc.agents.definitions import builtin_agents
from tests.golden import assert_golden

GOLDEN = Path(__file__).parent / "golden" / "agent_prompts.txt"


def test_every_prompt_file_is_used() -> None:
    files = sorted(p.name for p in resources.files("cc.prompts").joinpath("agents").iterdir()
                   if p.name.endswith(".md"))
    assert files == sorted([*(f"{d.agent_type}.md" for d in builtin_agents()), "custom_note.md",
                            "named_note.md"])


def test_golden_agent_prompts() -> None:
    folder = resources.files("cc.prompts").joinpath("agents")
    rendered = "".join(f"## {d.agent_type}: {d.description}\n" for d in builtin_agents())
    rendered += "".join(f"\n## {p.name}\n{p.read_text(encoding='utf-8')}"
                        for p in sorted(folder.iterdir(), key=lambda p: p.name)
                        if p.name.endswith(".md"))
    assert_golden(GOLDEN, rendered, "agent prompts")
