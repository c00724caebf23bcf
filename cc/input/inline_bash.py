"""Shell commands inside command bodies and typed `!` lines.

- `` !`git status` `` in a custom command body (at a line start or after whitespace),
  or a ```` ```! ```` fenced block, runs before the prompt is sent and is replaced by
  its output. A command that fails aborts the expansion; exit 1 of a command that uses
  it to mean "no match" or "differs" (grep, diff, …) is not a failure.
- A typed `!cmd` runs the command and puts it into the conversation as
  `<bash-input>` / `<bash-stdout>` / `<bash-stderr>` user messages, without a model call.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from cc.errors import CommandError
from cc.models.messages import UserMessage

_INLINE = re.compile(r"(?<!\S)!`([^`\n]+)`")
_FENCED = re.compile(r"^```!\s*\n(.*?)\n```[ \t]*$", re.S | re.M)
#: Commands whose exit status 1 means "no" rather than "failed".
_EXIT_ONE_OK = {"grep", "egrep", "fgrep", "rg", "diff", "cmp", "test", "["}
DEFAULT_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class ShellOutput:
    command: str
    stdout: str
    stderr: str
    exit_code: int | None  #: None: timed out and killed


async def run_shell(command: str, cwd: Path, timeout: float = DEFAULT_TIMEOUT_S) -> ShellOutput:
    """`bash -c command` in `cwd`, no stdin, output captured; killed after `timeout` s."""
    proc = await asyncio.create_subprocess_exec(
        "bash", "-c", command,
        cwd=cwd,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "CLAUDECODE": "1"},
        start_new_session=True,
    )
    try:
        out, err = await asyncio.wait_for(proc.communicate(), timeout)
    except (TimeoutError, asyncio.CancelledError) as exc:
        _kill(proc)
        await proc.wait()
        if isinstance(exc, asyncio.CancelledError):
            raise
        return ShellOutput(command, "", f"Command timed out after {timeout:g} s", None)
    decode = lambda b: b.decode("utf-8", errors="replace")  # noqa: E731
    return ShellOutput(command, decode(out), decode(err), proc.returncode)


def _kill(proc: asyncio.subprocess.Process) -> None:
    try:
        os.killpg(proc.pid, 9)
    except (ProcessLookupError, PermissionError):
        pass


def _failed(result: ShellOutput) -> bool:
    if result.exit_code == 0:
        return False
    first = result.command.split()[0] if result.command.split() else ""
    return not (result.exit_code == 1 and os.path.basename(first) in _EXIT_ONE_OK)


async def run_inline_bash(
    text: str,
    cwd: Path,
    *,
    permit: Callable[[str], Awaitable[bool]] | None = None,
) -> str:
    """`text` with each `` !`cmd` `` and ```` ```! ```` block replaced by the command's output.

    `permit(command)` decides whether a command may run (the permission check for the
    command's `allowed-tools`); without it every command runs. Raises CommandError.
    """
    spans: list[tuple[int, int, str, str]] = []
    for m in _FENCED.finditer(text):
        spans.append((m.start(), m.end(), m.group(1).strip(), m.group(0)))
    for m in _INLINE.finditer(text):
        if not any(s <= m.start() < e for s, e, _, _ in spans):
            spans.append((m.start(), m.end(), m.group(1).strip(), m.group(0)))
    spans.sort()
    out, last = [], 0
    for start, end, command, pattern in spans:
        if permit is not None and not await permit(command):
            raise CommandError(f'Shell command permission check failed for pattern "{pattern}"')
        result = await run_shell(command, cwd)
        if _failed(result):
            why = (result.stderr.strip() or f"exit code {result.exit_code}").splitlines()[0]
            raise CommandError(f'Shell command failed for pattern "{pattern}": {why}')
        output = result.stdout + (("\n" + result.stderr) if result.stderr.strip() else "")
        out += [text[last:start], output.strip("\n")]
        last = end
    out.append(text[last:])
    return "".join(out)


def shell_messages(result: ShellOutput) -> list[UserMessage]:
    """A typed `!cmd` as the conversation records it (no model call follows)."""
    return [
        UserMessage.text(f"<bash-input>{result.command}</bash-input>"),
        UserMessage.text(
            f"<bash-stdout>{result.stdout.rstrip()}</bash-stdout>"
            f"<bash-stderr>{result.stderr.rstrip()}</bash-stderr>"
        ),
    ]
