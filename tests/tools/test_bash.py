"""The Bash tool, foreground: real bash processes in a temporary project."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cc.tools.base import ToolContext, ToolResult
from cc.tools.bash import BashInput, BashTool
from cc.tools.shell import BackgroundTasks, ShellSession
from tests.processes import alive, wait_dead
from tests.waiting import DEADLINE

#: A timeout in ms for commands that must finish: only a hang reaches it.
NO_HANG_MS = int(DEADLINE * 1000)


@pytest.fixture(autouse=True)
def _no_limit_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("BASH_DEFAULT_TIMEOUT_MS", "BASH_MAX_TIMEOUT_MS", "BASH_MAX_OUTPUT_LENGTH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR", raising=False)


@pytest.fixture
async def ctx(tmp_path: Path) -> AsyncIterator[ToolContext]:
    root = tmp_path.resolve()
    shell = ShellSession(root)
    tasks = BackgroundTasks(shell.tasks_dir)
    yield ToolContext(cwd=root, shell=shell, tasks=tasks)
    await tasks.close()
    shell.close()


async def bash(ctx: ToolContext, command: str, **kw: object) -> ToolResult:
    return await BashTool().call(BashInput(command=command, **kw), ctx)


async def test_echo(ctx: ToolContext) -> None:
    result = await bash(ctx, "echo hello")
    assert result.content == "hello"
    assert not result.is_error
    assert result.data == {
        "stdout": "hello",
        "stderr": "",
        "interrupted": False,
        "isImage": False,
        "noOutputExpected": False,
    }
    assert result.summary == "exit 0 · 1 line"


async def test_no_output(ctx: ToolContext) -> None:
    result = await bash(ctx, "true")
    assert result.content == "(No output)"
    assert result.data["stdout"] == ""


async def test_exit_code_is_an_error(ctx: ToolContext) -> None:
    result = await bash(ctx, "echo partial; exit 3")
    assert result.is_error
    assert result.content == "Exit code 3\npartial"
    assert result.summary == "exit 3"
    assert (await bash(ctx, "exit 3")).content == "Exit code 3"


async def test_grep_without_matches_is_not_a_failure(ctx: ToolContext, tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("abc\n")
    result = await bash(ctx, "grep zzz f.txt")
    assert not result.is_error
    assert result.data["returnCodeInterpretation"] == "No matches found"
    assert (await bash(ctx, "grep zzz nope.txt")).is_error  # exit 2


async def test_stderr_is_merged_in_order(ctx: ToolContext) -> None:
    result = await bash(ctx, "echo out; echo err >&2; echo out2")
    assert result.content == "out\nerr\nout2"
    assert result.data["stderr"] == ""


async def test_environment_markers(ctx: ToolContext) -> None:
    result = await bash(ctx, 'echo "$CLAUDECODE $GIT_EDITOR $PAGER"')
    assert result.content == "1 true cat"


async def test_cd_persists(ctx: ToolContext, tmp_path: Path) -> None:
    (tmp_path / "sub dir").mkdir()
    await bash(ctx, 'cd "sub dir"')
    assert (await bash(ctx, "pwd")).content == str(tmp_path.resolve() / "sub dir")
    assert ctx.shell is not None and ctx.shell.cwd == tmp_path.resolve() / "sub dir"
    assert (await bash(ctx, "cd - >/dev/null; pwd")).content == str(tmp_path.resolve())


async def test_cd_in_a_failing_command_still_persists(ctx: ToolContext, tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    assert (await bash(ctx, "cd sub && false")).is_error
    assert (await bash(ctx, "pwd")).content == str(tmp_path.resolve() / "sub")


async def test_exports_persist_and_unset_too(ctx: ToolContext) -> None:
    await bash(ctx, "export FOO='a b'; export BAR=\"$(printf 'x\\ny')\"")
    assert (await bash(ctx, 'echo "$FOO"; echo "$BAR"')).content == "a b\nx\ny"
    await bash(ctx, "unset FOO")
    assert (await bash(ctx, 'echo "[${FOO-unset}]"')).content == "[unset]"
    assert (await bash(ctx, "NOTEXPORTED=1")).content == "(No output)"
    assert (await bash(ctx, 'echo "[$NOTEXPORTED]"')).content == "[]"


async def test_positional_parameters_are_empty(ctx: ToolContext) -> None:
    assert (await bash(ctx, 'echo "[$1][$#]"')).content == "[][0]"


async def test_cwd_falls_back_when_removed(ctx: ToolContext, tmp_path: Path) -> None:
    (tmp_path / "gone").mkdir()
    await bash(ctx, "cd gone")
    shutil.rmtree(tmp_path / "gone")
    result = await bash(ctx, "pwd")
    assert not result.is_error
    assert result.content.startswith(str(tmp_path.resolve()) + "\n")
    assert "no longer exists" in result.content
    assert "no longer exists" in result.data["stderr"]
    assert result.data["stdout"] == str(tmp_path.resolve())
    again = await bash(ctx, "pwd")
    assert again.content == str(tmp_path.resolve())


async def test_cwd_falls_back_when_the_command_removes_it(ctx: ToolContext, tmp_path: Path) -> None:
    await bash(ctx, "mkdir d && cd d && rmdir ../d")
    result = await bash(ctx, "pwd")
    assert result.content.startswith(str(tmp_path.resolve()))


async def test_maintain_project_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR", "1")
    (tmp_path / "sub").mkdir()
    ctx = ToolContext(cwd=tmp_path.resolve(), shell=ShellSession(tmp_path.resolve()))
    try:
        await bash(ctx, "cd sub")
        assert (await bash(ctx, "pwd")).content == str(tmp_path.resolve())
    finally:
        ctx.shell_session().close()


async def test_timeout_kills_command(ctx: ToolContext) -> None:
    # 2 s for bash to print "started" even on a loaded machine; then it must be killed
    result = await bash(ctx, "echo started; sleep 30 & echo $!; wait; echo finished", timeout=2000)
    assert result.is_error
    lines = str(result.content).splitlines()
    assert lines[0] == "started"
    assert "timed out after 2000 ms" in result.content
    assert "finished" not in result.content
    assert result.data["interrupted"] is True
    assert result.data["stdout"].startswith("started\n")
    await wait_dead(int(lines[1]))


async def test_timeout_kills_grandchildren(ctx: ToolContext) -> None:
    result = await bash(ctx, "bash -c 'sleep 30 & echo $!; wait'", timeout=2000)
    assert result.is_error and "timed out" in result.content
    pid = int(result.data["stdout"].splitlines()[0])
    await wait_dead(pid)


async def test_timeout_from_environment_and_clamp(
    ctx: ToolContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BASH_DEFAULT_TIMEOUT_MS", "200")
    result = await bash(ctx, "sleep 5")
    assert "timed out after 200 ms" in str(result.content)
    monkeypatch.setenv("BASH_MAX_TIMEOUT_MS", "300")
    result = await bash(ctx, "sleep 5", timeout=900_000)
    assert "timed out after 300 ms" in str(result.content)


async def test_stdin_is_at_eof(ctx: ToolContext) -> None:
    result = await bash(ctx, 'cat; read x; echo "got:[$x] $?"', timeout=NO_HANG_MS)
    assert not result.data["interrupted"]  # a command waiting for input would time out
    assert result.content == "got:[] 1"


async def test_output_is_truncated_keeping_head_and_tail(
    ctx: ToolContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BASH_MAX_OUTPUT_LENGTH", "1000")
    result = await bash(ctx, "seq 1 5000")
    content, _, note = str(result.content).rpartition("\n")
    assert note.startswith("[The output was 23,892 characters, too long to show whole")
    assert content.startswith("1\n2\n3\n")
    assert content.endswith("4999\n5000")
    assert "characters truncated]" in content
    assert len(content) < 1100
    assert result.summary == "exit 0 · 5000 lines"


async def test_huge_output_keeps_head_and_tail(
    ctx: ToolContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BASH_MAX_OUTPUT_LENGTH", "1000")
    result = await bash(ctx, "seq 1 200000; echo; echo")
    content = str(result.content).rpartition("\n")[0]
    expected = len("\n".join(str(i) for i in range(1, 200001)))
    assert content.startswith("1\n2\n")
    assert content.endswith("199999\n200000")
    assert f"[{expected - 1000} characters truncated]" in content
    assert result.summary == "exit 0 · 200000 lines"


async def test_invalid_utf8_is_replaced(ctx: ToolContext) -> None:
    result = await bash(ctx, "printf 'a\\377b\\n'")
    assert result.content == "a\ufffdb"


async def test_progress_streams_lines(ctx: ToolContext, tmp_path: Path) -> None:
    seen: list[str] = []

    def progress(line: str) -> None:
        seen.append(line)
        (tmp_path / f"saw-{line}").touch()

    ctx.progress = progress
    # each line is printed only once the previous one has been reported: reporting at
    # the end instead would hang the command until its timeout
    command = "for i in 1 2 3; do echo $i; until [ -f saw-$i ]; do sleep 0.01; done; done"
    result = await bash(ctx, command, timeout=NO_HANG_MS)
    assert not result.data["interrupted"]
    assert result.content == "1\n2\n3"
    assert seen == ["1", "2", "3"]


async def test_cancellation_kills_the_group(ctx: ToolContext) -> None:
    pids: list[int] = []
    got_pid = asyncio.Event()

    def progress(line: str) -> None:
        pids.append(int(line))
        got_pid.set()

    ctx.progress = progress
    call = asyncio.create_task(bash(ctx, "sleep 30 & echo $!; wait"))
    await asyncio.wait_for(got_pid.wait(), DEADLINE)
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    await wait_dead(pids[0])


async def test_abort_event_stops_the_command(ctx: ToolContext) -> None:
    ctx.progress = lambda line: ctx.abort.set()  # abort once the command is under way
    result = await asyncio.wait_for(bash(ctx, "echo x; sleep 30; echo finished"), DEADLINE)
    assert result.is_error and result.data["interrupted"] is True
    assert "aborted" in str(result.content)
    assert str(result.content).startswith("x\n") and "finished" not in str(result.content)


async def test_leftover_child_holding_the_pipe_does_not_block(ctx: ToolContext) -> None:
    result = await bash(ctx, "sleep 30 & echo $!")
    pid = int(str(result.content))
    assert alive(pid)  # the result came while the child still held the pipe
    os.kill(pid, 15)
    await wait_dead(pid)


async def test_empty_command_is_refused(ctx: ToolContext) -> None:
    result = await bash(ctx, "   ")
    assert result.is_error


async def test_context_copies_share_the_shell(tmp_path: Path) -> None:
    import dataclasses

    base = ToolContext(cwd=tmp_path.resolve(), shell=ShellSession(tmp_path.resolve()))
    (tmp_path / "sub").mkdir()
    try:
        await bash(dataclasses.replace(base), "cd sub")
        result = await bash(dataclasses.replace(base), "pwd")
        assert result.content == str(tmp_path.resolve() / "sub")
    finally:
        base.shell_session().close()


async def test_a_context_without_a_shell_has_no_bash(tmp_path: Path) -> None:
    from cc.core.pipeline.executor import ToolExecutor
    from cc.models.content_blocks import ToolUseBlock
    from cc.permissions.gate import ModeGate
    from cc.tools.registry import ToolRegistry

    executor = ToolExecutor(ToolRegistry([BashTool()]), ToolContext(cwd=tmp_path),
                            permissions=ModeGate("bypassPermissions"))
    result = await executor.run(ToolUseBlock(id="t1", name="Bash", input={"command": "pwd"}))
    assert result.is_error and "no shell session" in str(result.content)


def test_schema_matches_reference() -> None:
    schema = BashTool().input_schema()
    assert schema["required"] == ["command"]
    assert schema["additionalProperties"] is False
    types = {k: v["type"] for k, v in schema["properties"].items()}
    assert types == {
        "command": "string",
        "timeout": "number",
        "description": "string",
        "run_in_background": "boolean",
        "dangerouslyDisableSandbox": "boolean",
    }
    assert not BashTool().is_read_only(BashInput(command="ls"))
    assert not BashTool().is_concurrency_safe(BashInput(command="ls"))
    assert "run_in_background" in BashTool().description()


async def test_group_alive_closes_its_directory_scan() -> None:
    import gc
    import warnings

    from cc.tools.shell.runner import group_alive

    proc = await asyncio.create_subprocess_exec("sleep", "30", start_new_session=True)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert group_alive(proc.pid)  # returns from inside the scan
            gc.collect()
        assert not [w for w in caught if issubclass(w.category, ResourceWarning)]
    finally:
        proc.kill()
        await proc.wait()
    assert not group_alive(proc.pid)


def preview_and_path(result: ToolResult) -> tuple[str, Path]:
    """The head-and-tail preview and the saved file a clipped result names."""
    preview, _, note = str(result.content).rpartition("\n")
    match = re.search(r"The full output is saved at (/\S+) - use the Read tool", note)
    assert match, note
    assert result.data["persistedOutputPath"] == match[1]
    return preview, Path(match[1])


BIG = "python3 -c \"import sys; sys.stdout.write(''.join(f'line {i:06d} é\\n' for i in range(15000)))\""


async def test_a_large_output_is_saved_in_full(ctx: ToolContext) -> None:
    result = await bash(ctx, BIG)  # ~200k characters, some of them two bytes
    expected = "".join(f"line {i:06d} é\n" for i in range(15000))
    assert not result.is_error
    preview, path = preview_and_path(result)
    assert preview.startswith("line 000000 é\nline 000001 é\n")
    assert preview.endswith("line 014999 é")
    assert "characters truncated]" in preview and len(preview) < 31_000
    assert f"The output was {len(expected) - 1:,} characters" in str(result.content)
    assert path.read_bytes() == expected.encode()  # byte for byte, trailing newline too
    assert path.stat().st_mode & 0o777 == 0o600
    assert ctx.shell is not None and path.parent == ctx.shell.state_dir / "tool-results"

    from cc.tools.read import ReadInput, ReadTool

    read = await ReadTool().call(ReadInput(file_path=str(path), offset=14000, limit=2), ctx)
    assert not read.is_error
    assert "line 013999 é" in str(read.content) and "line 014000 é" in str(read.content)


async def test_the_file_goes_to_the_sessions_tool_results(ctx: ToolContext, tmp_path: Path) -> None:
    results = tmp_path / "config" / "projects" / "-p" / "sess-1" / "tool-results"
    ctx.results_dir = lambda: results
    ctx.tool_use_id = "toolu_01abc"
    result = await bash(ctx, "seq 1 20000")
    _, path = preview_and_path(result)
    assert path == results / "toolu_01abc.txt"
    assert path.read_text() == "".join(f"{i}\n" for i in range(1, 20001))
    again = await bash(ctx, "seq 1 20000")  # the same id again: a file of its own
    assert preview_and_path(again)[1] not in (path, None)


async def test_small_outputs_write_no_file(ctx: ToolContext, tmp_path: Path) -> None:
    results = tmp_path / "results"
    ctx.results_dir = lambda: results
    assert (await bash(ctx, "seq 1 1000")).data.get("persistedOutputPath") is None
    assert not results.exists()
    # over the cap only by trailing newlines, which the result drops anyway
    result = await bash(ctx, "seq 1 1000; printf '\\n%.0s' $(seq 1 40000)")
    assert result.content == "\n".join(str(i) for i in range(1, 1001))
    assert "persistedOutputPath" not in result.data
    assert list(results.iterdir()) == []


async def test_a_timed_out_command_still_saves_what_it_printed(ctx: ToolContext) -> None:
    result = await bash(ctx, "seq 1 20000; sleep 30", timeout=2000)
    assert result.is_error and "timed out" in str(result.content)
    path = Path(result.data["persistedOutputPath"])
    assert path.read_text() == "".join(f"{i}\n" for i in range(1, 20001))
