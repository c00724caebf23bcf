"""Per-conversation shell state: the working directory and the exported environment.

Every command runs in a fresh `bash -c` (see `runner.py`), so nothing lives in a
long-running shell. What should outlast a command is saved by an EXIT trap in the
wrapper script: `export -p` into an env snapshot and `pwd -P` into a cwd file, both
in a private temp dir. The next command's wrapper sources the snapshot and starts
in that directory, so `cd sub` and `export FOO=1` carry over to later calls.
Shell functions, aliases, options and unexported variables do not.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import shlex
import shutil
import tempfile
import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from cc.config.env import truthy

#: Set in every command's environment.
FIXED_ENV = {"CLAUDECODE": "1", "GIT_EDITOR": "true", "PAGER": "cat"}


@dataclass(frozen=True)
class ShellRun:
    """One prepared command: what to exec, where, and where its state will be saved."""

    argv: tuple[str, ...]
    cwd: Path
    env: dict[str, str]
    #: Set when the saved directory was gone and the project dir was used instead.
    cwd_note: str | None
    env_out: Path | None = None
    cwd_out: Path | None = None


class ShellSession:
    """Where the next command runs and with which exported variables.

    `project_dir` is the fallback directory; `env` the base environment (default:
    this process's). `close()` removes the private temp dir (also done at garbage
    collection as a safety net).
    """

    def __init__(self, project_dir: Path, *, env: Mapping[str, str] | None = None) -> None:
        self.project_dir = Path(project_dir)
        self.cwd = self.project_dir
        base = dict(os.environ if env is None else env)
        self._maintain_project_dir = truthy(base.get("CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR"))
        self._env = {**base, **FIXED_ENV}
        self.state_dir = Path(tempfile.mkdtemp(prefix="cc-shell-"))
        self.tasks_dir = self.state_dir / "tasks"
        self.tasks_dir.mkdir()
        self._cleanup = weakref.finalize(self, shutil.rmtree, self.state_dir, ignore_errors=True)
        self._snapshot: Path | None = None
        self._runs = itertools.count(1)
        #: Held by a foreground command from start to finish (state is read, then written).
        self.lock = asyncio.Lock()

    @property
    def closed(self) -> bool:
        return not self._cleanup.alive

    def close(self) -> None:
        """Delete the state dir (env snapshots and background output files). Idempotent."""
        self._cleanup()

    def prepare(
        self, command: str, *, record: bool, overlay: Mapping[str, str] | None = None
    ) -> ShellRun:
        """The argv, cwd and env that run `command` in this session's state.

        With `record`, the command's final cwd and exports are saved for `finish()`;
        background commands pass `record=False` and never feed back. `overlay` variables
        (the sandbox's) are exported for this command only: what they replaced is what
        gets saved, unless the command changed them itself.
        """
        if self.closed:
            raise RuntimeError("the shell session is closed")
        note = None
        if not self.cwd.is_dir():
            note = (
                f"The working directory {self.cwd} no longer exists; "
                f"the shell was reset to {self.project_dir}."
            )
            self.cwd = self.project_dir
        n = next(self._runs)
        snapshot = self._snapshot
        if snapshot is not None and not record:
            # A private copy: the shared snapshot may be replaced before bash reads it.
            copy = self.state_dir / f"bg-{n}.env"
            shutil.copyfile(snapshot, copy)
            snapshot = copy
        env_out = self.state_dir / f"env-{n}" if record else None
        cwd_out = self.state_dir / f"cwd-{n}" if record else None
        script = _wrapper(self.cwd, snapshot, env_out, cwd_out, overlay or {})
        return ShellRun(
            ("bash", "-c", script, "bash", command),
            self.cwd,
            dict(self._env),  # the overlay is the wrapper's: it knows what it replaced
            note,
            env_out,
            cwd_out,
        )

    def finish(self, run: ShellRun) -> None:
        """Adopt what `run`'s EXIT trap saved (nothing, if it never got that far)."""
        if run.env_out is None or run.cwd_out is None:
            return
        try:
            raw_cwd = run.cwd_out.read_bytes()
        except OSError:
            raw_cwd = None
        if raw_cwd is not None:  # the trap wrote the env snapshot in full before this file
            if self._snapshot is not None:
                self._snapshot.unlink(missing_ok=True)
            self._snapshot = run.env_out
            if raw_cwd.endswith(b"\n"):
                self.cwd = Path(os.fsdecode(raw_cwd[:-1]))
        else:
            run.env_out.unlink(missing_ok=True)
        run.cwd_out.unlink(missing_ok=True)
        if self._maintain_project_dir:
            self.cwd = self.project_dir


def _wrapper(
    cwd: Path,
    snapshot: Path | None,
    env_out: Path | None,
    cwd_out: Path | None,
    overlay: Mapping[str, str],
) -> str:
    """The `bash -c` script around the user's command (which arrives as `$1`)."""
    q = shlex.quote
    lines: list[str] = []
    restore = ""
    if snapshot is not None:
        # The snapshot is the whole exported environment: drop what it doesn't list,
        # so `unset` carries over too.
        lines += [
            'for __cc_v in $(builtin compgen -e); do builtin unset -v "$__cc_v"; done 2>/dev/null',
            f"builtin . {q(str(snapshot))} 2>/dev/null",
        ]
    lines += [
        "__cc_old=${OLDPWD-}",
        f"builtin cd -- {q(str(cwd))} || builtin exit 1",
        'OLDPWD=$__cc_old',
        "builtin export CLAUDECODE=1",
    ]
    for i, (name, value) in enumerate(overlay.items()):
        lines.append(f"__cc_o{i}=${{{name}-}}; __cc_h{i}=${{{name}+x}}; "
                     f"builtin export {name}={q(value)}")
        restore += (f"if [ \"${{{name}-}}\" = {q(value)} ]; then if [ -n \"$__cc_h{i}\" ]; "
                    f"then builtin export {name}=\"$__cc_o{i}\"; else builtin unset -v {name}; "
                    "fi; fi; ")
    if env_out is not None and cwd_out is not None:
        trap = (
            f"__cc_s=$?; {restore}builtin export -p >{q(str(env_out))} 2>/dev/null"
            f" && builtin pwd -P >{q(str(cwd_out))} 2>/dev/null; builtin exit $__cc_s"
        )
        lines.append(f"builtin trap {q(trap)} EXIT")
    lines += [
        "__cc_cmd=$1",
        "builtin set --",
        "builtin unset -v __cc_v __cc_old",
        'builtin eval "$__cc_cmd"',
    ]
    return "\n".join(lines) + "\n"

