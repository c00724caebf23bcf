"""The health report of `cc doctor` and `/doctor`: the install, each settings file
(missing, valid, or why not), the key, the MCP servers (configured, or their state in a
running session) and the Bash sandbox.

    report = diagnose(cwd, config_dir, env, mcp_states=None)
    report.lines    what to print
    report.issues   how many problems it found (each line starting "✗")
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cc.app.auth_status import AuthState

__all__ = ["DoctorReport", "diagnose"]

OK, BAD, NOTE = "✓", "✗", "·"


@dataclass
class DoctorReport:
    lines: list[str] = field(default_factory=list)
    issues: int = 0

    def section(self, title: str) -> None:
        if self.lines:
            self.lines.append("")
        self.lines.append(title)

    def good(self, text: str) -> None:
        self.lines.append(f"  {OK} {text}")

    def bad(self, text: str) -> None:
        self.issues += 1
        self.lines.append(f"  {BAD} {text}")

    def note(self, text: str) -> None:
        self.lines.append(f"  {NOTE} {text}")

    @property
    def verdict(self) -> str:
        if not self.issues:
            return "No issues found."
        return f"{self.issues} issue{'s' if self.issues != 1 else ''} found."


def diagnose(cwd: Path, config_dir: Path, env: Mapping[str, str], *,
             mcp_states: Sequence[Mapping[str, str]] | None = None,
             auth: AuthState | None = None) -> DoctorReport:
    """The report; `mcp_states` are a running session's servers (`McpHub.statuses()`),
    None to list the configured ones; `auth` what a running session authenticates with
    (None: found from `env` and the settings)."""
    report = DoctorReport()
    _install(report, config_dir)
    settings = _settings(report, cwd, config_dir)
    _auth(report, env, settings, auth)
    _mcp(report, cwd, config_dir, env, mcp_states)
    _sandbox(report, settings, env)
    report.lines += ["", report.verdict]
    return report


def _install(report: DoctorReport, config_dir: Path) -> None:
    import cc

    report.section("Install")
    report.note(f"Version: cc {cc.__version__} (Python {sys.version.split()[0]})")
    report.note(f"Package: {Path(cc.__file__).parent}")
    report.note(f"Python: {sys.executable}")
    report.note(f"Config directory: {config_dir}")
    report.note("Updates: cc does not update itself (`cc update` says how)")
    if sys.version_info < (3, 11):
        report.bad("Python 3.11 or newer is needed")


def _settings(report: DoctorReport, cwd: Path, config_dir: Path) -> dict[str, Any]:
    from cc.config.settings import merge_settings, parse_settings_text, settings_paths

    report.section("Settings")
    merged: dict[str, Any] = {}
    for source, path in settings_paths(cwd, config_dir).items():
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            report.note(f"{source}: {path} (none)")
            continue
        except OSError as exc:
            report.bad(f"{source}: {path}: cannot be read ({exc.strerror or exc})")
            continue
        data, problem = parse_settings_text(text)
        if data is None:
            report.bad(f"{source}: {path}: {problem} (skipped)")
            continue
        report.good(f"{source}: {path}")
        merge_settings(merged, data)  # (as a session merges them)
    return merged


def _auth(report: DoctorReport, env: Mapping[str, str], settings: Mapping[str, Any],
          state: AuthState | None) -> None:
    from cc.app.auth_status import auth_state, status_text

    report.section("Authentication")
    state = state or auth_state(env, settings)
    if state.logged_in:
        report.good(status_text(state))
    else:
        report.bad("No API key: set ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN or apiKeyHelper")
    base = env.get("ANTHROPIC_BASE_URL")
    if base:
        report.note(f"API endpoint: {base}")


def _mcp(report: DoctorReport, cwd: Path, config_dir: Path, env: Mapping[str, str],
         states: Sequence[Mapping[str, str]] | None) -> None:
    report.section("MCP servers")
    if states is not None:
        for s in states:
            line = f"{s['name']} ({s.get('source', '?')}): {s['status']}"
            (report.bad if s["status"] == "failed" else report.good)(line)
        if not states:
            report.note("none in this session")
        return
    from cc.mcp.config import load_servers

    found = load_servers(cwd, config_dir, env=env)
    for name, entry in found.servers.items():
        kind = getattr(entry.config, "type", None) or entry.raw.get("type") or "stdio"
        report.note(f"{name} ({entry.scope}, {kind}): configured; not started here "
                    "(`cc mcp list` checks each)")
    for problem in found.problems:
        report.bad(problem)
    if not found.servers and not found.problems:
        report.note("none configured")


def _sandbox(report: DoctorReport, settings: Mapping[str, Any], env: Mapping[str, str]) -> None:
    from cc.sandbox.bwrap import INSTALL_HINT, find_bubblewrap

    report.section("Sandbox")
    sandbox = settings.get("sandbox")
    enabled = isinstance(sandbox, dict) and sandbox.get("enabled") is True
    found = find_bubblewrap(env)
    if found.usable:
        report.good(f"bubblewrap: {found.path} (version {found.version or 'unknown'})")
    elif enabled:
        report.bad(f"bubblewrap unavailable: {found.problem}; {INSTALL_HINT}")
    else:
        report.note(f"bubblewrap unavailable: {found.problem}")
    report.note("Bash sandbox: " + ("enabled in settings" if enabled else "off (settings: "
                                    "\"sandbox\": {\"enabled\": true})"))
