"""Bubblewrap: finding it, and the command line that confines one shell command.

    bwrap --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp        everything read-only
          --bind <folder> <folder> ...                               the writable folders
          --tmpfs <dir> --remount-ro <dir> / --ro-bind /dev/null <f> denied reads
          --ro-bind <path> <path>                                    read-only spots inside
          --unshare-pid --unshare-ipc [--unshare-net] --die-with-parent --new-session
          --cap-drop ALL -- <command>

Mounts are ordered by depth, so a deeper rule wins over the folder around it (a file
hidden inside a writable folder stays hidden; a writable folder inside a hidden one is
writable). A protected path that does not exist yet gets an empty read-only file or
folder bound at it, so it cannot be created; bubblewrap makes the mount point on the
real disk, and `Placeholders.remove()` deletes those empty leftovers afterwards.
bubblewrap always sets no_new_privs, so a setuid binary gains nothing inside.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

#: Lets a test or a user point at another bubblewrap (a missing path: no sandbox).
BWRAP_ENV = "CC_SANDBOX_BWRAP"
INSTALL_HINT = "install it with `apt-get install bubblewrap` (Debian, Ubuntu) or your "\
    "distribution's bubblewrap package"

#: Under each working folder: protected files and folders (kept read-only, never created).
PROTECTED_FILES = (".claude/settings.json", ".claude/settings.local.json", ".mcp.json",
                   ".git/config")
PROTECTED_DIRS = (".claude/commands", ".claude/agents", ".claude/skills", ".git/hooks",
                  ".ssh", ".gnupg", ".aws", ".kube")
#: Shell start-up files, in working folders and in home.
SHELL_FILES = (".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile",
               ".zshrc", ".zprofile", ".zshenv", ".zlogin", ".zlogout")
#: In the config folder (`~/.claude` or `$CLAUDE_CONFIG_DIR`).
CONFIG_FILES = ("settings.json", "settings.local.json")
CONFIG_DIRS = ("commands", "agents", "skills")


@dataclass(frozen=True)
class Bubblewrap:
    """What was found: the binary and its version, or why there is no sandbox."""

    path: str | None
    version: str | None = None
    problem: str | None = None

    @property
    def usable(self) -> bool:
        return self.problem is None and self.path is not None


def find_bubblewrap(env: Mapping[str, str] | None = None) -> Bubblewrap:
    """Look for bubblewrap and check that it can start a sandbox here (blocking, ~10 ms)."""
    env = os.environ if env is None else env
    if not sys.platform.startswith("linux"):
        return Bubblewrap(None, problem="the Bash sandbox needs Linux (bubblewrap)")
    name = env.get(BWRAP_ENV) or "bwrap"
    path = shutil.which(name, path=env.get("PATH"))
    if path is None:
        return Bubblewrap(None, problem=f"bubblewrap ({name}) was not found")
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10)
        version = out.stdout.strip().removeprefix("bubblewrap").strip() or None
        probe = subprocess.run(
            [path, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid",
             "--unshare-net", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
             "--", "true"],
            capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return Bubblewrap(path, problem=f"bubblewrap at {path} could not be run: {exc}")
    if probe.returncode != 0:
        why = (probe.stderr.strip().splitlines() or [f"exit status {probe.returncode}"])[-1]
        return Bubblewrap(path, version, f"bubblewrap at {path} cannot start a sandbox: {why}")
    return Bubblewrap(path, version)


@dataclass
class Placeholders:
    """Paths bubblewrap will create on disk as mount points (to delete afterwards)."""

    created: list[Path] = field(default_factory=list)

    def remove(self) -> None:
        """Delete what is still an empty leftover, deepest first."""
        for path in sorted(set(self.created), key=lambda p: len(p.parts), reverse=True):
            try:
                if path.is_symlink():
                    continue
                if path.is_dir():
                    path.rmdir()
                elif path.is_file() and path.stat().st_size == 0:
                    path.unlink()
            except OSError:
                pass


@dataclass(frozen=True)
class MountSpec:
    """What the sandbox lets a command see and touch (all paths resolved)."""

    writable: tuple[Path, ...]
    deny_write: tuple[Path, ...] = ()
    deny_read: tuple[Path, ...] = ()
    allow_read: tuple[Path, ...] = ()
    #: Folders whose protected files are guarded, and home (shell files) and config.
    project_dirs: tuple[Path, ...] = ()
    home: Path | None = None
    config_dir: Path | None = None
    #: Where the empty read-only file and folder used as placeholders live.
    scratch: Path = Path("/nonexistent")
    network: bool = False
    #: Folders to keep visible read-only although the private /tmp covers them (the
    #: Python that runs the network bridge, when it lives under /tmp).
    visible: tuple[Path, ...] = ()


def bwrap_argv(bwrap: str, spec: MountSpec, command: Iterable[str]) -> tuple[list[str], Placeholders]:
    """The full argv, and the placeholders it will leave on disk."""
    placeholders = Placeholders()
    ops: list[tuple[int, int, list[str]]] = []
    writable = [p for p in spec.writable if p.exists()]
    for path in writable:
        ops.append((_depth(path), 0, ["--bind", str(path), str(path)]))
    for path in spec.visible:
        if path.exists() and not any(_within(path, w) for w in writable):
            ops.append((_depth(path), 0, ["--ro-bind", str(path), str(path)]))
    for path in spec.allow_read:
        if path.exists() and any(_within(path, d) for d in spec.deny_read):
            kind = "--bind" if any(_within(path, w) for w in writable) else "--ro-bind"
            ops.append((_depth(path), 1, [kind, str(path), str(path)]))
    for path in spec.deny_read:
        if path.is_dir():
            ops.append((_depth(path), 2, ["--tmpfs", str(path), "--remount-ro", str(path)]))
        elif path.exists():
            ops.append((_depth(path), 2, ["--ro-bind", "/dev/null", str(path)]))
    for path in spec.deny_write:
        if path.exists() and any(_within(path, w) for w in writable):
            ops.append((_depth(path), 3, ["--ro-bind", str(path), str(path)]))
    for path, is_dir in _protected(spec):
        if not any(_within(path, w) for w in writable):
            continue  # read-only anyway
        if path.exists() or path.is_symlink():
            if path.exists():
                ops.append((_depth(path), 3, ["--ro-bind", str(path), str(path)]))
            continue
        chain = _missing_chain(path)
        if not chain[-1].parent.is_dir():
            continue  # under a file (a worktree's `.git` file): nothing can be created there
        source = _scratch(spec.scratch, is_dir)
        placeholders.created += chain
        ops.append((_depth(path), 3, ["--ro-bind", str(source), str(path)]))
    ops.sort(key=lambda op: (op[0], op[1]))
    argv = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
    for _, _, args in ops:
        argv += args
    argv += ["--unshare-pid", "--unshare-ipc", "--unshare-net", "--die-with-parent",
             "--new-session", "--cap-drop", "ALL"]
    if spec.network:
        argv.remove("--unshare-net")
    argv += ["--", *command]
    return argv, placeholders


def _protected(spec: MountSpec) -> list[tuple[Path, bool]]:
    out: list[tuple[Path, bool]] = []
    for folder in spec.project_dirs:
        out += [(folder / name, False) for name in (*PROTECTED_FILES, *SHELL_FILES)]
        out += [(folder / name, True) for name in PROTECTED_DIRS]
    if spec.home is not None:
        out += [(spec.home / name, False) for name in SHELL_FILES]
    if spec.config_dir is not None:
        out += [(spec.config_dir / name, False) for name in CONFIG_FILES]
        out += [(spec.config_dir / name, True) for name in CONFIG_DIRS]
    # Where a protected path really lies (a symlinked `.git` guards its target).
    return list(dict.fromkeys((Path(os.path.realpath(p)), d) for p, d in out))


def _scratch(folder: Path, is_dir: bool) -> Path:
    path = folder / ("empty-dir" if is_dir else "empty-file")
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        if is_dir:
            path.mkdir(mode=0o555)
        else:
            path.touch(mode=0o444)
    return path


def _missing_chain(path: Path) -> list[Path]:
    """`path` and its ancestors that do not exist yet."""
    chain = []
    while not path.exists() and not path.is_symlink() and path != path.parent:
        chain.append(path)
        path = path.parent
    return chain


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _depth(path: Path) -> int:
    return len(path.parts)
