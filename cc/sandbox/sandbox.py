"""The session's sandbox: where each Bash command runs, and the confinement around it.

    placement(command, disable)  sandboxed / outside (excludedCommands, allowed
                                 dangerouslyDisableSandbox, no bubblewrap) / refused
    confine(run)                 the ShellRun wrapped in bubblewrap (async: the network
                                 proxy starts on first use); release() when it ends
    ConfinedRun.hint(...)        one line when a failure looks like the sandbox's doing

Bubblewrap is looked for once, the first time anyone asks (`bubblewrap()`), and never
when the sandbox is off. One `Sandbox` per conversation; `close()` stops the proxy.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from cc.sandbox.bwrap import INSTALL_HINT, Bubblewrap, MountSpec, Placeholders, bwrap_argv
from cc.sandbox.commands import matches_excluded
from cc.sandbox.config import SandboxConfig
from cc.sandbox.diagnose import failure_hint
from cc.tools.shell.confinement import Placement

if TYPE_CHECKING:
    from cc.permissions.verdict import Assessment
    from cc.sandbox.proxy import DomainProxy
    from cc.tools.shell.session import ShellRun

#: The port the in-sandbox bridge to the proxy listens on (the network namespace is private).
PROXY_PORT = 3128
_BRIDGE = Path(__file__).with_name("bridge.py")


def _under_tmp(path: Path) -> bool:
    return path == Path("/tmp") or Path("/tmp") in path.parents


class ConfinedRun:
    """A ShellRun inside bubblewrap; `release()` once its process has ended."""

    def __init__(self, run: ShellRun, owner: Sandbox, placeholders: Placeholders) -> None:
        self.run = run
        self._owner = owner
        self._placeholders = placeholders
        self._released = False
        proxy = owner._proxy
        self._blocked_from = len(proxy.blocked) if proxy is not None else 0

    def blocked(self) -> list[str]:
        """Hosts the proxy refused since this run started."""
        proxy = self._owner._proxy
        return proxy.blocked[self._blocked_from:] if proxy is not None else []

    def hint(self, output: str, exit_code: int | None) -> str | None:
        """One line for the model when the failure looks like the sandbox's doing."""
        cfg = self._owner.config
        return failure_hint(output, exit_code, domains=cfg.allowed_domains,
                            blocked=self.blocked(), allow_unsandboxed=cfg.allow_unsandboxed)

    def release(self) -> None:
        if not self._released:
            self._released = True
            self._owner._leave(self._placeholders)


class Sandbox:
    def __init__(self, config: SandboxConfig) -> None:
        self.config = config
        self._found: Bubblewrap | None = None
        self._lock = threading.Lock()
        self._active = 0
        self._pending: list[Placeholders] = []
        self._proxy: DomainProxy | None = None

    # --- what is there --------------------------------------------------------------------

    def bubblewrap(self) -> Bubblewrap:
        """bubblewrap as found on first call (blocking the first time)."""
        with self._lock:
            if self._found is None:
                from cc.sandbox.bwrap import find_bubblewrap

                self._found = find_bubblewrap()
            return self._found

    @property
    def active(self) -> bool:
        """Commands run sandboxed unless excluded (enabled and bubblewrap works)."""
        return self.config.enabled and self.bubblewrap().usable

    def startup_warning(self) -> str | None:
        """One line for start-up when the sandbox is on but cannot work."""
        if not self.config.enabled:
            return None
        found = self.bubblewrap()
        if found.usable:
            return None
        then = ("Bash commands will be refused (sandbox.failIfUnavailable is true)"
                if self.config.fail_if_unavailable else "Bash commands run unsandboxed, "
                "with the normal permission checks")
        return f"The Bash sandbox is unavailable: {found.problem}; {INSTALL_HINT}. {then}."

    # --- where a command runs -------------------------------------------------------------

    def placement(self, command: str, disable: bool = False) -> Placement:
        cfg = self.config
        if not cfg.enabled:
            return Placement(False)
        if matches_excluded(command, cfg.excluded_commands):
            return Placement(False)
        found = self.bubblewrap()
        if not found.usable:
            if cfg.fail_if_unavailable:
                return Placement(False, refused=(
                    f"The command was not run: the sandbox is required "
                    f"(sandbox.failIfUnavailable) but unavailable: {found.problem}. "
                    f"Ask the user to {INSTALL_HINT}."))
            return Placement(False)
        if disable:
            if cfg.allow_unsandboxed:
                return Placement(False, by_request=True)
            return Placement(True, note=(
                "dangerouslyDisableSandbox was refused (sandbox.allowUnsandboxedCommands is "
                "false); the command ran in the sandbox."))
        return Placement(True)

    # --- running inside -------------------------------------------------------------------

    def assess(self, a: Assessment, command: str, disable: bool = False) -> None:
        """Fold where `command` would run into the permission assessment `a`."""
        from cc.sandbox.policy import apply_sandbox

        apply_sandbox(a, self, command, disable)

    def env_overlay(self) -> dict[str, str]:
        """Variables every sandboxed command gets (and does not carry over)."""
        env = {"TMPDIR": "/tmp"}
        if self.config.allowed_domains:
            url = f"http://127.0.0.1:{PROXY_PORT}"
            for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
                env[name] = env[name.lower()] = url
            env["NO_PROXY"] = env["no_proxy"] = ""
        return env

    async def confine(self, run: ShellRun, state_dir: Path) -> ConfinedRun:
        found = self.bubblewrap()
        assert found.path is not None
        cfg = self.config
        command: list[str] = list(run.argv)
        visible: tuple[Path, ...] = ()
        if cfg.allowed_domains:
            proxy = await self._start_proxy(state_dir)
            # The bridge needs only the interpreter and its standard library (-I -S), so
            # it runs the real binary behind a venv's link; under /tmp (hidden by the
            # private /tmp) its installation is kept visible, read-only.
            python = Path(os.path.realpath(sys.executable))
            prefix = Path(os.path.realpath(sys.base_prefix))
            visible = (prefix, _BRIDGE.parent) if _under_tmp(python) or _under_tmp(
                _BRIDGE) else ()
            command = [str(python), "-I", "-S", str(_BRIDGE), str(PROXY_PORT),
                       str(proxy.socket_path), "--", *command]
        spec = MountSpec(
            writable=(*cfg.writable, state_dir),
            deny_write=tuple(cfg.deny_write),
            deny_read=tuple(cfg.deny_read),
            allow_read=tuple(cfg.allow_read),
            project_dirs=tuple(cfg.project_dirs),
            home=cfg.home,
            config_dir=cfg.config_dir,
            scratch=state_dir / "sandbox",
            visible=visible,
        )
        argv, placeholders = bwrap_argv(found.path, spec, command)
        with self._lock:
            self._active += 1
        return ConfinedRun(dataclasses.replace(run, argv=tuple(argv)), self, placeholders)

    def _leave(self, placeholders: Placeholders) -> None:
        with self._lock:
            self._active -= 1
            self._pending.append(placeholders)
            if self._active:
                return  # another sandbox may still have a mount on one of them
            pending, self._pending = self._pending, []
        for item in pending:
            item.remove()

    async def _start_proxy(self, state_dir: Path) -> DomainProxy:
        if self._proxy is None:
            from cc.sandbox.proxy import DomainProxy

            proxy = DomainProxy(self.config.allowed_domains, state_dir / "proxy.sock")
            await proxy.start()
            self._proxy = proxy
        return self._proxy

    async def close(self) -> None:
        if self._proxy is not None:
            await self._proxy.close()
            self._proxy = None
