"""The pieces of `prompt` and `http` hooks: the verdict, the prompt, the headers."""

from __future__ import annotations

import pytest

from cc.hooks.config import HookCommand
from cc.hooks.http_hook import expand_header
from cc.hooks.prompt_hook import parse_verdict, render_prompt, verdict_result

HOOK = HookCommand("Check $ARGUMENTS", 30.0, "project", kind="prompt")


@pytest.mark.parametrize(("answer", "expected"), [
    ('{"ok": true, "reason": "fine"}', (True, "fine")),
    ('{"ok": false}', (False, "")),
    ('```json\n{"ok": false, "reason": "no"}\n```', (False, "no")),
    ('Here: {"ok": false, "reason": "no"} done', (False, "no")),
])
def test_verdicts(answer: str, expected: tuple[bool, str]) -> None:
    assert parse_verdict(answer) == expected


@pytest.mark.parametrize("answer", ["yes", '{"ok": "yes"}', "[1]", '{"ok": tru',
                                    '{"ok": false, "impossible": true, "reason": "?"}'])
def test_what_is_not_a_verdict_is_a_non_blocking_error(answer: str) -> None:
    assert isinstance(parse_verdict(answer), str)
    result = verdict_result(HOOK, "PreToolUse", answer)
    assert result.exit_code == 1 and result.stderr


def test_a_block_stops_the_turn_only_on_pre_tool_use_without_continue_on_block() -> None:
    blocked = verdict_result(HOOK, "PreToolUse", '{"ok": false, "reason": "no"}')
    assert (blocked.exit_code, blocked.stderr) == (2, "[Check $ARGUMENTS]: no")
    assert blocked.json == {"continue": False, "stopReason": "[Check $ARGUMENTS]: no"}
    assert verdict_result(HOOK, "Stop", '{"ok": false, "reason": "no"}').json is None
    lenient = HookCommand("Check", 30.0, "project", kind="prompt", continue_on_block=True)
    assert verdict_result(lenient, "PreToolUse", '{"ok": false}').json is None
    assert verdict_result(HOOK, "PreToolUse", None).exit_code == 1


def test_arguments_are_the_compact_input_json_or_appended() -> None:
    assert render_prompt("A $ARGUMENTS B", {"x": "é"}) == 'A {"x":"é"} B'
    assert render_prompt("Check it", {"x": 1}) == 'Check it\n\nARGUMENTS: {"x":1}'


def test_header_variables_come_only_from_the_allowed_list() -> None:
    env = {"TOKEN": "t", "SECRET": "s"}
    assert expand_header("Bearer $TOKEN/${TOKEN}", ("TOKEN",), env) == "Bearer t/t"
    assert expand_header("$SECRET-${SECRET}-$NOPE", ("TOKEN",), env) == "--"


async def test_an_http_hook_that_cannot_be_sent_is_a_non_blocking_error() -> None:
    from cc.hooks.http_hook import run_http_hook

    for hook in (HookCommand("http://127.0.0.1:9/x", 5.0, "project", kind="http",
                             headers=(("X-Name", "José"),)),
                 HookCommand("http://[broken/x", 5.0, "project", kind="http")):
        result = await run_http_hook(hook, b"{}", env={}, timeout=5.0)
        assert result.exit_code == 1 and result.stderr.startswith("HTTP request to ")
