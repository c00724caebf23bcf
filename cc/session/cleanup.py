"""Start-up retention: delete transcripts not written for `cleanupPeriodDays` days.

What goes: `<config>/projects/*/*.jsonl` whose mtime is older than the period, and each
such session's own folder (`<project>/<session-id>/`: subagent transcripts, spilled tool
results) and its checkpoints (`<config>/file-history/<session-id>/`). What stays: the
current session's transcript (`keep`), every project's `memory/` folder, and anything
outside `projects/` and `file-history/` (`history.jsonl` included).
`cleanupPeriodDays` must be an integer of at least 1 (Claude Code rejects 0 nowadays);
anything else is ignored with a warning and the default applies.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from cc.session.paths import is_session_id, projects_root

DEFAULT_CLEANUP_DAYS = 30
_SECONDS_PER_DAY = 86400
_PROTECTED = frozenset({"memory"})


def cleanup_transcripts(
    config: Path, days: int | None, keep: Path | None, *, now: float | None = None
) -> tuple[int, list[str]]:
    """Delete old transcripts; (how many were deleted, warnings)."""
    warnings = []
    if days is None:
        days = DEFAULT_CLEANUP_DAYS
    elif isinstance(days, bool) or not isinstance(days, int) or days < 1:
        warnings.append(
            f"cleanupPeriodDays must be a whole number of at least 1 (got {days!r}); "
            f"using {DEFAULT_CLEANUP_DAYS}."
        )
        days = DEFAULT_CLEANUP_DAYS
    cutoff = (time.time() if now is None else now) - days * _SECONDS_PER_DAY
    keep_resolved = _resolve(keep) if keep is not None else None
    deleted = 0
    try:
        projects = sorted(p for p in projects_root(config).iterdir() if p.is_dir())
    except OSError:
        return 0, warnings
    for project in projects:
        if project.name in _PROTECTED:
            continue
        for transcript in sorted(project.glob("*.jsonl")):
            if keep_resolved is not None and _resolve(transcript) == keep_resolved:
                continue
            try:
                if not transcript.is_file() or transcript.stat().st_mtime >= cutoff:
                    continue
                transcript.unlink()
            except FileNotFoundError:
                continue  # another session cleaned it up first
            except OSError as exc:
                warnings.append(f"Could not delete old transcript {transcript}: {exc}")
                continue
            deleted += 1
            _remove_session_folder(project / transcript.stem, warnings)
            _remove_session_folder(config / "file-history" / transcript.stem, warnings)
    return deleted, warnings


def _remove_session_folder(folder: Path, warnings: list[str]) -> None:
    if folder.name in _PROTECTED or not is_session_id(folder.name):
        return
    if folder.is_dir() and not folder.is_symlink():
        try:
            shutil.rmtree(folder)
        except FileNotFoundError:
            pass
        except OSError as exc:
            warnings.append(f"Could not delete {folder}: {exc}")


def _resolve(path: Path) -> Path:
    try:
        return Path(path).resolve()
    except OSError:
        return Path(path).absolute()
