"""Run one shell command: spawn, stream its output, time it out, kill its process group.

The command runs in its own session (`start_new_session=True`), so its pid is the
id of a process group holding it and everything it starts; stopping it signals
the whole group. stdin is /dev/null, so a command that reads input sees EOF at
once instead of hanging. stdout and stderr share one pipe that we own: when bash
exits we stop reading shortly after, even if a leftover child still holds the pipe.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import signal
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cc.tools.shell.session import ShellRun, ShellSession

DEFAULT_MAX_OUTPUT = 30000
#: How long a killed group gets between SIGTERM and SIGKILL.
KILL_GRACE = 2.0
#: How long to keep reading after bash exits (a leftover child may hold the pipe).
DRAIN_GRACE = 0.2
_READ_SIZE = 65536
#: A line without a newline is reported to `progress` in pieces of this size.
_MAX_PROGRESS_LINE = 8192


@dataclass(frozen=True)
class RunResult:
    output: str
    #: The exit status (128+N when killed by signal N); None if we killed it.
    exit_code: int | None
    line_count: int
    timed_out: bool = False
    #: Stopped by us: timeout or abort.
    interrupted: bool = False
    #: A notice from the tool itself (e.g. the working directory was reset).
    notice: str | None = None


def clip(text: str, limit: int) -> str:
    """`text` cut to about `limit` characters, keeping its head and its tail."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return _join_clipped(text[:half], len(text) - 2 * half, text[-half:] if half else "")


def _join_clipped(head: str, omitted: int, tail: str) -> str:
    return f"{head}\n\n... [{omitted} characters truncated] ...\n\n{tail}"


class OutputCollector:
    """Decodes output as it comes, reports whole lines, keeps only a head and a tail."""

    def __init__(self, limit: int, progress: Callable[[str], None] | None = None) -> None:
        self.limit = max(limit, 2)
        self._progress = progress
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._head = ""
        self._tail = ""
        self._dropped = 0
        self._newlines = 0
        self._partial = ""

    def feed(self, data: bytes, *, final: bool = False) -> None:
        text = self._decoder.decode(data, final)
        if text:
            self._store(text)
            self._report(text)

    def _store(self, text: str) -> None:
        self._newlines += text.count("\n")
        room = self.limit - len(self._head)
        if room > 0:
            self._head += text[:room]
            text = text[room:]
        if text:
            self._tail += text
            if len(self._tail) > 2 * self.limit:
                cut = len(self._tail) - self.limit
                self._tail = self._tail[cut:]
                self._dropped += cut

    def _report(self, text: str) -> None:
        if self._progress is None:
            return
        self._partial += text
        *lines, self._partial = self._partial.split("\n")
        for line in lines:
            self._progress(line.rstrip("\r"))
        while len(self._partial) > _MAX_PROGRESS_LINE:
            self._progress(self._partial[:_MAX_PROGRESS_LINE])
            self._partial = self._partial[_MAX_PROGRESS_LINE:]

    def finish(self) -> tuple[str, int]:
        """The clipped output without trailing newlines, and its line count."""
        self.feed(b"", final=True)
        if self._progress is not None and self._partial:
            self._progress(self._partial.rstrip("\r"))
            self._partial = ""
        if self._dropped == 0:
            full = (self._head + self._tail).rstrip("\n")
            trailing = len(self._head) + len(self._tail) - len(full)
            lines = self._newlines - trailing + 1 if full else 0
            return clip(full, self.limit), lines
        tail = self._tail.rstrip("\n")
        lines = self._newlines - (len(self._tail) - len(tail)) + 1
        half = self.limit // 2
        total = len(self._head) + self._dropped + len(tail)
        return _join_clipped(self._head[:half], total - 2 * half, tail[-half:]), lines


async def spawn(run: ShellRun, stdout: int) -> asyncio.subprocess.Process:
    """Start `run` in a new process group, stdout and stderr to the fd `stdout`."""
    return await asyncio.create_subprocess_exec(
        *run.argv,
        cwd=run.cwd,
        env=run.env,
        stdin=subprocess.DEVNULL,
        stdout=stdout,
        stderr=stdout,
        start_new_session=True,
    )


def exit_status(returncode: int) -> int:
    """A shell-style exit status: 128+N for death by signal N."""
    return 128 - returncode if returncode < 0 else returncode


async def run_foreground(
    session: ShellSession,
    command: str,
    *,
    timeout: float,
    max_output: int = DEFAULT_MAX_OUTPUT,
    progress: Callable[[str], None] | None = None,
    abort: asyncio.Event | None = None,
) -> RunResult:
    """Run `command` in `session`, wait for it (at most `timeout` seconds), collect output.

    On timeout or `abort` the process group is killed and the output so far returned.
    If the caller is cancelled, the group is killed and awaited before re-raising.
    """
    async with session.lock:
        run = session.prepare(command, record=True)
        try:
            return await _execute(run, timeout, max_output, progress, abort)
        finally:
            session.finish(run)


async def _execute(
    run: ShellRun,
    timeout: float,
    max_output: int,
    progress: Callable[[str], None] | None,
    abort: asyncio.Event | None,
) -> RunResult:
    loop = asyncio.get_running_loop()
    read_fd, write_fd = os.pipe()
    try:
        proc = await spawn(run, write_fd)
    except BaseException:
        os.close(read_fd)
        raise
    finally:
        os.close(write_fd)
    collector = OutputCollector(max_output, progress)
    reader = asyncio.StreamReader()
    pipe = open(read_fd, "rb", buffering=0)  # noqa: SIM115 - the transport owns it
    try:
        transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), pipe
        )
    except BaseException:
        pipe.close()
        await kill_group(proc)
        raise
    pump = asyncio.create_task(_pump(reader, collector))
    try:
        outcome = await _wait(proc, timeout, abort)
        if outcome != "exited":
            await kill_group(proc)
        await _drain(pump)
    except BaseException:
        await kill_group(proc)
        pump.cancel()
        await asyncio.wait({pump})
        raise
    finally:
        transport.close()
        await asyncio.sleep(0)  # let the transport close the pipe file
    output, lines = collector.finish()
    timed_out = outcome == "timeout"
    interrupted = outcome != "exited"
    code = None if interrupted or proc.returncode is None else exit_status(proc.returncode)
    return RunResult(output, code, lines, timed_out, interrupted, run.cwd_note)


async def _pump(reader: asyncio.StreamReader, collector: OutputCollector) -> None:
    while chunk := await reader.read(_READ_SIZE):
        collector.feed(chunk)


async def _drain(pump: asyncio.Task[None]) -> None:
    """Let the reader finish what is in the pipe; give up on a pipe a leftover child holds."""
    done, _ = await asyncio.wait({pump}, timeout=DRAIN_GRACE)
    if not done:
        pump.cancel()
        await asyncio.wait({pump})
    elif pump.exception() is not None:
        pump.result()


async def _wait(
    proc: asyncio.subprocess.Process, timeout: float, abort: asyncio.Event | None
) -> str:
    """'exited', 'timeout' or 'aborted', whichever comes first."""
    exited = asyncio.ensure_future(proc.wait())
    waiters: set[asyncio.Future[object]] = {exited}
    aborted = None
    if abort is not None:
        aborted = asyncio.ensure_future(abort.wait())
        waiters.add(aborted)
    try:
        done, _ = await asyncio.wait(waiters, timeout=timeout, return_when="FIRST_COMPLETED")
    finally:
        for w in waiters:
            w.cancel()
        await asyncio.wait(waiters)
    if exited in done:
        return "exited"
    return "aborted" if aborted is not None and aborted in done else "timeout"


async def kill_group(proc: asyncio.subprocess.Process, grace: float = KILL_GRACE) -> None:
    """SIGTERM the process group of `proc`; SIGKILL what is left after `grace` seconds.

    Returns once `proc` itself has been reaped and no live member of the group remains
    (as far as /proc can tell).
    """
    pgid = proc.pid
    loop = asyncio.get_running_loop()
    deadline = loop.time() + grace
    _signal_group(pgid, signal.SIGTERM)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(proc.wait(), grace)
    while group_alive(pgid) and loop.time() < deadline:
        await asyncio.sleep(0.02)
    if proc.returncode is None or group_alive(pgid):
        _signal_group(pgid, signal.SIGKILL)
    await proc.wait()


def _signal_group(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def group_alive(pgid: int) -> bool:
    """Whether the group has a member that is not a zombie."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    proc = Path("/proc")
    if not (proc / "self" / "stat").exists():
        return True  # no /proc: zombies count as alive
    with os.scandir(proc) as entries:  # closed on the early return too
        for entry in entries:
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as f:
                    stat = f.read()
            except OSError:
                continue
            fields = stat[stat.rfind(b")") + 2 :].split()
            if len(fields) > 2 and int(fields[2]) == pgid and fields[0] not in (b"Z", b"X"):
                return True
    return False
