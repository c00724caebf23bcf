"""Background commands: Bash run_in_background, TaskOutput, TaskStop, BackgroundTasks."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cc.tools.base import ToolContext, ToolResult
from cc.tools.bash import BashInput, BashTool
from cc.tools.registry import ToolRegistry
from cc.tools.shell import BackgroundTasks, ShellSession
from cc.tools.task_output import TaskOutputTool
from cc.tools.task_stop import TaskStopTool
from tests.processes import alive, wait_dead
from tests.waiting import DEADLINE, wait_for_async

STARTED = re.compile(
    r"^Command running in background with ID: (\S+)\. Output is being written to: (.+)$"
)


@pytest.fixture
async def ctx(tmp_path: Path) -> AsyncIterator[ToolContext]:
    root = tmp_path.resolve()
    shell = ShellSession(root)
    tasks = BackgroundTasks(shell.tasks_dir)
    yield ToolContext(cwd=root, shell=shell, tasks=tasks)
    await tasks.close()
    shell.close()


@pytest.fixture
def registry() -> ToolRegistry:
    return ToolRegistry([BashTool(), TaskOutputTool(), TaskStopTool()])


async def call(registry: ToolRegistry, ctx: ToolContext, name: str, **raw: object) -> ToolResult:
    tool = registry.get(name)
    assert tool is not None
    return await tool.call(tool.input_model.model_validate(raw), ctx)


async def start(ctx: ToolContext, command: str, **kw: object) -> tuple[str, Path]:
    result = await BashTool().call(BashInput(command=command, run_in_background=True, **kw), ctx)
    assert not result.is_error
    match = STARTED.match(str(result.content))
    assert match, result.content
    assert result.data == {
        "stdout": "",
        "stderr": "",
        "interrupted": False,
        "isImage": False,
        "backgroundTaskId": match[1],
    }
    return match[1], Path(match[2])


async def file_text(path: Path, contains: str) -> str:
    def text() -> str | None:
        found = path.read_text() if path.exists() else ""
        return found if contains in found else None

    return await wait_for_async(text, what=f"{contains!r} appearing in {path}")


async def test_returns_at_once_and_the_file_fills(ctx: ToolContext, tmp_path: Path) -> None:
    task_id, path = await start(ctx, "echo one; until [ -f go ]; do sleep 0.01; done; echo two >&2")
    task = ctx.tasks.get(task_id) if ctx.tasks is not None else None
    assert task is not None and task.status == "running"  # returned while it runs
    assert ctx.shell is not None and path.parent == ctx.shell.tasks_dir
    assert path.name == f"{task_id}.output"
    await file_text(path, "one")
    (tmp_path / "go").touch()
    assert await file_text(path, "two") == "one\ntwo\n"


async def test_task_output_returns_only_new_output(
    ctx: ToolContext, registry: ToolRegistry, tmp_path: Path
) -> None:
    task_id, path = await start(
        ctx, "echo one; while [ ! -f go ]; do sleep 0.02; done; echo two"
    )
    await file_text(path, "one")
    first = await call(registry, ctx, "TaskOutput", task_id=task_id, block=False)
    assert not first.is_error
    assert "<retrieval_status>not_ready</retrieval_status>" in str(first.content)
    assert "<status>running</status>" in str(first.content)
    assert "<exit_code>" not in str(first.content)
    assert first.data["task"]["output"] == "one"
    (tmp_path / "go").touch()
    second = await call(registry, ctx, "TaskOutput", task_id=task_id)
    assert second.data["retrieval_status"] == "success"
    assert second.data["task"]["output"] == "two"
    assert second.data["task"]["status"] == "completed"
    assert "<exit_code>0</exit_code>" in str(second.content)
    third = await call(registry, ctx, "TaskOutput", task_id=task_id)
    assert "(No new output)" in str(third.content)


async def test_block_waits_for_the_exit_code(
    ctx: ToolContext, registry: ToolRegistry, tmp_path: Path
) -> None:
    assert ctx.tasks is not None
    task_id, _ = await start(ctx, "until [ -f go ]; do sleep 0.01; done; echo bye; exit 4")
    (tmp_path / "go").touch()
    task = ctx.tasks.get(task_id)
    assert task is not None and task.status == "running"  # so the call below must wait
    result = await call(
        registry, ctx, "TaskOutput", task_id=task_id, block=True, timeout=int(DEADLINE * 1000)
    )
    assert "<status>failed</status>" in str(result.content)
    assert "<exit_code>4</exit_code>" in str(result.content)
    assert result.data["task"]["exitCode"] == 4
    assert result.data["task"]["output"] == "bye"


async def test_block_gives_up_after_timeout(ctx: ToolContext, registry: ToolRegistry) -> None:
    task_id, _ = await start(ctx, "sleep 30")
    result = await call(registry, ctx, "TaskOutput", task_id=task_id, timeout=200)
    assert result.data["retrieval_status"] == "timeout"
    assert result.data["task"]["status"] == "running"


async def test_completion_queues_a_notification(ctx: ToolContext) -> None:
    assert ctx.tasks is not None
    task_id, path = await start(ctx, "echo hi", description="Say hi")
    assert await ctx.tasks.wait(task_id, DEADLINE)
    failing, _ = await start(ctx, "exit 7")
    assert await ctx.tasks.wait(failing, DEADLINE)
    notes = ctx.tasks.drain_notifications()
    assert notes == [
        f'Background command "Say hi" (id {task_id}) completed with exit code 0. Output: {path}',
        f'Background command "exit 7" (id {failing}) failed with exit code 7. '
        f"Output: {path.parent / (failing + '.output')}",
    ]
    assert ctx.tasks.drain_notifications() == []


async def test_no_notification_once_task_output_showed_the_end(
    ctx: ToolContext, registry: ToolRegistry
) -> None:
    assert ctx.tasks is not None
    task_id, _ = await start(ctx, "true")
    await call(registry, ctx, "TaskOutput", task_id=task_id)
    assert ctx.tasks.drain_notifications() == []


async def test_runs_in_session_state_without_feeding_back(
    ctx: ToolContext, tmp_path: Path
) -> None:
    assert ctx.tasks is not None and ctx.shell is not None
    (tmp_path / "sub").mkdir()
    await BashTool().call(BashInput(command="cd sub; export X=42"), ctx)
    task_id, path = await start(ctx, 'pwd; echo "$X"; cd /; export X=0')
    assert await ctx.tasks.wait(task_id, DEADLINE)
    assert path.read_text() == f"{tmp_path.resolve() / 'sub'}\n42\n"
    after = await BashTool().call(BashInput(command='pwd; echo "$X"'), ctx)
    assert after.content == f"{tmp_path.resolve() / 'sub'}\n42"


async def test_task_stop_kills_the_group(ctx: ToolContext, registry: ToolRegistry) -> None:
    assert ctx.tasks is not None
    task_id, path = await start(ctx, "sleep 30 & echo $!; wait")
    pid = int((await file_text(path, "\n")).split()[0])
    result = await call(registry, ctx, "TaskStop", task_id=task_id)
    assert not result.is_error
    assert result.content == f"Successfully stopped task: {task_id} (sleep 30 & echo $!; wait)"
    assert result.data == {
        "message": result.content,
        "task_id": task_id,
        "task_type": "local_bash",
        "command": "sleep 30 & echo $!; wait",
    }
    await wait_dead(pid)
    task = ctx.tasks.get(task_id)
    assert task is not None and task.status == "killed"
    again = await call(registry, ctx, "TaskStop", task_id=task_id)
    assert again.is_error and "not running" in str(again.content)
    assert ctx.tasks.drain_notifications() == []
    shown = await call(registry, ctx, "TaskOutput", task_id=task_id)
    assert "<status>killed</status>" in str(shown.content)


async def test_stopping_a_finished_task_is_an_error(
    ctx: ToolContext, registry: ToolRegistry
) -> None:
    assert ctx.tasks is not None
    task_id, _ = await start(ctx, "true")
    assert await ctx.tasks.wait(task_id, DEADLINE)
    result = await call(registry, ctx, "TaskStop", task_id=task_id)
    assert result.is_error and "not running" in str(result.content)


async def test_unknown_ids(ctx: ToolContext, registry: ToolRegistry) -> None:
    names = [("TaskOutput", "task_id"), ("TaskStop", "task_id"), ("KillShell", "shell_id")]
    for name, key in names:
        result = await call(registry, ctx, name, **{key: "nope"})
        assert result.is_error
        assert "No task found with ID: nope" in str(result.content)


async def test_missing_ids(ctx: ToolContext, registry: ToolRegistry) -> None:
    assert (await call(registry, ctx, "TaskOutput")).is_error
    assert (await call(registry, ctx, "TaskStop")).is_error
    both = await call(registry, ctx, "TaskStop", task_id="a", shell_id="b")
    assert both.is_error


async def test_old_names_and_fields(ctx: ToolContext, registry: ToolRegistry) -> None:
    task_id, path = await start(ctx, "echo apple; echo banana; echo cherry; sleep 30")
    await file_text(path, "cherry")
    out = await call(registry, ctx, "BashOutput", bash_id=task_id, filter="an", block=False)
    assert out.data["task"]["output"] == "banana"
    stopped = await call(registry, ctx, "KillShell", shell_id=task_id)
    assert not stopped.is_error
    assert registry.get("KillBash") is registry.get("TaskStop")


async def test_close_leaves_nothing_running(tmp_path: Path) -> None:
    shell = ShellSession(tmp_path)
    tasks = BackgroundTasks(shell.tasks_dir)
    try:
        started = [await tasks.start(shell, "sleep 30 & echo $!; wait") for _ in range(2)]
        pids = [int((await file_text(t.output_path, "\n")).split()[0]) for t in started]
        pids += [t.process.pid for t in started]
        await tasks.close()
        assert all(t.status == "killed" for t in started)
        for pid in pids:
            assert not alive(pid)
        await tasks.close()  # idempotent
        with pytest.raises(RuntimeError):
            await tasks.start(shell, "true")
    finally:
        shell.close()
    assert not shell.state_dir.exists()


def test_schemas_and_flags() -> None:
    output_schema = TaskOutputTool().input_schema()
    assert output_schema["required"] == ["task_id"]
    assert set(output_schema["properties"]) == {"task_id", "block", "timeout"}
    stop_schema = TaskStopTool().input_schema()
    assert {k: v["type"] for k, v in stop_schema["properties"].items()} == {
        "task_id": "string",
        "shell_id": "string",
    }
    assert "required" not in stop_schema
    tool = TaskOutputTool()
    inp = tool.input_model.model_validate({"task_id": "x"})
    assert tool.is_read_only(inp) and tool.is_concurrency_safe(inp)
    assert TaskOutputTool().description() and TaskStopTool().description()
