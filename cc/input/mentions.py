"""`@path` mentions: a file named in a prompt travels with it, no Read tool call needed.

    "explain @src/calc.py"  ->  UserMessage([
        TextBlock("explain @src/calc.py"),
        TextBlock("<system-reminder>\\nContents of src/calc.py:\\n1\\tdef add(a, b):\\n…"),
    ])

Paths are relative to the working folder (absolute and `~/` paths work too), may be
quoted (`@"my file.txt"`) and may carry a line range (`@calc.py#L10-20`). A mention of
a path that does not exist stays plain text. A folder gets a listing. The REPL, print
mode and custom commands all use `expand_mentions()`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from cc.models.content_blocks import TextBlock
from cc.models.messages import UserMessage, system_reminder
from cc.tools.read_text import DEFAULT_LIMIT, number_lines, read_window

#: Folders never offered or listed: version control and dependency trees.
SKIP_DIRS = frozenset({".git", "node_modules", "__pycache__", ".venv", ".mypy_cache",
                       ".pytest_cache", ".ruff_cache", ".tox", ".hg", ".svn"})
MAX_LISTED = 200
_MENTION = re.compile(r'(?<!\S)@(?:"([^"\n]+)"(#L\d+(?:-\d+)?)?|([^\s"]+))')
_RANGE = re.compile(r"#L(\d+)(?:-(\d+))?$")
_TRAILING = ".,;:!?)]}'\""


@dataclass(frozen=True)
class Mention:
    raw: str  #: as typed, without the "@" (quotes and range dropped)
    path: Path  #: absolute
    first_line: int | None = None
    last_line: int | None = None


def find_mentions(text: str, cwd: Path) -> list[Mention]:
    """Mentions in `text` that name an existing file or folder, each once, in order."""
    out: list[Mention] = []
    seen: set[tuple[Path, int | None, int | None]] = set()
    for match in _MENTION.finditer(text):
        quoted = match.group(1)
        token = quoted + (match.group(2) or "") if quoted else match.group(3)
        mention = _resolve(token, cwd, quoted=bool(quoted))
        if mention is None:
            continue
        key = (mention.path, mention.first_line, mention.last_line)
        if key not in seen:
            seen.add(key)
            out.append(mention)
    return out


def _resolve(token: str, cwd: Path, *, quoted: bool) -> Mention | None:
    candidates = [token]
    if not quoted:  # "look at @a.py, then…": the comma is not part of the path
        stripped = token.rstrip(_TRAILING)
        if stripped and stripped != token:
            candidates.append(stripped)
    for raw in candidates:
        first = last = None
        ranged = _RANGE.search(raw)
        if ranged:
            first = int(ranged.group(1))
            last = int(ranged.group(2)) if ranged.group(2) else first
            raw = raw[: ranged.start()]
        if not raw:
            continue
        path = Path(raw).expanduser()
        path = path if path.is_absolute() else cwd / path
        if path.exists():
            return Mention(raw, Path(os.path.normpath(path)), first, last)
    return None


def mention_blocks(text: str, cwd: Path) -> list[TextBlock]:
    """One reminder block per mentioned file or folder (nothing for other `@` words)."""
    return [TextBlock(_reminder(m)) for m in find_mentions(text, cwd)]


def expand_mentions(text: str, cwd: Path, *, is_meta: bool = False) -> UserMessage:
    """The user message for `text`: the text as typed, then the mentioned contents."""
    return UserMessage([TextBlock(text), *mention_blocks(text, cwd)], is_meta=is_meta)


def _reminder(m: Mention) -> str:
    return system_reminder(_contents(m))


def _contents(m: Mention) -> str:
    if m.path.is_dir():
        return _listing(m)
    start = max(1, m.first_line or 1)
    limit = (m.last_line - start + 1) if m.last_line else DEFAULT_LIMIT
    try:
        window = read_window(m.path, start, max(1, limit))
    except OSError as exc:
        return f"{m.raw} could not be read: {exc.strerror or exc}."
    if window is None:
        return f"{m.raw} is a binary file; its contents are not included."
    head = f"Contents of {m.raw}"
    if m.first_line:
        head += f" (lines {start}-{start + max(len(window.lines) - 1, 0)})"
    body = number_lines(window.lines, start) if window.lines else "(empty file)"
    note = ""
    if window.more_after and not m.last_line:
        note = (
            f"\n(Showing the first {len(window.lines)} of {window.total} lines; "
            "use the Read tool for the rest.)"
        )
    return f"{head}:\n{body}{note}"


def _listing(m: Mention) -> str:
    try:
        with os.scandir(m.path) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError as exc:
        return f"{m.raw} could not be listed: {exc.strerror or exc}."
    names = [e.name + ("/" if e.is_dir() else "") for e in entries if e.name not in SKIP_DIRS]
    shown = names[:MAX_LISTED]
    more = f"\n… and {len(names) - len(shown)} more" if len(names) > len(shown) else ""
    body = "\n".join(f"- {n}" for n in shown) or "(empty folder)"
    return f"Contents of the folder {m.raw.rstrip('/')}/:\n{body}{more}"


def project_files(cwd: Path, limit: int = 5000, *, respect_gitignore: bool = True) -> list[str]:
    """Paths under `cwd`, relative and "/"-separated, folders ending in "/" (for completion);
    what the `.gitignore` files met on the way ignore is left out unless
    `respect_gitignore` (settings `respectGitignore`) is False."""
    return list(_walk(cwd, limit, respect_gitignore))


def _walk(cwd: Path, limit: int, respect_gitignore: bool) -> Iterator[str]:
    from cc.tools.search_fallback import GitIgnores

    ignores = GitIgnores()
    count = 0
    for root, dirs, files in os.walk(cwd):
        rel = os.path.relpath(root, cwd)
        prefix = "" if rel == "." else rel.replace(os.sep, "/") + "/"
        if respect_gitignore:
            ignores.load(prefix.rstrip("/"), Path(root))
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS
                         and not (respect_gitignore and ignores.ignored(prefix + d, True)))
        kept = [f for f in sorted(files)
                if not (respect_gitignore and ignores.ignored(prefix + f, False))]
        for name in [d + "/" for d in dirs] + kept:
            yield prefix + name
            count += 1
            if count >= limit:
                return
