"""Background commands: started by Bash with `run_in_background`, read by TaskOutput,
stopped by TaskStop, all killed by `close()` when the conversation ends.

Each command writes its merged output to `<output_dir>/<id>.output`. A watcher task
awaits the process and, when it ends on its own, records the status and queues a
notification for the next model request (`drain_notifications()`).
"""

from __future__ import annotations

import asyncio
import codecs
import os
import secrets
import string
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from cc.tools.shell.runner import exit_status, kill_group, spawn
from cc.tools.shell.session import ShellSession

if TYPE_CHECKING:
    from cc.tools.shell.confinement import Confined, Confinement

TaskStatus = Literal["running", "completed", "failed", "killed"]
TASK_TYPE = "local_bash"
#: `read_new_output` returns at most about this many bytes (head and tail of the rest).
MAX_READ_BYTES = 1 << 20

_ID_ALPHABET = string.ascii_lowercase + string.digits


def random_task_id() -> str:
    return "b" + "".join(secrets.choice(_ID_ALPHABET) for _ in range(6))


@dataclass
class BackgroundTask:
    id: str
    command: str
    description: str | None
    output_path: Path
    process: asyncio.subprocess.Process
    status: TaskStatus = "running"
    exit_code: int | None = None
    #: How far into the output file `read_new_output` has got.
    read_offset: int = 0
    started_at: float = field(default_factory=time.time)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    _decoder: codecs.IncrementalDecoder = field(
        default_factory=lambda: codecs.getincrementaldecoder("utf-8")("replace")
    )
    _watcher: asyncio.Task[None] | None = None
    #: Set when the command runs in the sandbox (released when it ends).
    confined: Confined | None = None

    @property
    def label(self) -> str:
        return self.description or self.command


class BackgroundTasks:
    """The conversation's background commands, by id."""

    def __init__(self, output_dir: Path, *, new_id: Callable[[], str] = random_task_id) -> None:
        self.output_dir = Path(output_dir)
        self._new_id = new_id
        self._tasks: dict[str, BackgroundTask] = {}
        self._notifications: list[tuple[str, str]] = []
        self._closed = False

    def __iter__(self) -> Iterator[BackgroundTask]:
        return iter(list(self._tasks.values()))

    def get(self, task_id: str) -> BackgroundTask | None:
        return self._tasks.get(task_id)

    async def start(
        self,
        session: ShellSession,
        command: str,
        description: str | None = None,
        *,
        sandbox: Confinement | None = None,
    ) -> BackgroundTask:
        """Start `command` in the session's cwd and env (in `sandbox`, if given); return
        without waiting."""
        if self._closed:
            raise RuntimeError("background tasks are closed")
        task_id = self._new_id()
        while task_id in self._tasks:
            task_id = self._new_id()
        self.output_dir.mkdir(parents=True, exist_ok=True)
        path = self.output_dir / f"{task_id}.output"
        overlay = sandbox.env_overlay() if sandbox is not None else None
        run = session.prepare(command, record=False, overlay=overlay)
        confined = await sandbox.confine(run, session.state_dir) if sandbox is not None else None
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o600)
        try:
            proc = await spawn(confined.run if confined else run, fd)
        except BaseException:
            if confined is not None:
                confined.release()
            raise
        finally:
            os.close(fd)
        task = BackgroundTask(task_id, command, description, path, proc, confined=confined)
        task._watcher = asyncio.create_task(self._watch(task), name=f"bg-{task_id}")
        self._tasks[task_id] = task
        return task

    async def _watch(self, task: BackgroundTask) -> None:
        try:
            code = exit_status(await task.process.wait())
        finally:
            if task.confined is not None:
                task.confined.release()
        task.exit_code = code
        if task.status == "running":
            task.status = "completed" if code == 0 else "failed"
            outcome = "completed" if code == 0 else "failed"
            self._notifications.append(
                (
                    task.id,
                    f'Background command "{task.label}" (id {task.id}) {outcome} with exit '
                    f"code {code}. Output: {task.output_path}",
                )
            )
        task.done.set()

    async def wait(self, task_id: str, timeout: float) -> bool:
        """Wait until the task ends or `timeout` seconds pass; whether it ended."""
        task = self._tasks[task_id]
        if not task.done.is_set() and timeout > 0:
            try:
                await asyncio.wait_for(task.done.wait(), timeout)
            except TimeoutError:
                pass
        return task.done.is_set()

    async def stop(self, task_id: str) -> bool:
        """Kill the task's process group; False if it was not running. KeyError if unknown."""
        task = self._tasks[task_id]
        if task.status != "running":
            return False
        if task.process.returncode is not None:  # ended; the watcher has yet to run
            await task.done.wait()
            return False
        task.status = "killed"
        await kill_group(task.process)
        await task.done.wait()
        return True

    def read_new_output(self, task_id: str) -> str:
        """Output written since the last call (KeyError if unknown)."""
        task = self._tasks[task_id]
        final = task.done.is_set()
        try:
            with open(task.output_path, "rb") as f:
                f.seek(0, os.SEEK_END)
                end = f.tell()
                start = min(task.read_offset, end)
                data = head = tail = b""
                if end - start <= MAX_READ_BYTES:
                    f.seek(start)
                    data = f.read(end - start)
                    skipped = 0
                else:
                    half = MAX_READ_BYTES // 2
                    f.seek(start)
                    head = f.read(half)
                    f.seek(end - half)
                    tail = f.read(half)
                    skipped = end - start - 2 * half
        except FileNotFoundError:
            return ""
        task.read_offset = end
        if not skipped:
            return task._decoder.decode(data, final)
        text = task._decoder.decode(head, True)
        task._decoder.reset()
        note = f"\n\n... [{skipped} bytes of output skipped] ...\n\n"
        return text + note + task._decoder.decode(tail, final)

    def mark_seen(self, task_id: str) -> None:
        """The model has seen how the task ended: drop its pending notification."""
        self._notifications = [(i, t) for i, t in self._notifications if i != task_id]

    def drain_notifications(self) -> list[str]:
        """Texts about tasks that ended since the last call (then forgotten)."""
        texts = [text for _, text in self._notifications]
        self._notifications.clear()
        return texts

    async def close(self) -> None:
        """Kill every running task (whole process groups) and wait for them. Idempotent."""
        self._closed = True
        await self.stop_all()

    async def stop_all(self) -> None:
        """Kill every running task and wait for them; new ones may still start."""
        running = [t for t in self._tasks.values() if t.status == "running"]
        if running:
            async with asyncio.TaskGroup() as group:
                for task in running:
                    group.create_task(self.stop(task.id))
        for task in self._tasks.values():
            if task._watcher is not None:
                await task._watcher
