"""Run one shell command: spawn, stream its output, time it out, kill its process group.

The command runs in its own session (`start_new_session=True`), so its pid is the
id of a process group holding it and everything it starts; stopping it signals
the whole group. stdin is /dev/null, so a command that reads input sees EOF at
once instead of hanging. stdout and stderr share one pipe that we own: when bash
exits we stop reading shortly after, even if a leftover child still holds the pipe.

Only a head and a tail of the output are kept in memory. Given a `spill` path, output
that outgrows the cap is also written there in full (the raw bytes, mode 0600), so the
model can read what the preview leaves out; output within the cap writes no file.
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
from typing import TYPE_CHECKING, Any, BinaryIO

from cc.tools.shell.session import ShellRun, ShellSession

if TYPE_CHECKING:
    from cc.tools.shell.confinement import Confined, Confinement

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
    #: Where the whole output was saved, when `output` is only its head and tail.
    full_output_path: Path | None = None
    #: The length in characters of the whole output (what `output` would be uncut).
    full_length: int = 0


def clip(text: str, limit: int) -> str:
    """`text` cut to about `limit` characters, keeping its head and its tail."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return _join_clipped(text[:half], len(text) - 2 * half, text[-half:] if half else "")


def _join_clipped(head: str, omitted: int, tail: str) -> str:
    return f"{head}\n\n... [{omitted} characters truncated] ...\n\n{tail}"


class OutputCollector:
    """Decodes output as it comes, reports whole lines, keeps only a head and a tail.

    With `spill` (a function giving the file to create), output longer than the limit
    is also written to that file in full; `close()` must be called in any case.
    """

    def __init__(
        self,
        limit: int,
        progress: Callable[[str], None] | None = None,
        spill: Callable[[], Path] | None = None,
    ) -> None:
        self.limit = max(limit, 2)
        self._progress = progress
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._head = ""
        self._tail = ""
        self._dropped = 0
        self._newlines = 0
        self._partial = ""
        self._spill = spill
        #: Raw bytes so far, kept until we know whether they must be saved.
        self._raw: bytearray | None = bytearray() if spill is not None else None
        self._file: BinaryIO | None = None
        self.spill_path: Path | None = None
        self.length = 0

    def feed(self, data: bytes, *, final: bool = False) -> None:
        self._save(data)
        text = self._decoder.decode(data, final)
        if text:
            self.length += len(text)
            self._store(text)
            self._report(text)
            if self._raw is not None and self.length > self.limit:
                self._start_spill()

    def _save(self, data: bytes) -> None:
        if not data:
            return
        if self._raw is not None:
            self._raw += data
        elif self._file is not None:
            try:
                self._file.write(data)
            except OSError:
                self.discard_spill()

    def _start_spill(self) -> None:
        assert self._spill is not None and self._raw is not None
        raw, self._raw = self._raw, None
        try:
            path = self._spill()
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | os.O_NOFOLLOW
            self._file = os.fdopen(os.open(path, flags, 0o600), "wb")
            self.spill_path = path
            self._file.write(raw)
        except OSError:
            self.discard_spill()

    def discard_spill(self) -> None:
        """Close and delete the spill file (it could not be written, or is not needed)."""
        path, self.spill_path = self.spill_path, None
        self._raw = None
        self.close()
        if path is not None:
            with contextlib.suppress(OSError):
                path.unlink()

    def close(self) -> None:
        """Close the spill file (idempotent)."""
        file, self._file = self._file, None
        if file is not None:
            try:
                file.close()
            except OSError:
                self._file = None
                self.spill_path = None

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
        """The clipped output without trailing newlines, and its line count.

        Closes the spill file; `spill_path` is left set only if the output was clipped
        and `length` is the length of the whole output without trailing newlines.
        """
        self.feed(b"", final=True)
        if self._progress is not None and self._partial:
            self._progress(self._partial.rstrip("\r"))
            self._partial = ""
        self.close()
        if self._dropped == 0:
            full = (self._head + self._tail).rstrip("\n")
            trailing = len(self._head) + len(self._tail) - len(full)
            lines = self._newlines - trailing + 1 if full else 0
            self.length = len(full)
            if len(full) <= self.limit and self.spill_path is not None:
                self.discard_spill()  # only trailing newlines were over the cap
            return clip(full, self.limit), lines
        tail = self._tail.rstrip("\n")
        lines = self._newlines - (len(self._tail) - len(tail)) + 1
        half = self.limit // 2
        total = len(self._head) + self._dropped + len(tail)
        self.length = total
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
    spill: Callable[[], Path] | None = None,
    sandbox: Confinement | None = None,
    on_confined: Callable[[Confined], None] | None = None,
) -> RunResult:
    """Run `command` in `session`, wait for it (at most `timeout` seconds), collect output.

    On timeout or `abort` the process group is killed and the output so far returned.
    If the caller is cancelled, the group is killed and awaited before re-raising.
    Output over `max_output` characters is saved in full to the file `spill()` names.
    With `sandbox`, the command runs inside it (`on_confined` sees the confined run).
    """
    async with session.lock:
        overlay = sandbox.env_overlay() if sandbox is not None else None
        run = session.prepare(command, record=True, overlay=overlay)
        confined = None
        try:
            if sandbox is not None:
                confined = await sandbox.confine(run, session.state_dir)
                if on_confined is not None:
                    on_confined(confined)
            collector = OutputCollector(max_output, progress, spill)
            return await _execute(confined.run if confined else run, timeout, collector, abort)
        finally:
            if confined is not None:
                confined.release()
            session.finish(run)


async def _execute(
    run: ShellRun,
    timeout: float,
    collector: OutputCollector,
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
        collector.discard_spill()
        await kill_group(proc)
        pump.cancel()
        await asyncio.wait({pump})
        raise
    finally:
        collector.close()
        transport.close()
        await asyncio.sleep(0)  # let the transport close the pipe file
    output, lines = collector.finish()
    timed_out = outcome == "timeout"
    interrupted = outcome != "exited"
    code = None if interrupted or proc.returncode is None else exit_status(proc.returncode)
    return RunResult(
        output, code, lines, timed_out, interrupted, run.cwd_note,
        collector.spill_path, collector.length,
    )


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
    waiters: set[asyncio.Future[Any]] = {exited}
    aborted: asyncio.Future[Any] | None = None
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
