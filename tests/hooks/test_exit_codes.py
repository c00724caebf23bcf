"""Exit codes, failures, timeouts, parallel runs: real processes, real scripts."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from cc.tools.base import ToolResult
from tests.hooks.conftest import HookProject, command, on
from tests.processes import alive, wait_dead
from tests.waiting import wait_for_async


async def test_exit_0_stdout_is_context_for_user_prompt_submit(hp: HookProject) -> None:
    hp.settings("project", {"UserPromptSubmit": on(hp.sh("ctx", "echo 'Current branch: main'\n"))})
    out = await hp.runner().user_prompt_submit("hi")
    assert out.additional_context == "Current branch: main"
    assert not out.blocked and out.user_messages == []


async def test_exit_0_stdout_is_context_for_session_start(hp: HookProject) -> None:
    script = hp.py("ctx", "print('Open issues: 3')\n")
    hp.settings("project", {"SessionStart": on(script, hp.sh("more", "echo second\n"))})
    out = await hp.runner().session_start("startup")
    assert out.additional_context == "Open issues: 3\n\nsecond"


async def test_exit_0_stdout_is_not_context_for_other_events(hp: HookProject) -> None:
    hp.settings("project", {"Stop": on(hp.sh("talk", "echo just chatting\n"))})
    out = await hp.runner().stop(False)
    assert out.additional_context is None and out.user_messages == []
    assert out.results[0].stdout == "just chatting\n"
    assert out.results[0].exit_code == 0


async def test_exit_2_blocks_pre_tool_use_with_stderr(hp: HookProject) -> None:
    script = hp.sh("deny", "echo 'rm is not allowed here' >&2\nexit 2\n")
    hp.settings("project", {"PreToolUse": on(script, matcher="Bash")})
    runner = hp.runner()
    pre = await runner.pre_tool_use("Bash", {"command": "rm -rf /"}, "t")
    assert (pre.decision, pre.reason) == ("block", "rm is not allowed here")
    assert runner.drain_user_messages() == []


async def test_exit_2_on_post_tool_use_goes_to_the_model(hp: HookProject) -> None:
    script = hp.py("lint", "sys.stderr.write('lint: missing semicolon\\n'); sys.exit(2)\n")
    hp.settings("project", {"PostToolUse": on(script, matcher="Edit|Write")})
    extra = await hp.runner().post_tool_use(
        "Write", {"file_path": "/a.js"}, "t", ToolResult("ok", data={"type": "create"})
    )
    assert extra == "PostToolUse:Write hook blocking error: lint: missing semicolon"


async def test_exit_2_on_stop_keeps_the_turn_going(hp: HookProject) -> None:
    hp.settings("project", {"Stop": on(hp.sh("more", "echo 'Run the tests first.' >&2\nexit 2\n"))})
    out = await hp.runner().stop(False)
    assert out.blocked and out.reason == "Run the tests first."
    assert out.user_messages == []


async def test_exit_2_on_subagent_stop_and_pre_compact_blocks(hp: HookProject) -> None:
    block = hp.sh("block", "echo nope >&2\nexit 2\n")
    hp.settings("project", {"SubagentStop": on(block), "PreCompact": on(block)})
    runner = hp.runner()
    assert (await runner.subagent_stop(False)).blocked
    assert (await runner.pre_compact("auto")).blocked


async def test_exit_2_on_user_prompt_submit_is_for_the_user(hp: HookProject) -> None:
    script = hp.sh("secret", "echo 'Prompt contains a secret' >&2\nexit 2\n")
    hp.settings("project", {"UserPromptSubmit": on(script)})
    out = await hp.runner().user_prompt_submit("my key is sk-123")
    assert out.blocked and out.reason == "Prompt contains a secret"
    assert out.user_messages == [
        f"UserPromptSubmit operation blocked by hook:\n[{script}]: Prompt contains a secret"
    ]


@pytest.mark.parametrize("event", ["Notification", "SessionStart", "SessionEnd"])
async def test_exit_2_where_nothing_can_be_blocked_goes_to_the_user(
    hp: HookProject, event: str
) -> None:
    script = hp.sh("warn", "echo careful >&2\nexit 2\n")
    hp.settings("project", {event: on(script)})
    out = await hp.runner().run(event, {})
    assert not out.blocked
    assert out.user_messages == [f"{event} hook error: [{script}]: careful"]


async def test_exit_2_without_stderr(hp: HookProject) -> None:
    hp.settings("project", {"Stop": on(hp.sh("quiet", "exit 2\n"))})
    out = await hp.runner().stop(False)
    assert out.blocked and out.reason == "No stderr output"


async def test_exit_1_is_a_message_and_never_blocks(hp: HookProject) -> None:
    script = hp.sh("fail", "echo 'first line' >&2\necho 'second line' >&2\nexit 1\n")
    hp.settings("project", {"PreToolUse": on(script)})
    runner = hp.runner()
    pre = await runner.pre_tool_use("Bash", {"command": "ls"}, "t")
    assert pre.decision is None and pre.reason is None
    assert runner.drain_user_messages() == [
        f"PreToolUse:Bash hook error: [{script}] failed with non-blocking status code 1: first line"
    ]
    assert runner.drain_user_messages() == []


async def test_crashing_python_hook_is_reported(hp: HookProject) -> None:
    script = hp.py("crash", "raise RuntimeError('hook exploded')\n")
    hp.settings("project", {"Stop": on(script)})
    out = await hp.runner().stop(False)
    assert not out.blocked
    (message,) = out.user_messages
    assert message.startswith(
        f"Stop hook error: [{script}] failed with non-blocking status code 1: "
    )
    assert "RuntimeError: hook exploded" in out.results[0].stderr


async def test_missing_command_is_reported(hp: HookProject) -> None:
    hp.settings("project", {"PreToolUse": on("no-such-command-xyz --flag")})
    runner = hp.runner()
    pre = await runner.pre_tool_use("Bash", {"command": "ls"}, "t")
    assert pre.decision is None
    (message,) = runner.drain_user_messages()
    assert "status code 127" in message and "not found" in message


async def test_spawn_failure_is_reported(hp: HookProject) -> None:
    exec_form = {"type": "command", "command": str(hp.root / "missing-binary"), "args": []}
    hp.settings("project", {"SessionStart": on(exec_form)})
    out = await hp.runner().session_start("startup")
    (message,) = out.user_messages
    assert (
        message.startswith("SessionStart:startup hook error: [")
        and "could not be started" in message
    )


async def test_hanging_hook_is_killed_with_its_group_and_reported(hp: HookProject) -> None:
    script = hp.sh("hang", 'sleep 30 &\necho $! > "$CLAUDE_PROJECT_DIR/child.pid"\nsleep 30\n')
    # 2 s: time enough for bash to start and write the pid even on a loaded machine
    hp.settings(
        "project",
        {"PreToolUse": on(command(script, timeout=2), hp.sh("ok", "exit 0\n"))},
    )
    runner = hp.runner()
    pre = await runner.pre_tool_use("Bash", {"command": "ls"}, "t")
    assert pre.decision is None
    assert runner.drain_user_messages() == [
        f"PreToolUse:Bash hook error: [{script}] timed out after 2 s and was stopped"
    ]
    child = int((hp.root / "child.pid").read_text())
    assert not alive(child)


async def test_hooks_of_one_event_run_in_parallel(hp: HookProject) -> None:
    # each hook waits until the other one has started: run one after the other, the
    # first would wait until its timeout
    a = hp.sh("a", 'touch "$CLAUDE_PROJECT_DIR/a.started"\n'
               'until [ -f "$CLAUDE_PROJECT_DIR/b.started" ]; do sleep 0.01; done\necho a-done\n')
    b = hp.py("b", "import pathlib, time\n"
              "root = pathlib.Path(os.environ['CLAUDE_PROJECT_DIR'])\n"
              "(root / 'b.started').touch()\n"
              "while not (root / 'a.started').exists(): time.sleep(0.01)\n"
              "print('b-done')\n")
    hp.settings("project", {"UserPromptSubmit": on(command(a, timeout=30), command(b, timeout=30))})
    out = await hp.runner().user_prompt_submit("go")
    assert out.additional_context == "a-done\n\nb-done"


async def test_same_command_in_two_files_runs_once(hp: HookProject) -> None:
    script = hp.sh("count", 'echo run >> "$CLAUDE_PROJECT_DIR/runs.txt"\n')
    hp.settings("user", {"PostToolUse": on(script, matcher="Write")})
    hp.settings("project", {"PostToolUse": on(script, matcher="*")})
    hp.settings("local", {"PostToolUse": on(script)})
    await hp.runner().post_tool_use("Write", {}, "t", ToolResult("ok"))
    assert (hp.root / "runs.txt").read_text() == "run\n"


async def test_session_end_hooks_share_a_short_budget(hp: HookProject) -> None:
    script = hp.sh("slow", "sleep 10\n")
    hp.settings("project", {"SessionEnd": on(script)})
    out = await hp.runner().session_end("prompt_input_exit")
    assert out.user_messages == [
        f"SessionEnd:prompt_input_exit hook error: [{script}] timed out after 1.5 s and was stopped"
    ]


async def test_session_end_budget_from_the_environment(hp: HookProject) -> None:
    hp.settings("project", {"SessionEnd": on(command(hp.sh("slow", "sleep 10\n"), timeout=30))})
    runner = hp.runner(
        env={"CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS": "200", "PATH": "/usr/bin:/bin"}
    )
    out = await runner.session_end("other")
    assert out.results[0].timed_out and out.results[0].timeout == 0.2


async def test_cancelling_the_event_kills_its_hooks(hp: HookProject) -> None:
    script = hp.sh("hang", 'echo $$ > "$CLAUDE_PROJECT_DIR/hook.pid"\nsleep 30\n')
    hp.settings("project", {"Stop": on(script)})
    task = asyncio.create_task(hp.runner().stop(False))
    pid_file = hp.root / "hook.pid"
    await wait_for_async(lambda: pid_file.exists() and pid_file.read_text().strip())
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not alive(int(pid_file.read_text()))


async def test_a_hook_that_ignores_stdin_with_a_large_payload(hp: HookProject) -> None:
    hp.settings("project", {"PostToolUse": on(hp.sh("ignore", "exit 0\n"))})
    big = "x" * 2_000_000
    extra = await hp.runner().post_tool_use("Read", {}, "t", ToolResult(big))
    assert extra is None


async def test_a_background_child_holding_the_pipe_does_not_stall(hp: HookProject) -> None:
    script = hp.sh("bg", 'sleep 30 &\necho $! > "$CLAUDE_PROJECT_DIR/bg.pid"\necho started\n')
    hp.settings("project", {"Stop": on(script)})
    out = await hp.runner().stop(False)
    assert out.results[0].stdout == "started\n"
    pid = int((hp.root / "bg.pid").read_text())
    assert alive(pid)  # the hook's result came while the child still held its pipes
    os.kill(pid, signal.SIGKILL)
    await wait_dead(pid)
