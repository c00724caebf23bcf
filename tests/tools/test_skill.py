"""The Skill tool in a real session: its result, and its allowed-tools held for the turn
of the agent that started it and gone after."""

from __future__ import annotations

from pathlib import Path

import pytest

from cc.app.factory import AgentSpec
from cc.app.factory import fork as fork_built
from cc.core.credentials import Credentials
from cc.core.events import ToolDone
from cc.prompts.builder import PromptSection
from tests.fakeapi import FakeAPI, Reply, text, tool_use
from tests.sessions import make_session

SKILL = "---\ndescription: Makes files\nallowed-tools: Bash(touch *)\n---\nMake $0.\n"


def allowed(rules: object) -> list[str]:
    return [r.text for r in getattr(rules, "allow")]


async def test_a_skills_tools_are_allowed_for_its_turn_only(
    tmp_path: Path, fake_api: FakeAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CC_DISABLE_MEMORY_EXTRACTION", "1")  # no requests of its own
    (tmp_path / ".claude" / "skills" / "maker").mkdir(parents=True)
    (tmp_path / ".claude" / "skills" / "maker" / "SKILL.md").write_text(SKILL)
    (tmp_path / "config").mkdir()
    session = make_session(tmp_path, tmp_path / "config",
                           credentials=Credentials(api_key="k", base_url=fake_api.base_url))
    await session.open()
    engine = session.engine
    assert session.permissions is not None
    rules = session.permissions.context.rules
    other = await fork_built(session, engine, AgentSpec(model="claude-test-1", system=[
        PromptSection("intro", "A helper.", cacheable=True)]))
    fake_api.script(
        Reply([tool_use("Skill", {"skill": "maker", "args": "a.txt"})]),
        Reply([tool_use("Bash", {"command": "touch a.txt"})]),
        Reply([text("made")]),
        Reply([tool_use("Bash", {"command": "touch b.txt"})]),  # the next turn
        Reply([text("refused")]),
    )
    granted_during: list[str] = []
    async for event in engine.submit("make a.txt"):
        if isinstance(event, ToolDone) and not granted_during:
            granted_during = allowed(rules)
    assert "Bash(touch *)" in granted_during
    assert "Bash(touch *)" not in allowed(rules)  # gone once the turn ended
    assert "Bash(touch *)" not in allowed(other.checker.context.rules)
    assert (tmp_path / "a.txt").exists()
    data = next(getattr(m, "tool_use_result", None) for m in engine.messages
                if getattr(m, "tool_use_result", None) is not None)  # the Skill call's
    assert data == {"success": True, "commandName": "maker", "allowedTools": ["Bash(touch *)"]}
    async for _ in engine.submit("and b.txt"):
        pass
    assert not (tmp_path / "b.txt").exists()
    assert [d.tool_name for d in engine.permission_denials] == ["Bash"]
    await other.engine.aclose()
    await session.close()
    fake_api.assert_clean()
