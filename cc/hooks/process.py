"""Run one hook command: JSON on stdin, stdout and stderr captured, a deadline.

The command runs through `bash -c` (`/bin/sh -c` without bash), or exec'd
directly when the entry gives `args`, in its own process group
(`start_new_session=True`). On timeout, or if the caller is cancelled, the whole
group is killed. stdin is a temporary file holding the input, so a hook that
never reads it cannot stall us. stdout and stderr are pipes we own: once the
hook exits we read what is left for a moment, even if a child it left behind
still holds them.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cc.hooks.config import HookCommand
from cc.tools.shell.runner import exit_status, kill_group

#: What we keep of each stream; the rest is read and dropped.
MAX_CAPTURE = 1_000_000
#: How long a timed-out group gets between SIGTERM and SIGKILL.
KILL_GRACE = 1.0
#: How long to keep reading after the hook exits (a leftover child may hold the pipe).
DRAIN_GRACE = 0.2
#: How often a running hook's output so far is reported (`progress`), when it grew.
PROGRESS_SECONDS = 1.0

#: Told a running hook's stdout and stderr so far.
Progress = Callable[[str, str], None]


@dataclass
class HookResult:
    """What one hook command did."""

    command: HookCommand
    #: None when it timed out or never started.
    exit_code: int | None
    stdout: str = ""
    stderr: str = ""
    timed_out: bool = False
    #: stdout parsed as a JSON object (when it starts with `{`), else None.
    json: dict[str, Any] | None = None
    #: Why stdout that starts with `{` is not a JSON object.
    json_error: str | None = None
    #: Why the command could not be started at all.
    spawn_error: str | None = None
    duration_ms: int = 0
    #: The deadline it ran under (seconds).
    timeout: float = 0.0
    #: An http hook's response status (stream-json reports it as the exit code).
    http_status: int | None = None


def shell_argv(hook: HookCommand, project_dir: Path) -> list[str]:
    if hook.args is not None:
        return [_expand(a, project_dir) for a in (hook.command, *hook.args)]
    bash = shutil.which("bash")
    return [bash, "-c", hook.command] if bash else ["/bin/sh", "-c", hook.command]


def _expand(text: str, project_dir: Path) -> str:
    """`${CLAUDE_PROJECT_DIR}` in exec-form arguments (no shell expands them)."""
    return text.replace("${CLAUDE_PROJECT_DIR}", str(project_dir)).replace(
        "$CLAUDE_PROJECT_DIR", str(project_dir)
    )


async def run_hook_command(
    hook: HookCommand,
    stdin: bytes,
    *,
    cwd: Path,
    env: dict[str, str],
    timeout: float,
    kill_grace: float = KILL_GRACE,
    progress: Progress | None = None,
) -> HookResult:
    """Run `hook` once with `stdin`; never raises for the command's own failures.
    `progress` hears its output so far every `PROGRESS_SECONDS` while it grows."""
    started = time.monotonic()
    with tempfile.TemporaryFile() as stdin_file:
        stdin_file.write(stdin)
        stdin_file.seek(0)
        result = await _run(hook, stdin_file.fileno(), cwd, env, timeout, kill_grace,
                            progress)
    result.duration_ms = int((time.monotonic() - started) * 1000)
    result.timeout = timeout
    return result


async def _run(
    hook: HookCommand, stdin_fd: int, cwd: Path, env: dict[str, str], timeout: float, grace: float,
    progress: Progress | None = None,
) -> HookResult:
    loop = asyncio.get_running_loop()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    try:
        proc = await asyncio.create_subprocess_exec(
            *shell_argv(hook, cwd),
            cwd=cwd,
            env=env,
            stdin=stdin_fd,
            stdout=out_w,
            stderr=err_w,
            start_new_session=True,
        )
    except OSError as exc:
        os.close(out_r)
        os.close(err_r)
        return HookResult(hook, None, spawn_error=exc.strerror or str(exc))
    except BaseException:
        os.close(out_r)
        os.close(err_r)
        raise
    finally:
        os.close(out_w)
        os.close(err_w)

    streams = [_Stream(), _Stream()]
    files = [open(fd, "rb", buffering=0) for fd in (out_r, err_r)]  # noqa: SIM115
    transports: list[asyncio.BaseTransport] = []
    pumps: list[asyncio.Task[None]] = []
    try:
        for file, stream in zip(files, streams, strict=True):
            transport, _ = await loop.connect_read_pipe(
                lambda s=stream: asyncio.StreamReaderProtocol(s.reader), file
            )
            transports.append(transport)  # it owns the file now
            pumps.append(asyncio.create_task(stream.pump()))
        timed_out = False
        ticker = asyncio.create_task(_report(streams, progress)) if progress else None
        try:
            await asyncio.wait_for(proc.wait(), timeout)
        except TimeoutError:
            timed_out = True
            await kill_group(proc, grace)
        finally:
            if ticker is not None:
                ticker.cancel()
                await asyncio.wait([ticker])
        await _drain(pumps)
    except BaseException:
        await kill_group(proc, grace)
        for pump in pumps:
            pump.cancel()
        if pumps:
            await asyncio.wait(pumps)
        raise
    finally:
        for file in files[len(transports) :]:
            file.close()
        for transport in transports:
            transport.close()
        await asyncio.sleep(0)  # let the transports close their pipe files
    stdout, stderr = (s.text() for s in streams)
    if timed_out:
        return HookResult(hook, None, stdout, stderr, timed_out=True)
    assert proc.returncode is not None
    data, error = parse_json_output(stdout)
    return HookResult(
        hook, exit_status(proc.returncode), stdout, stderr, json=data, json_error=error
    )


def parse_json_output(stdout: str) -> tuple[dict[str, Any] | None, str | None]:
    """stdout as a JSON object if it starts with `{` (else plain text), or why not."""
    text = stdout.strip()
    if not text.startswith("{"):
        return None, None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
    if not isinstance(data, dict):
        return None, "the JSON output is not an object"
    return data, None


class _Stream:
    def __init__(self) -> None:
        self.reader = asyncio.StreamReader()
        self._data = bytearray()

    async def pump(self) -> None:
        while chunk := await self.reader.read(65536):
            room = MAX_CAPTURE - len(self._data)
            if room > 0:
                self._data += chunk[:room]

    def text(self) -> str:
        return self._data.decode("utf-8", errors="replace")


async def _report(streams: list[_Stream], progress: Progress) -> None:
    """Tell `progress` the output so far, each time it has grown since the last look."""
    last = ("", "")
    while True:
        await asyncio.sleep(PROGRESS_SECONDS)
        now = (streams[0].text(), streams[1].text())
        if now != last:
            last = now
            progress(*now)


async def _drain(pumps: list[asyncio.Task[None]]) -> None:
    """Let the readers finish what is in the pipes; give up on pipes a leftover child holds."""
    _, pending = await asyncio.wait(pumps, timeout=DRAIN_GRACE)
    for pump in pending:
        pump.cancel()
    if pending:
        await asyncio.wait(pending)


async def run_host_hook(hook: HookCommand, payload: dict[str, Any], *, timeout: float
                        ) -> HookResult:
    """A program's hook (`hook.host`): its answer read as a command's JSON output (exit
    0); no answer in time, or a failure, as a command that failed (exit 1, its reason on
    stderr), which blocks nothing."""
    assert hook.host is not None
    started = time.monotonic()
    tool_use_id = payload.get("tool_use_id")
    try:
        async with asyncio.timeout(timeout):
            output = await hook.host(payload, tool_use_id if isinstance(tool_use_id, str)
                                     else None)
    except TimeoutError:
        return HookResult(hook, None, timed_out=True, timeout=timeout,
                          duration_ms=int((time.monotonic() - started) * 1000))
    except Exception as exc:  # noqa: BLE001 - the program's failure, reported as the hook's
        return HookResult(hook, 1, stderr=str(exc), timeout=timeout,
                          duration_ms=int((time.monotonic() - started) * 1000))
    output = output if isinstance(output, dict) else {}
    return HookResult(hook, 0, stdout=json.dumps(output), json=output, timeout=timeout,
                      duration_ms=int((time.monotonic() - started) * 1000))
