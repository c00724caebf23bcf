"""PermissionRequest hooks' answers, read as Claude Code's decision objects."""

from __future__ import annotations

import json

from cc.hooks.permission_request import ruling_of
from cc.permissions.ask import PermissionRequest
from cc.permissions.updates import allow_suggestion as suggestion
from tests.hooks.conftest import HookProject, on


def _answer(hp: HookProject, decision: dict[str, object]) -> str:
    out = {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}}
    return hp.sh("answer", f"cat > /dev/null\necho '{json.dumps(out)}'\n")


async def test_a_deny_with_interrupt_also_ends_the_turn(hp: HookProject) -> None:
    hp.settings("project", {"PermissionRequest": on(_answer(
        hp, {"behavior": "deny", "message": "not now", "interrupt": True}), matcher="Write")})
    runner = hp.runner()
    ruling = await runner.permission_request(
        PermissionRequest("Write", {"file_path": "a.txt", "content": "x"}, "t1", "Write a.txt"))
    assert ruling is not None and (ruling.behavior, ruling.message) == ("deny", "not now")
    stop = runner.take_stop()
    assert stop is not None and stop.reason == "not now"


async def test_no_decision_leaves_it_to_the_usual_ask(hp: HookProject) -> None:
    hp.settings("project", {"PermissionRequest": on(hp.dump_stdin(), matcher="Write")})
    runner = hp.runner()
    request = PermissionRequest("Write", {"file_path": "a.txt"}, "t1", "Write a.txt",
                                ["Write(/p/**)"])
    assert await runner.permission_request(request) is None
    got = hp.dumped()
    assert got["tool_input"] == {"file_path": str(hp.root / "a.txt")}
    assert got["permission_suggestions"] == [suggestion("Write(/p/**)")]
    assert runner.take_stop() is None


def test_an_allow_carries_input_rules_and_mode() -> None:
    ruling = ruling_of({"behavior": "allow", "updatedInput": {"command": "ls -a"},
                        "updatedPermissions": [
                            {"type": "addRules", "rules": [{"toolName": "Bash",
                                                            "ruleContent": "ls *"}],
                             "behavior": "allow", "destination": "localSettings"},
                            {"type": "addRules", "rules": [{"toolName": "Read"}],
                             "behavior": "deny", "destination": "session"},
                            {"type": "setMode", "mode": "acceptEdits",
                             "destination": "session"},
                            {"type": "addDirectories", "directories": ["/x"]}, "junk"]})
    assert ruling is not None and ruling.behavior == "allow"
    assert ruling.updated_input == {"command": "ls -a"}
    assert ruling.rules == (("allow", "Bash(ls *)", True), ("deny", "Read", False))
    assert ruling.mode == "acceptEdits"
    assert ruling_of(None) is None
    assert suggestion("Bash") == {"type": "addRules", "rules": [{"toolName": "Bash"}],
                                  "behavior": "allow", "destination": "localSettings"}
