"""What the shell tools need of a sandbox, as they see it (`cc.sandbox` implements it).

    placement(command, disable)   where a command runs: sandboxed, outside, or refused
    env_overlay()                 variables a confined command gets (the proxy's)
    confine(run, state_dir)       the run wrapped; `release()` once its process ended
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from cc.tools.shell.session import ShellRun


@dataclass(frozen=True)
class Placement:
    sandboxed: bool
    #: Set when the command must not run at all (what the model is told).
    refused: str | None = None
    #: A line for the model about how the command was run.
    note: str | None = None
    #: It runs outside because the model asked to (dangerouslyDisableSandbox).
    by_request: bool = False


class Confined(Protocol):
    """A run inside the sandbox."""

    run: ShellRun

    def blocked(self) -> list[str]: ...

    def hint(self, output: str, exit_code: int | None) -> str | None: ...

    def release(self) -> None: ...


class Confinement(Protocol):
    def placement(self, command: str, disable: bool = False) -> Placement: ...

    def env_overlay(self) -> dict[str, str]: ...

    async def confine(self, run: ShellRun, state_dir: Path) -> Confined: ...

    async def close(self) -> None: ...
