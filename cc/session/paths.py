"""Where transcripts live: `<config>/projects/<encoded cwd>/<session-id>.jsonl` (and a
session's saved large tool outputs: `<session-id>/tool-results/` beside it).

The encoded cwd is the canonical cwd (realpath, NFC) with every character that is not
an ASCII letter or digit turned into `-` (`/home/u/my_proj.v2` -> `-home-u-my-proj-v2`).
Claude Code does this in JavaScript, over UTF-16 code units, so a character outside the
BMP becomes `--`; we do the same. A name longer than 200 characters is cut to 200 and
`-<hash>` is appended (the JS 32-bit string hash, in base 36).
`CLAUDE_CODE_PROJECT_DIR_NAME` overrides the name (Claude Code 2.1.234+).
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterator, Mapping
from pathlib import Path

PROJECTS = "projects"
MAX_NAME_LENGTH = 200
PROJECT_DIR_ENV = "CLAUDE_CODE_PROJECT_DIR_NAME"

_UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.I)
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def is_session_id(text: str) -> bool:
    """Whether `text` is a UUID, the only shape a session id (and file stem) takes."""
    return bool(_UUID_RE.match(text))


def canonical_cwd(cwd: Path | str) -> str:
    try:
        resolved = os.path.realpath(cwd)
    except OSError:
        resolved = os.path.abspath(cwd)
    return unicodedata.normalize("NFC", resolved)


def _utf16_units(text: str) -> Iterator[int]:
    data = text.encode("utf-16-le", errors="surrogatepass")
    for i in range(0, len(data), 2):
        yield data[i] | (data[i + 1] << 8)


def js_string_hash(text: str) -> str:
    """JavaScript's `h = (h << 5) - h + charCodeAt(i) | 0`, absolute value, base 36."""
    h = 0
    for unit in _utf16_units(text):
        h = ((h << 5) - h + unit) & 0xFFFFFFFF
    if h >= 0x80000000:
        h -= 0x100000000
    h = abs(h)
    digits = ""
    while True:
        h, rest = divmod(h, 36)
        digits = _BASE36[rest] + digits
        if h == 0:
            return digits


def _sanitize_char(ch: str) -> str:
    if ch.isascii() and ch.isalnum():
        return ch
    return "--" if ord(ch) > 0xFFFF else "-"  # a surrogate pair is two JS characters


def sanitize(name: str) -> str:
    """`name` with every non-alphanumeric UTF-16 unit made `-`, cut and hashed past 200."""
    sanitized = "".join(_sanitize_char(ch) for ch in name)
    if len(sanitized) <= MAX_NAME_LENGTH:
        return sanitized
    return f"{sanitized[:MAX_NAME_LENGTH]}-{js_string_hash(name)}"


def projects_root(config: Path) -> Path:
    return Path(config) / PROJECTS


def project_dir(cwd: Path, config: Path, *, env: Mapping[str, str] | None = None) -> Path:
    """The folder holding the transcripts of sessions started in `cwd`."""
    override = (os.environ if env is None else env).get(PROJECT_DIR_ENV)
    name = sanitize(override) if override else sanitize(canonical_cwd(cwd))
    return projects_root(config) / name


def session_path(cwd: Path, config: Path, session_id: str) -> Path:
    return project_dir(cwd, config) / f"{session_id}.jsonl"


def tool_results_dir(transcript: Path) -> Path:
    """Where a session's large tool outputs are saved: `<session-id>/tool-results/`
    beside its transcript `<session-id>.jsonl`."""
    return transcript.with_suffix("") / "tool-results"


def find_project_dir(cwd: Path, config: Path) -> Path | None:
    """The existing project folder of `cwd`; for a long path, any folder with its prefix
    (another implementation may have hashed the path differently)."""
    exact = project_dir(cwd, config)
    if exact.is_dir():
        return exact
    if len(exact.name) <= MAX_NAME_LENGTH:
        return None
    prefix = exact.name[:MAX_NAME_LENGTH] + "-"
    try:
        for entry in sorted(projects_root(config).iterdir()):
            if entry.is_dir() and entry.name.startswith(prefix):
                return entry
    except OSError:
        pass
    return None
