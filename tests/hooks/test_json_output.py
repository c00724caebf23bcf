"""JSON on stdout: decisions, context, input rewrites, messages, and how several combine."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cc.tools.base import ToolResult
from tests.hooks.conftest import HookProject, on


def emit(
    hp: HookProject, name: str, data: dict[str, Any], *, code: int = 0, stderr: str = ""
) -> str:
    """A Python hook that prints `data` as JSON and exits with `code`."""
    body = f"print({json.dumps(data)!r})\n"
    if stderr:
        body += f"sys.stderr.write({stderr!r})\n"
    return hp.py(name, body + f"sys.exit({code})\n")


def pre(decision: str, reason: str | None = None, **more: Any) -> dict[str, Any]:
    specific: dict[str, Any] = {"hookEventName": "PreToolUse", "permissionDecision": decision}
    if reason is not None:
        specific["permissionDecisionReason"] = reason
    specific.update(more)
    return {"hookSpecificOutput": specific}


async def run_pre(hp: HookProject, *hooks: str, tool: str = "Bash") -> Any:
    hp.settings("project", {"PreToolUse": on(*hooks)})
    runner = hp.runner()
    return await runner.pre_tool_use(tool, {"command": "ls"}, "t"), runner


@pytest.mark.parametrize("decision", ["allow", "deny", "ask"])
async def test_permission_decision(hp: HookProject, decision: str) -> None:
    outcome, _ = await run_pre(hp, emit(hp, "d", pre(decision, f"because {decision}")))
    assert (outcome.decision, outcome.reason) == (decision, f"because {decision}")


async def test_deny_blocks(hp: HookProject) -> None:
    hp.settings("project", {"PreToolUse": on(emit(hp, "d", pre("deny", "no")))})
    out = await hp.runner().run("PreToolUse", {"tool_name": "Bash", "tool_input": {}}, "Bash")
    assert out.blocked and out.permission_decision == "deny" and out.reason == "no"


@pytest.mark.parametrize(("legacy", "mapped"), [("approve", "allow"), ("block", "deny")])
async def test_legacy_pre_tool_use_decision(hp: HookProject, legacy: str, mapped: str) -> None:
    outcome, _ = await run_pre(hp, emit(hp, "d", {"decision": legacy, "reason": "old style"}))
    assert (outcome.decision, outcome.reason) == (mapped, "old style")


async def test_updated_input_and_context(hp: HookProject) -> None:
    data = pre(
        "allow", "rewritten", updatedInput={"command": "ls -la"}, additionalContext="cwd is /p"
    )
    outcome, _ = await run_pre(hp, emit(hp, "u", data))
    assert outcome.decision == "allow"
    assert outcome.updated_input == {"command": "ls -la"}
    assert outcome.additional_context == "cwd is /p"


async def test_deny_beats_ask_beats_allow(hp: HookProject) -> None:
    allow = emit(hp, "allow", pre("allow", "fine", updatedInput={"command": "x"}))
    ask = emit(hp, "ask", pre("ask", "check with the user"))
    deny = emit(hp, "deny", pre("deny", "forbidden"))
    outcome, _ = await run_pre(hp, allow, ask, deny)
    assert (outcome.decision, outcome.reason, outcome.updated_input) == ("deny", "forbidden", None)
    outcome, _ = await run_pre(hp, allow, ask)
    assert (outcome.decision, outcome.reason) == ("ask", "check with the user")
    assert outcome.updated_input == {"command": "x"}


async def test_updated_input_comes_from_the_last_allowing_hook(hp: HookProject) -> None:
    first = emit(hp, "first", pre("allow", updatedInput={"command": "first"}))
    second = emit(hp, "second", pre("allow", updatedInput={"command": "second"}))
    outcome, _ = await run_pre(hp, first, second)
    assert outcome.updated_input == {"command": "second"}


async def test_exit_2_blocks_even_when_json_allows(hp: HookProject) -> None:
    data = pre("allow", "looks fine", updatedInput={"command": "x"})
    data["systemMessage"] = "checked"
    script = emit(hp, "both", data, code=2, stderr="actually no")
    outcome, runner = await run_pre(hp, script)
    assert (outcome.decision, outcome.reason, outcome.updated_input) == (
        "block",
        "actually no",
        None,
    )
    assert runner.drain_user_messages() == ["checked"]


async def test_json_on_a_non_blocking_exit_code_decides_alone(hp: HookProject) -> None:
    outcome, runner = await run_pre(hp, emit(hp, "d", pre("deny", "json says no"), code=1))
    assert (outcome.decision, outcome.reason) == ("deny", "json says no")
    assert runner.drain_user_messages() == []


async def test_continue_false_stops_the_turn(hp: HookProject) -> None:
    # As in Claude Code 2.1.332, the call itself still goes ahead; the turn ends after it.
    script = emit(hp, "stop", {"continue": False, "stopReason": "Build is broken; stopping."})
    outcome, runner = await run_pre(hp, script, emit(hp, "allow", pre("allow")))
    assert outcome.stop and outcome.decision == "allow"
    assert outcome.stop_reason == "Build is broken; stopping."
    stop = runner.take_stop()
    assert stop is not None and stop.reason == "Build is broken; stopping."
    assert runner.take_stop() is None


async def test_continue_false_on_other_events(hp: HookProject) -> None:
    script = emit(hp, "stop", {"continue": False, "stopReason": "enough"})
    hp.settings("project", {"UserPromptSubmit": on(script), "PostToolUse": on(script)})
    runner = hp.runner()
    out = await runner.user_prompt_submit("hi")
    assert out.stop and out.stop_reason == "enough"
    await runner.post_tool_use("Read", {}, "t", ToolResult("ok"))
    stop = runner.take_stop()
    assert stop is not None and stop.reason == "enough"


async def test_system_message_goes_to_the_user(hp: HookProject) -> None:
    hp.settings("project", {"Stop": on(emit(hp, "m", {"systemMessage": "Formatted 3 files"}))})
    out = await hp.runner().stop(False)
    assert out.user_messages == ["Formatted 3 files"] and not out.blocked


async def test_suppress_output_is_accepted(hp: HookProject) -> None:
    hp.settings("project", {"Stop": on(emit(hp, "s", {"suppressOutput": True}))})
    out = await hp.runner().stop(False)
    assert (
        not out.blocked
        and out.user_messages == []
        and out.results[0].json == {"suppressOutput": True}
    )


@pytest.mark.parametrize("event", ["Stop", "SubagentStop", "PostToolUse", "PreCompact"])
async def test_decision_block(hp: HookProject, event: str) -> None:
    hp.settings("project", {event: on(emit(hp, "b", {"decision": "block", "reason": "not yet"}))})
    out = await hp.runner().run(event, {})
    assert out.blocked and out.reason == "not yet"


async def test_decision_approve_does_not_block(hp: HookProject) -> None:
    hp.settings("project", {"Stop": on(emit(hp, "a", {"decision": "approve", "reason": "ok"}))})
    out = await hp.runner().stop(False)
    assert not out.blocked and out.reason is None


async def test_user_prompt_submit_block_reason_is_for_the_user(hp: HookProject) -> None:
    script = emit(hp, "b", {"decision": "block", "reason": "No prompts after 6pm"})
    hp.settings("project", {"UserPromptSubmit": on(script)})
    out = await hp.runner().user_prompt_submit("hello")
    assert out.blocked
    assert out.user_messages == [
        f"UserPromptSubmit operation blocked by hook:\n[{script}]: No prompts after 6pm"
    ]


@pytest.mark.parametrize("event", ["UserPromptSubmit", "SessionStart", "PostToolUse"])
async def test_additional_context(hp: HookProject, event: str) -> None:
    first = emit(
        hp, "a", {"hookSpecificOutput": {"hookEventName": event, "additionalContext": "one"}}
    )
    second = emit(hp, "b", {"hookSpecificOutput": {"additionalContext": "two"}})
    hp.settings("project", {event: on(first, second)})
    out = await hp.runner().run(event, {})
    assert out.additional_context == "one\n\ntwo"


async def test_post_tool_use_returns_block_reason_and_context(hp: HookProject) -> None:
    script = emit(
        hp,
        "p",
        {
            "decision": "block",
            "reason": "tests fail",
            "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "see log"},
        },
    )
    hp.settings("project", {"PostToolUse": on(script)})
    extra = await hp.runner().post_tool_use("Edit", {}, "t", ToolResult("done"))
    assert extra == (
        "PostToolUse:Edit hook blocking error: tests fail\n\n"
        "PostToolUse:Edit hook additional context: see log"
    )


async def test_hook_specific_output_for_another_event_is_ignored(hp: HookProject) -> None:
    data = {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "x"}}
    script = emit(hp, "w", data)
    hp.settings("project", {"UserPromptSubmit": on(script)})
    out = await hp.runner().user_prompt_submit("hi")
    assert out.additional_context is None
    (message,) = out.user_messages
    assert "hookSpecificOutput is for 'SessionStart'" in message


async def test_invalid_json_is_reported_and_not_used(hp: HookProject) -> None:
    script = hp.sh("bad", "echo '{\"decision\": '\n")
    hp.settings("project", {"UserPromptSubmit": on(script)})
    out = await hp.runner().user_prompt_submit("hi")
    assert out.additional_context is None and not out.blocked
    (message,) = out.user_messages
    assert message.startswith(
        f"UserPromptSubmit hook error: [{script}] printed output that is not valid JSON"
    )


async def test_long_context_is_capped(hp: HookProject) -> None:
    hp.settings("project", {"SessionStart": on(hp.py("long", "print('y' * 12000)\n"))})
    out = await hp.runner().session_start("startup")
    assert out.additional_context is not None
    assert out.additional_context.startswith("y" * 10_000 + "\n… [2000 more characters")
