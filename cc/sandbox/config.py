"""The `sandbox` settings, read once, with every path resolved to where it really is.

    {"sandbox": {"enabled": true, "autoAllowBashIfSandboxed": true,
                 "excludedCommands": ["docker", "git push *"], "allowUnsandboxedCommands": true,
                 "failIfUnavailable": false,
                 "network": {"allowedDomains": ["github.com", "*.npmjs.org"]},
                 "filesystem": {"allowWrite": [...], "denyWrite": [...],
                                "denyRead": [...], "allowRead": [...]}}}

Paths are spelled as in permission rules: `//abs` from the root, `~/x` from home, `/x` from
the root of the settings file that says it (the config folder for user settings, the
project for `.claude/settings*.json`), `./x` or `x` from the working folder. A glob keeps
only its fixed head (`./src/**` is `src`). Edit(...) allow rules add writable paths, Edit(...)
deny rules read-only ones, Read(...) deny rules hidden ones. Bad values become warnings.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cc.config.settings import Settings, SettingsFile
    from cc.permissions.context import PermissionContext

FILESYSTEM_KEYS = ("allowWrite", "denyWrite", "denyRead", "allowRead")
_GLOB = re.compile(r"[*?\[]")


@dataclass
class SandboxConfig:
    enabled: bool = False
    auto_allow: bool = True
    excluded_commands: list[str] = field(default_factory=list)
    allow_unsandboxed: bool = True
    fail_if_unavailable: bool = False
    #: None: no network at all; a list: only these domains, through the session's proxy.
    allowed_domains: list[str] = field(default_factory=list)
    #: Writable inside the sandbox (the project, extra working folders, allowWrite, Edit allows).
    writable: list[Path] = field(default_factory=list)
    deny_write: list[Path] = field(default_factory=list)
    deny_read: list[Path] = field(default_factory=list)
    allow_read: list[Path] = field(default_factory=list)
    #: Folders whose protected files (`.claude/settings.json`, `.git/hooks`, ...) are guarded.
    project_dirs: list[Path] = field(default_factory=list)
    home: Path = field(default_factory=Path.home)
    config_dir: Path | None = None
    warnings: list[str] = field(default_factory=list)


def sandbox_settings(settings: Settings) -> dict[str, Any]:
    value = settings.get("sandbox")
    return value if isinstance(value, dict) else {}


def sandbox_enabled(settings: Settings) -> bool:
    return sandbox_settings(settings).get("enabled") is True


def load_sandbox_config(settings: Settings, permissions: PermissionContext) -> SandboxConfig:
    """The sandbox as the merged settings and the permission rules describe it."""
    raw = sandbox_settings(settings)
    cwd, home = permissions.cwd, permissions.home
    out = SandboxConfig(home=home, config_dir=permissions.config_dir)
    out.enabled = _flag(out, raw, "enabled", False)
    out.auto_allow = _flag(out, raw, "autoAllowBashIfSandboxed", True)
    out.allow_unsandboxed = _flag(out, raw, "allowUnsandboxedCommands", True)
    out.fail_if_unavailable = _flag(out, raw, "failIfUnavailable", False)
    out.excluded_commands = _strings(out, raw.get("excludedCommands"), "excludedCommands")
    network = raw.get("network")
    domains = network.get("allowedDomains") if isinstance(network, dict) else None
    out.allowed_domains = [d.strip().lower() for d in
                           _strings(out, domains, "network.allowedDomains") if d.strip()]
    out.project_dirs = _unique([cwd, *permissions.additional_dirs])
    writable: list[Path] = [cwd, *permissions.additional_dirs]
    lists: dict[str, list[Path]] = {key: [] for key in FILESYSTEM_KEYS}
    for file in settings.files:
        fs = sandbox_settings_of(file).get("filesystem")
        if not isinstance(fs, dict):
            continue
        anchor = _anchor(file, cwd, permissions.config_dir)
        for key in FILESYSTEM_KEYS:
            for spec in _strings(out, fs.get(key), f"filesystem.{key}"):
                path = resolve_spec(spec, anchor=anchor, cwd=cwd, home=home)
                if path is not None:
                    lists[key].append(path)
    for behavior, tool, key in (("allow", "Edit", "allowWrite"), ("deny", "Edit", "denyWrite"),
                                ("deny", "Read", "denyRead")):
        for rule in permissions.rules.of(behavior):
            if rule.tool == tool and rule.specifier and rule.param is None:
                path = resolve_spec(rule.specifier, anchor=rule.anchor, cwd=rule.cwd, home=home)
                if path is not None:
                    lists[key].append(path)
    out.writable = _unique(real(p) for p in writable + lists["allowWrite"])
    out.deny_write = _unique(real(p) for p in lists["denyWrite"])
    out.deny_read = _unique(real(p) for p in lists["denyRead"])
    out.allow_read = _unique(real(p) for p in lists["allowRead"])
    return out


def sandbox_settings_of(file: SettingsFile) -> dict[str, Any]:
    value = file.data.get("sandbox")
    return value if isinstance(value, dict) else {}


def resolve_spec(spec: str, *, anchor: Path, cwd: Path, home: Path) -> Path | None:
    """The folder or file a path spec names (a glob: its fixed head), or None for a bare
    pattern such as `*.env` that names no one place."""
    spec = spec.strip()
    if not spec:
        return None
    if spec.startswith("//"):
        base, rest = Path("/"), spec[2:]
    elif spec == "~" or spec.startswith("~/"):
        base, rest = home, spec[2:]
    elif spec.startswith("/"):
        base, rest = anchor, spec[1:]
    elif spec == "." or spec.startswith("./"):
        base, rest = cwd, spec[2:]
    else:
        base, rest = cwd, spec
    fixed: list[str] = []
    for part in rest.split("/"):
        if _GLOB.search(part):
            break
        if part:
            fixed.append(part)
    if not fixed and rest.strip("/") and base == cwd and not spec.startswith("."):
        return None  # `*.env`: matches anywhere, names no folder
    return Path(os.path.normpath(os.path.join(base, *fixed)))


def real(path: Path) -> Path:
    """`path` with symlinks resolved (as far as it exists)."""
    return Path(os.path.realpath(path))


def _anchor(file: SettingsFile, cwd: Path, config_dir: Path) -> Path:
    if file.source == "user":
        return config_dir
    if file.path is None or file.source == "local":
        return cwd
    if file.source == "flagSettings":
        return file.path.parent
    return file.path.parent.parent


def _flag(out: SandboxConfig, raw: dict[str, Any], key: str, default: bool) -> bool:
    value = raw.get(key, default)
    if isinstance(value, bool):
        return value
    out.warnings.append(f"Ignored sandbox.{key}: it must be true or false")
    return default


def _strings(out: SandboxConfig, value: Any, key: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    out.warnings.append(f"Ignored sandbox.{key}: it must be a list of strings")
    return []


def _unique(paths: Iterable[Path]) -> list[Path]:
    return list(dict.fromkeys(paths))
