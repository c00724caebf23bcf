"""HookRunner in the tool pipeline and in the query loop's stop check."""

from __future__ import annotations

from pathlib import Path

from cc.core.pipeline.executor import ToolExecutor
from cc.hooks.gate import HookGate, NoHooks
from cc.hooks.runner import MAX_STOP_BLOCKS, HookRunner
from cc.models.content_blocks import ToolUseBlock
from cc.permissions.gate import ModeGate
from cc.tools.base import ToolContext, ToolResult
from cc.tools.registry import ToolRegistry
from cc.tools.write import WriteTool
from tests.hooks.conftest import HookProject, on


def executor(hp: HookProject, runner: HookRunner) -> ToolExecutor:
    gate: HookGate = runner
    return ToolExecutor(
        ToolRegistry([WriteTool()]),
        ToolContext(cwd=hp.root),
        permissions=ModeGate("bypassPermissions"),
        hooks=gate,
    )


def write(path: Path, text: str = "hello\n") -> ToolUseBlock:
    return ToolUseBlock("toolu_w", "Write", {"file_path": str(path), "content": text})


async def test_no_hooks_is_a_no_op() -> None:
    gate = NoHooks()
    assert (await gate.pre_tool_use("Bash", {}, "t")).decision is None
    assert await gate.post_tool_use("Bash", {}, "t", ToolResult("x")) is None


async def test_a_blocking_pre_tool_use_hook_stops_the_write(hp: HookProject) -> None:
    hook = hp.sh("guard", "echo 'Writing .env files is not allowed' >&2\nexit 2\n")
    hp.settings("project", {"PreToolUse": on(hook, matcher="Edit|Write")})
    target = hp.root / ".env"
    result = await executor(hp, hp.runner()).run(write(target))
    assert result.is_error and "Writing .env files is not allowed" in str(result.content)
    assert not target.exists()


async def test_post_tool_use_sees_the_result_and_adds_context(hp: HookProject) -> None:
    hook = hp.py(
        "after",
        "data = json.load(sys.stdin)\n"
        "open(os.environ['CLAUDE_PROJECT_DIR'] + '/post.json', 'w').write(json.dumps(data))\n"
        "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PostToolUse',"
        " 'additionalContext': 'formatted with prettier'}}))\n",
    )
    hp.settings("project", {"PostToolUse": on(hook, matcher="Write")})
    target = hp.root / "a.txt"
    result = await executor(hp, hp.runner()).run(write(target))
    assert not result.is_error and target.read_text() == "hello\n"
    assert isinstance(result.content, str)
    assert result.content.endswith(
        "PostToolUse:Write hook additional context: formatted with prettier"
    )
    seen = hp.dumped("post")
    assert seen["tool_input"] == {"file_path": str(target), "content": "hello\n"}
    assert seen["tool_response"] == result.data
    assert seen["tool_response"]["filePath"] == str(target)


async def test_tool_hook_messages_wait_for_the_ui(hp: HookProject) -> None:
    warn = hp.py("warn", "print(json.dumps({'systemMessage': 'Write audited'}))\n")
    hp.settings("project", {"PreToolUse": on(warn), "PostToolUse": on(hp.sh("x", "exit 3\n"))})
    runner = hp.runner()
    await executor(hp, runner).run(write(hp.root / "b.txt"))
    messages = runner.drain_user_messages()
    assert messages[0] == "Write audited"
    assert messages[1].startswith("PostToolUse:Write hook error: [")
    assert runner.drain_user_messages() == []


async def test_stop_check_returns_the_reason_to_continue(hp: HookProject) -> None:
    hp.settings("project", {"Stop": on(hp.sh("more", "echo 'Run the tests.' >&2\nexit 2\n"))})
    assert await hp.runner().stop_check(False) == "Stop hook feedback:\nRun the tests."


async def test_stop_check_lets_the_turn_end(hp: HookProject) -> None:
    hp.settings("project", {"Stop": on(hp.sh("fine", "exit 0\n"))})
    assert await hp.runner().stop_check(False) is None


async def test_stop_check_gives_up_after_repeated_blocks(hp: HookProject) -> None:
    hp.settings("project", {"Stop": on(hp.sh("nag", "echo again >&2\nexit 2\n"))})
    runner = hp.runner()
    answers = [await runner.stop_check(i > 0) for i in range(MAX_STOP_BLOCKS + 1)]
    assert all(answers[:MAX_STOP_BLOCKS]) and answers[-1] is None
    assert runner.drain_user_messages() == [
        f"Stop hooks blocked {MAX_STOP_BLOCKS} times in a row; ending the turn anyway"
    ]
    assert await runner.stop_check(False) is not None  # a new turn counts afresh


async def test_stop_check_continue_false_ends_the_turn(hp: HookProject) -> None:
    script = hp.py(
        "halt",
        "print(json.dumps({'continue': False, 'stopReason': 'quota', 'decision': 'block', 'reason': 'x'}))\n",
    )
    hp.settings("project", {"Stop": on(script)})
    runner = hp.runner()
    assert await runner.stop_check(False) is None
    stop = runner.take_stop()
    assert stop is not None and stop.reason == "quota"
