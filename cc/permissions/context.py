"""Everything permission checks depend on, gathered once from settings and flags.

Rules come from each settings file (anchored where that file's `/path` patterns start:
the config folder for user settings, the project root for `.claude/settings.json`, the
working folder for `.claude/settings.local.json`, the file's folder for `--settings
<file>`), from `--allowedTools` / `--disallowedTools`, and from "always" answers. Bad
rules and missing folders become warnings, never errors.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cc.config.settings import Settings, SettingsFile, settings_paths
from cc.permissions.paths import Scope, norm
from cc.permissions.rules import BEHAVIORS, RuleSet, parse_rule
from cc.permissions.verdict import MODES, normalize_mode


@dataclass
class PermissionContext:
    cwd: Path
    config_dir: Path
    mode: str = "default"
    rules: RuleSet = field(default_factory=RuleSet)
    additional_dirs: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    home: Path = field(default_factory=Path.home)
    #: Where "always" answers are saved.
    local_settings: Path | None = None
    #: `permissions.disableBypassPermissionsMode: "disable"` was set.
    bypass_disabled: bool = False
    #: The shell's current folder (it can `cd` between calls); relative paths in Bash
    #: commands start there. Default: `cwd`.
    shell_cwd: Callable[[], Path] | None = None
    #: The project's memory folder: the file tools read and write in it without asking
    #: (a deny rule still wins). None: memory is off, or this agent may not write it.
    memory_dir: Path | None = None
    #: The plan file (`cc.tools.plan_file`): Write and Edit of it run without asking, in
    #: plan mode too (a deny or ask rule still wins). None: this agent has none.
    plan_file: Path | None = None

    def scope(self) -> Scope:
        return Scope(self.cwd, tuple(self.additional_dirs), self.home, self.config_dir,
                     self.memory_dir)

    def add_rule_texts(self, behavior: str, texts: list[str], *, source: str,
                       anchor: Path | None = None) -> list[str]:
        """Parse and add rules; returns the warnings."""
        warnings = []
        for text in texts:
            rule, warning = parse_rule(text, behavior, source=source, anchor=anchor or self.cwd,
                                       cwd=self.cwd)
            if warning:
                warnings.append(warning)
            if rule is not None:
                self.rules.add(rule)
        return warnings


def build_permission_context(
    settings: Settings,
    *,
    cwd: Path,
    config_dir: Path,
    mode: str,
    allowed_tools: list[str],
    disallowed_tools: list[str],
    add_dirs: list[str],
    home: Path | None = None,
) -> PermissionContext:
    ctx = PermissionContext(cwd=Path(cwd), config_dir=Path(config_dir),
                            home=home or Path.home(),
                            local_settings=settings_paths(Path(cwd), Path(config_dir))["local"])
    for file in settings.files:
        _add_file(ctx, file)
    ctx.warnings += ctx.add_rule_texts("allow", list(allowed_tools), source="cliArg")
    ctx.warnings += ctx.add_rule_texts("deny", list(disallowed_tools), source="cliArg")
    for raw in add_dirs:
        _add_dir(ctx, raw, "--add-dir")
    perms = settings.get("permissions")
    ctx.bypass_disabled = isinstance(perms, dict) and perms.get(
        "disableBypassPermissionsMode") == "disable"
    ctx.mode = _mode(ctx, mode)
    return ctx


def _anchor(ctx: PermissionContext, file: SettingsFile) -> Path:
    if file.source == "user":
        return ctx.config_dir
    if file.path is None or file.source == "local":
        return ctx.cwd
    if file.source == "flagSettings":
        return file.path.parent
    return file.path.parent.parent  # <root>/.claude/settings.json → <root>


def _add_file(ctx: PermissionContext, file: SettingsFile) -> None:
    label = str(file.path) if file.path else "--settings"
    perms: Any = file.data.get("permissions")
    if perms is None:
        return
    if not isinstance(perms, dict):
        ctx.warnings.append(f"Ignored permissions in {label}: it must be an object")
        return
    anchor = _anchor(ctx, file)
    for behavior in BEHAVIORS:
        texts = perms.get(behavior, [])
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            ctx.warnings.append(f"Ignored permissions.{behavior} in {label}: it must be a list "
                                "of rule strings")
            continue
        ctx.warnings += ctx.add_rule_texts(behavior, texts, source=file.source, anchor=anchor)
    dirs = perms.get("additionalDirectories", [])
    if not isinstance(dirs, list):
        ctx.warnings.append(f"Ignored permissions.additionalDirectories in {label}: it must "
                            "be a list of paths")
        return
    for raw in dirs:
        _add_dir(ctx, raw, f"permissions.additionalDirectories in {label}")


def _add_dir(ctx: PermissionContext, raw: Any, where: str) -> None:
    if not isinstance(raw, str) or not raw.strip():
        ctx.warnings.append(f"Ignored a bad folder in {where}: {raw!r}")
        return
    path = Path(raw).expanduser()
    path = path if path.is_absolute() else ctx.cwd / path
    if not path.is_dir():
        ctx.warnings.append(f"Ignored {where} {raw}: it is not an existing folder")
        return
    path = Path(norm(path))  # `..` folded; symlinks kept (checks look at both spellings)
    if path not in ctx.additional_dirs:
        ctx.additional_dirs.append(path)


def _mode(ctx: PermissionContext, mode: str) -> str:
    mode = normalize_mode(mode)
    if mode not in MODES:
        ctx.warnings.append(f"Permission mode {mode!r} is not supported here; using default")
        return "default"
    if mode == "bypassPermissions" and ctx.bypass_disabled:
        ctx.warnings.append("bypassPermissions mode is disabled by settings; using default")
        return "default"
    return mode
