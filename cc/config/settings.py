"""Settings files: user, project, local and `--settings`, merged.

Later sources win key by key (local over project over user, `--settings` over
all); permission lists are concatenated, and `sandbox` merges deeply (objects key by
key, lists concatenated). A file that does not parse is skipped
with a warning that names it and the line, never a crash. `add_permission_rules`
appends rules to one file ("always" answers go to `.claude/settings.local.json`);
`edit_settings_file` changes one file's keys, keeping the rest.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SOURCES = ("user", "project", "local")


@dataclass
class SettingsFile:
    source: str
    path: Path | None
    data: dict[str, Any]


@dataclass
class Settings:
    merged: dict[str, Any] = field(default_factory=dict)
    files: list[SettingsFile] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def get(self, key: str, default: Any = None) -> Any:
        return self.merged.get(key, default)


def settings_paths(cwd: Path, config: Path) -> dict[str, Path]:
    return {
        "user": config / "settings.json",
        "project": cwd / ".claude" / "settings.json",
        "local": cwd / ".claude" / "settings.local.json",
    }


def load_settings(
    cwd: Path,
    config: Path,
    *,
    flag_settings: str | None = None,
    sources: Sequence[str] = SOURCES,
) -> Settings:
    out = Settings()
    for source, path in settings_paths(cwd, config).items():
        if source in sources:
            _add_file(out, source, path)
    if flag_settings:
        text = flag_settings.strip()
        if text.startswith("{"):
            _add_text(out, "flagSettings", None, text, "--settings")
        else:
            _add_file(out, "flagSettings", Path(text).expanduser(), required=True)
    return out


def _add_file(out: Settings, source: str, path: Path, *, required: bool = False) -> None:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        if required:
            out.warnings.append(f"Settings file not found: {path}")
        return
    except OSError as exc:
        out.warnings.append(f"Could not read settings file {path}: {exc.strerror or exc}")
        return
    _add_text(out, source, path, text, str(path))


def _add_text(out: Settings, source: str, path: Path | None, text: str, label: str) -> None:
    if not text.strip():
        return
    data, problem = parse_settings_text(text)
    if data is None:
        out.warnings.append(f"Skipped settings in {label}: {problem}")
        return
    out.files.append(SettingsFile(source, path, data))
    merge_settings(out.merged, data)


def parse_settings_text(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """A settings file's object, or (None, why it cannot be used): strict JSON, an
    object at the top (an empty text is an empty object)."""
    if not text.strip():
        return {}, None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
    if not isinstance(data, dict):
        return None, "the top level must be an object"
    return data, None


def merge_settings(into: dict[str, Any], data: dict[str, Any]) -> None:
    """`data` over `into`, as a later source over earlier ones: permission rule lists
    join, `env` and `sandbox` merge key by key, anything else replaces."""
    for key, value in data.items():
        if key == "permissions" and isinstance(value, dict):
            perms = into.setdefault("permissions", {})
            for pkey, pvalue in value.items():
                if isinstance(pvalue, list):
                    merged = list(perms.get(pkey, [])) + [v for v in pvalue]
                    perms[pkey] = list(dict.fromkeys(merged)) if _hashable(merged) else merged
                else:
                    perms[pkey] = pvalue
        elif key == "env" and isinstance(value, dict):
            into.setdefault("env", {}).update(value)
        elif key == "sandbox" and isinstance(value, dict):
            into["sandbox"] = _deep_merge(into.get("sandbox"), value)
        else:
            into[key] = value


def _deep_merge(base: Any, value: Any) -> Any:
    """Objects merge key by key, lists concatenate (without repeats), anything else replaces."""
    if isinstance(base, dict) and isinstance(value, dict):
        out = dict(base)
        for key, item in value.items():
            out[key] = _deep_merge(base.get(key), item)
        return out
    if isinstance(base, list) and isinstance(value, list):
        merged = base + value
        return list(dict.fromkeys(merged)) if _hashable(merged) else merged
    return value


def _hashable(items: list[Any]) -> bool:
    return all(isinstance(i, (str, int, float, bool)) for i in items)


def add_permission_rules(path: Path, behavior: str, rules: Sequence[str]) -> str | None:
    """Append `rules` to `permissions.<behavior>` in the JSON file at `path`.

    Creates the file and its folders; keeps every other key. A file that does not parse
    (or has the wrong shape) is left untouched. Returns a warning, or None on success.
    """

    def add(data: dict[str, Any]) -> str | None:
        perms = data.setdefault("permissions", {})
        current = perms.setdefault(behavior, []) if isinstance(perms, dict) else None
        if not isinstance(current, list):
            return f"permissions.{behavior} is not a list there"
        current.extend(r for r in dict.fromkeys(rules) if r not in current)
        return None

    return edit_settings_file(path, add, "; the rules apply to this session only")


def edit_settings_file(path: Path, edit: Callable[[dict[str, Any]], str | None],
                       keep: str = "") -> str | None:
    """Change the JSON object in the settings file at `path` with `edit` (which returns
    why it cannot, or None), and write it back whole; every other key is kept.

    Creates the file and its folders. A file that does not parse, or is not an object,
    is left untouched. Returns a warning (ending with `keep`), or None on success.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    except OSError as exc:
        return f"Could not read {path}: {exc.strerror or exc}{keep}"
    data: Any = {}
    if text.strip():
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            return (f"Did not save to {path}: invalid JSON at line {exc.lineno}, column "
                    f"{exc.colno}: {exc.msg}{keep}")
    if not isinstance(data, dict):
        return f"Did not save to {path}: the top level is not an object{keep}"
    problem = edit(data)
    if problem is not None:
        return f"Did not save to {path}: {problem}{keep}"
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        return f"Could not write {path}: {exc.strerror or exc}{keep}"
    return None
