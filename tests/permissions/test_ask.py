"""Asking the user: once, always (saved to .claude/settings.local.json), no (+ feedback)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from cc.permissions.ask import AskAnswer
from cc.tools.base import Tool, ToolInput
from tests.permissions.conftest import TOOLS, Proj, answering, check, make_checker


def local_settings(proj: Proj) -> Path:
    return proj.root / ".claude" / "settings.local.json"


async def test_allow_once_runs_and_asks_again_next_time(proj: Proj) -> None:
    ask, seen = answering(AskAnswer("allow"))
    checker = make_checker(proj, asker=ask)
    assert (await check(checker, "Bash", command="npm test")).behavior == "allow"
    assert (await check(checker, "Bash", command="npm test")).behavior == "allow"
    assert len(seen) == 2
    request = seen[0]
    assert request.tool_name == "Bash" and request.tool_use_id == "toolu_1"
    assert request.description == "Bash command: npm test"
    assert request.suggestions == ["Bash(npm test *)"]
    assert request.tool_input == {"command": "npm test"}
    assert not local_settings(proj).exists()


async def test_always_saves_the_rule_and_stops_asking(proj: Proj) -> None:
    ask, seen = answering(AskAnswer("allow", always=True))
    checker = make_checker(proj, asker=ask)
    assert (await check(checker, "Bash", command="npm test -- --watch")).behavior == "allow"
    assert (await check(checker, "Bash", command="npm test")).behavior == "allow"
    assert len(seen) == 1
    saved = json.loads(local_settings(proj).read_text())
    assert saved == {"permissions": {"allow": ["Bash(npm test *)"]}}
    assert "Bash(npm test *)" in checker.rules_summary()["allow"]


async def test_always_keeps_other_keys(proj: Proj) -> None:
    local_settings(proj).parent.mkdir()
    local_settings(proj).write_text(json.dumps(
        {"model": "opus", "permissions": {"allow": ["Read"], "deny": ["Bash(rm *)"]}}))
    ask, _ = answering(AskAnswer("allow", always=True))
    checker = make_checker(proj, asker=ask)
    assert (await check(checker, "Bash", command="cargo build --release")).behavior == "allow"
    saved = json.loads(local_settings(proj).read_text())
    assert saved == {"model": "opus", "permissions": {
        "allow": ["Read", "Bash(cargo build *)"], "deny": ["Bash(rm *)"]}}


async def test_always_never_clobbers_a_broken_file(proj: Proj) -> None:
    local_settings(proj).parent.mkdir()
    local_settings(proj).write_text('{"permissions": {"allow": [}')
    ask, seen = answering(AskAnswer("allow", always=True))
    checker = make_checker(proj, asker=ask)
    assert (await check(checker, "Bash", command="make all")).behavior == "allow"
    assert local_settings(proj).read_text() == '{"permissions": {"allow": [}'
    assert any("Did not save" in w for w in checker.context.warnings)
    assert (await check(checker, "Bash", command="make test")).behavior == "allow"
    assert len(seen) == 1  # kept in memory


async def test_always_on_a_compound_saves_one_rule_per_part(proj: Proj) -> None:
    ask, seen = answering(AskAnswer("allow", always=True))
    checker = make_checker(proj, asker=ask)
    await check(checker, "Bash", command="npm run build && docker compose up")
    assert seen[0].suggestions == ["Bash(npm run *)", "Bash(docker compose *)"]
    assert (await check(checker, "Bash", command="docker compose down")).behavior == "allow"
    assert len(seen) == 1


async def test_deny_carries_the_users_feedback(proj: Proj) -> None:
    ask, seen = answering(AskAnswer("deny", feedback="use the Makefile target instead"))
    checker = make_checker(proj, asker=ask)
    decision = await check(checker, "Bash", command="rm -rf build")
    assert decision.behavior == "deny"
    assert decision.message == ("The user denied permission to run `rm -rf build`. The call "
                                "did not run. The user said: use the Makefile target instead")
    assert len(seen) == 1


async def test_edit_request(proj: Proj) -> None:
    ask, seen = answering(AskAnswer("deny"))
    checker = make_checker(proj, asker=ask)
    target = proj.root / "src" / "main.py"
    decision = await check(checker, "Edit", file_path=str(target))
    assert decision.behavior == "deny" and "feedback" not in (decision.message or "")
    assert seen[0].description == f"Edit file: {target}"
    assert seen[0].suggestions == ["Edit(./src/**)"]


async def test_protected_files_ask_but_offer_no_rule(proj: Proj) -> None:
    ask, seen = answering(AskAnswer("allow", always=True))
    checker = make_checker(proj, "acceptEdits", asker=ask)
    target = proj.root / ".claude" / "settings.json"
    assert (await check(checker, "Write", file_path=str(target))).behavior == "allow"
    assert (await check(checker, "Write", file_path=str(target))).behavior == "allow"
    assert len(seen) == 2 and seen[0].suggestions == []
    assert "protected" in (seen[0].reason or "")


async def test_dont_ask_denies_without_asking(proj: Proj) -> None:
    ask, seen = answering(AskAnswer("allow"))
    checker = make_checker(proj, "dontAsk", allow=("Bash(npm test *)",), asker=ask)
    assert (await check(checker, "Bash", command="npm test")).behavior == "allow"
    decision = await check(checker, "Bash", command="npm publish")
    assert decision.behavior == "deny" and "dontAsk" in (decision.message or "")
    assert seen == []


async def test_non_interactive_denies_at_once(proj: Proj) -> None:
    checker = make_checker(proj)
    decision = await check(checker, "Bash", command="npm publish")
    assert decision.behavior == "deny"
    assert decision.message is not None
    assert decision.message.startswith("Permission to run `npm publish` was denied: it needs "
                                       "approval")
    assert "no one can approve it in this non-interactive session" in decision.message


async def test_hook_decisions(proj: Proj) -> None:
    ask, seen = answering(AskAnswer("deny"))
    checker = make_checker(proj, deny=("Bash(rm *)",), ask=("Bash(git push *)",), asker=ask)
    tool, inp = _bash("npm publish")
    assert (await checker.check(tool, inp, "t", hook_decision="allow")).behavior == "allow"
    assert seen == []
    rm_tool, rm_inp = _bash("rm -rf x")
    assert (await checker.check(rm_tool, rm_inp, "t", hook_decision="allow")).behavior == "deny"
    push_tool, push_inp = _bash("git push origin")
    assert (await checker.check(push_tool, push_inp, "t", hook_decision="allow")).behavior \
        == "deny"
    assert len(seen) == 1  # the ask rule still asked
    ls_tool, ls_inp = _bash("ls")
    assert (await checker.check(ls_tool, ls_inp, "t", hook_decision="ask")).behavior == "deny"
    assert len(seen) == 2 and seen[1].reason == "a PreToolUse hook asked for confirmation"


async def test_concurrent_identical_calls_ask_once_after_always(proj: Proj) -> None:
    ask, seen = answering(AskAnswer("allow", always=True))
    checker = make_checker(proj, asker=ask)
    results = await asyncio.gather(*(check(checker, "Bash", command="pytest -q")
                                     for _ in range(3)))
    assert [d.behavior for d in results] == ["allow"] * 3
    assert len(seen) == 1


def test_add_rules_in_memory_and_persisted(proj: Proj) -> None:
    checker = make_checker(proj)
    assert checker.add_rules("deny", ["Bash(curl *)"], persist=False) == []
    assert not local_settings(proj).exists()
    warnings = checker.add_rules("allow", ["Read(~/docs/**)", "Bash(oops"], persist=True)
    assert len(warnings) == 1 and "Bash(oops" in warnings[0]
    assert json.loads(local_settings(proj).read_text()) == {
        "permissions": {"allow": ["Read(~/docs/**)"]}}
    assert checker.rules_summary()["deny"] == ["Bash(curl *)"]


def _bash(command: str) -> tuple[Tool, ToolInput]:
    tool = TOOLS["Bash"]
    return tool, tool.input_model.model_validate({"command": command})
