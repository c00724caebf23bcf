"""Drive `python -m cc` in a real pseudo-terminal and read the screen the way a user sees it.

pexpect runs the process on a pty; everything it writes is fed to a pyte screen
(an in-memory VT100), which also answers the cursor-position requests that
prompt_toolkit sends, as a real terminal would.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import pyte

REPO_ROOT = Path(__file__).resolve().parents[2]
ROWS, COLS = 30, 100
#: How long a screen may take to show what a test waits for: generous, since a loaded
#: machine (the suite runs in parallel) starts and renders slowly; only a hang reaches it.
TIMEOUT_S = 30.0
#: Text only a dialog that waits for an answer shows (the spinner is hidden meanwhile).
DIALOG_MARKS = ("what to do differently (esc)", "Tell Claude what to do differently", "esc to cancel")

def cc_argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "cc", *args]


class _Screen(pyte.Screen):
    def __init__(self, columns: int, lines: int, reply: Callable[[str], object]) -> None:
        super().__init__(columns, lines)
        self._reply = reply

    def write_process_input(self, data: str) -> None:  # answers cursor-position requests
        self._reply(data)


class Terminal:
    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str]) -> None:
        env = {**env, "TERM": "xterm-256color", "COLUMNS": str(COLS), "LINES": str(ROWS)}
        self.child = pexpect.spawn(argv[0], argv[1:], cwd=str(cwd), env=env, dimensions=(ROWS, COLS))
        self.screen = _Screen(COLS, ROWS, self.child.send)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""
        self.exited = False

    # --- reading --------------------------------------------------------------------

    def pump(self, seconds: float = 0.05) -> None:
        end = time.monotonic() + seconds
        while not self.exited:
            data = self.read(0.005)
            if data:
                self.feed(data)
            elif time.monotonic() >= end:
                return

    def read(self, timeout: float) -> bytes:
        """One read of what the program wrote, waiting up to `timeout`; b"" if nothing
        came (`exited` is set once the program is gone)."""
        try:
            return self.child.read_nonblocking(65536, timeout=timeout)
        except pexpect.TIMEOUT:
            return b""
        except pexpect.EOF:
            self.exited = True
            return b""

    def feed(self, data: bytes) -> None:
        """Put what the program wrote on the screen."""
        self.raw += data
        self.stream.feed(data)

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(self, *needles: str, timeout: float = TIMEOUT_S) -> str:
        """Wait until every needle is on screen; the screen text."""
        end = time.monotonic() + timeout
        while True:
            self.pump(0.01)
            screen = self.text()
            if all(n in screen for n in needles):
                return screen
            if self.exited or time.monotonic() > end:
                raise AssertionError(f"never saw {needles!r} on screen:\n{screen}")

    def wait_until(self, check: Callable[[str], bool], timeout: float = TIMEOUT_S) -> str:
        end = time.monotonic() + timeout
        while True:
            self.pump(0.01)
            screen = self.text()
            if check(screen):
                return screen
            if self.exited or time.monotonic() > end:
                raise AssertionError(f"condition never held; screen:\n{screen}")

    def prompt_line(self) -> str:
        """The input line ("> …") nearest the bottom of the screen."""
        lines = [ln for ln in self.text().splitlines() if ln.startswith(">")]
        return lines[-1] if lines else ""

    def wait_idle(self, timeout: float = TIMEOUT_S) -> str:
        """Wait until no turn is running (no spinner, no dialog) and the prompt is empty."""

        def idle(screen: str) -> bool:
            busy = ("esc to interrupt)", *DIALOG_MARKS)
            return not any(mark in screen for mark in busy) and self.prompt_line() == ">"

        return self.wait_until(idle, timeout)

    # --- typing ---------------------------------------------------------------------

    def type(self, text: str) -> None:
        self.child.send(text)
        self.pump(0.01)

    def enter(self, text: str = "") -> None:
        if text:
            self.type(text)
        self.child.send("\r")
        self.pump(0.05)

    def ctrl(self, key: str) -> None:
        self.child.sendcontrol(key)
        self.pump(0.05)

    def wait_exit(self, timeout: float = TIMEOUT_S) -> int:
        end = time.monotonic() + timeout
        while not self.exited and time.monotonic() < end:
            self.pump(0.1)
        self.child.close()
        assert self.child.exitstatus is not None, f"no exit status; signal {self.child.signalstatus}"
        return int(self.child.exitstatus)

    def close(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)


def cc_env(base_url: str, config: Path, home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE"))}
    env.update(
        ANTHROPIC_BASE_URL=base_url,
        ANTHROPIC_API_KEY="test",
        CLAUDE_CONFIG_DIR=str(config),
        HOME=str(home),
        CC_RETRY_SCALE="0.001",
        PYTHONPATH=str(REPO_ROOT),
        # Background memory extraction sends requests of its own after each turn; the
        # tests of it turn it back on.
        CC_DISABLE_MEMORY_EXTRACTION="1",
    )
    env.pop("NO_COLOR", None)
    return env


def trust(config: Path, folder: Path) -> None:
    """Mark `folder` trusted (as answering the first-visit question would) in `config`'s state."""
    state = {"projects": {os.path.realpath(folder): {"hasTrustDialogAccepted": True}}}
    (config / ".claude.json").write_text(json.dumps(state))
