"""Find sessions: the newest one for `-c`, a list for the resume picker, one by id for
`-r <id>`. Files are skimmed, not loaded: the picker reads the head for the first prompt
and scans lines for a count without parsing them (only candidate lines are parsed)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cc.session.paths import find_project_dir, is_session_id, projects_root

HEAD_BYTES = 65536
MAX_PROMPT_CHARS = 200

_TYPE_RE = re.compile(rb'"type":\s*"(user|assistant)"')
_MESSAGE_ID_RE = re.compile(rb'"id":\s*"([^"]+)"')
_META_RE = re.compile(rb'"(?:isMeta|isCompactSummary|isSidechain)":\s*true')
_TITLE_RE = re.compile(rb'"(customTitle|aiTitle)":\s*"((?:[^"\\]|\\.)*)"')
_SUMMARY_RE = re.compile(rb'^\{[^\n]*"type":\s*"summary"')
_COMMAND_RE = re.compile(r"<command-name>(.*?)</command-name>")
_SKIPPED_PROMPT_RE = re.compile(
    r"^(?:<local-command-stdout>|<local-command-caveat>|<session-start-hook>|"
    r"<system-reminder>|\[Request interrupted by user)"
)


@dataclass
class SessionInfo:
    session_id: str
    path: Path
    #: The first thing the user typed ("" if nothing yet), on one line, at most 200 chars.
    first_prompt: str
    modified: datetime
    #: Prompts typed plus assistant messages (tool results and meta lines not counted).
    message_count: int
    #: The session's title (`custom-title`, `ai-title` or `summary` line), if it has one.
    summary: str | None


def session_files(folder: Path) -> list[Path]:
    """Transcripts in `folder` (uuid-named, not empty), newest first."""
    found = []
    try:
        entries = list(folder.iterdir())
    except OSError:
        return []
    for path in entries:
        if path.suffix != ".jsonl" or not is_session_id(path.stem):
            continue
        try:
            st = path.stat()
        except OSError:
            continue
        if st.st_size > 0:
            found.append((st.st_mtime, path))
    return [p for _, p in sorted(found, key=lambda t: t[0], reverse=True)]


def find_latest_session(cwd: Path, config: Path) -> Path | None:
    """The most recently written conversation started in `cwd`, for `--continue`."""
    folder = find_project_dir(cwd, config)
    if folder is None:
        return None
    for path in session_files(folder):
        head = _read_head(path)
        if head is not None and _is_conversation(head):
            return path
    return None


def list_sessions(cwd: Path, config: Path, limit: int = 50) -> list[SessionInfo]:
    """The conversations started in `cwd`, newest first."""
    folder = find_project_dir(cwd, config)
    if folder is None:
        return []
    infos = []
    for path in session_files(folder):
        if len(infos) >= limit:
            break
        info = _skim(path)
        if info is not None:
            infos.append(info)
    return infos


def find_session_by_id(config: Path, session_id: str, cwd: Path) -> Path | None:
    """The transcript of `session_id`: in `cwd`'s project folder first, then any."""
    if not is_session_id(session_id):
        return None
    name = f"{session_id}.jsonl"
    here = find_project_dir(cwd, config)
    if here is not None and (here / name).is_file():
        return here / name
    try:
        folders = sorted(p for p in projects_root(config).iterdir() if p.is_dir())
    except OSError:
        return None
    for folder in folders:
        if (folder / name).is_file():
            return folder / name
    return None


# -- skimming -----------------------------------------------------------------------------


def _read_head(path: Path) -> bytes | None:
    try:
        with path.open("rb") as f:
            return f.read(HEAD_BYTES)
    except OSError:
        return None


def _is_conversation(head: bytes) -> bool:
    first = head.split(b"\n", 1)[0]
    if re.search(rb'"isSidechain":\s*true', first):
        return False
    return _TYPE_RE.search(head) is not None or len(head) >= HEAD_BYTES


def _skim(path: Path) -> SessionInfo | None:
    try:
        data = path.read_bytes()
        mtime = path.stat().st_mtime
    except OSError:
        return None
    lines = data.split(b"\n")
    if lines and re.search(rb'"isSidechain":\s*true', lines[0]):
        return None
    prompts = 0
    message_ids: set[bytes] = set()
    first_prompt = ""
    command = ""
    title: str | None = None
    summary: str | None = None
    for line in lines:
        kind = _TYPE_RE.search(line)
        if kind is None:
            title = _title(line) or title
            if _SUMMARY_RE.match(line):
                summary = _field(line, "summary") or summary
            continue
        if kind.group(1) == b"assistant":
            found = _MESSAGE_ID_RE.search(line)
            message_ids.add(found.group(1) if found else line)
            continue
        if b'"tool_result"' in line or _META_RE.search(line):
            continue
        prompts += 1
        if not first_prompt:
            text = _prompt_text(line)
            cmd = _COMMAND_RE.search(text)
            if cmd:
                command = command or cmd.group(1)
            elif text and not _SKIPPED_PROMPT_RE.match(text):
                first_prompt = text
    count = prompts + len(message_ids)
    if count == 0:
        return None
    return SessionInfo(
        session_id=path.stem,
        path=path,
        first_prompt=_clip(first_prompt or command),
        modified=datetime.fromtimestamp(mtime, UTC),
        message_count=count,
        summary=title or summary,
    )


def _prompt_text(line: bytes) -> str:
    try:
        entry = json.loads(line)
    except ValueError:
        return ""
    message = entry.get("message") if isinstance(entry, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content.strip()
    if isinstance(content, list):
        texts = [
            b["text"]
            for b in content
            if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
        ]
        return "\n".join(texts).strip()
    return ""


def _title(line: bytes) -> str | None:
    found = None
    for match in _TITLE_RE.finditer(line):
        found = _unescape(match.group(2))
    return found


def _field(line: bytes, key: str) -> str | None:
    try:
        entry: Any = json.loads(line)
    except ValueError:
        return None
    value = entry.get(key) if isinstance(entry, dict) else None
    return value if isinstance(value, str) and value else None


def _unescape(raw: bytes) -> str:
    try:
        value = json.loads(b'"' + raw + b'"')
    except ValueError:
        return raw.decode("utf-8", "replace")
    return value if isinstance(value, str) else ""


def _clip(text: str) -> str:
    text = " ".join(text.split())
    if len(text) > MAX_PROMPT_CHARS:
        return text[:MAX_PROMPT_CHARS].rstrip() + "…"
    return text
