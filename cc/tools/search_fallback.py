"""Glob and Grep without ripgrep: a pure-Python walk giving the same answers, more slowly.

Used only when no rg binary can be found. It follows rg's rules closely enough
for everyday searches: `.gitignore` files found while walking are honoured
(their common patterns, not every corner of gitignore), globs have rg's meaning,
and regular expressions are Python's `re` (close to rg's for common patterns).
Binary files (any NUL byte) are skipped.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path

from cc.tools.ripgrep import MAX_COLUMNS, FileHits, GrepQuery, SearchError

#: A few of rg's file types (see `rg --type-list`), for the `type` filter.
TYPE_GLOBS: dict[str, tuple[str, ...]] = {
    "c": ("*.c", "*.h"),
    "cpp": ("*.cpp", "*.cc", "*.cxx", "*.hpp", "*.hh", "*.hxx", "*.h"),
    "cs": ("*.cs",),
    "css": ("*.css",),
    "go": ("*.go",),
    "html": ("*.html", "*.htm"),
    "java": ("*.java",),
    "js": ("*.js", "*.jsx", "*.mjs", "*.cjs", "*.vue"),
    "json": ("*.json",),
    "kotlin": ("*.kt", "*.kts"),
    "lua": ("*.lua",),
    "md": ("*.md", "*.markdown", "*.mdx"),
    "markdown": ("*.md", "*.markdown", "*.mdx"),
    "php": ("*.php",),
    "py": ("*.py", "*.pyi"),
    "rb": ("*.rb", "Gemfile", "Rakefile"),
    "ruby": ("*.rb", "Gemfile", "Rakefile"),
    "rust": ("*.rs",),
    "sh": ("*.sh", "*.bash", "*.zsh"),
    "sql": ("*.sql",),
    "swift": ("*.swift",),
    "toml": ("*.toml",),
    "ts": ("*.ts", "*.tsx", "*.mts", "*.cts"),
    "txt": ("*.txt",),
    "yaml": ("*.yaml", "*.yml"),
}


def glob_regex(pattern: str) -> re.Pattern[str]:
    """A regex for a glob over `/`-separated paths: `*`, `?`, `**`, `[...]`, `{a,b}`."""
    return re.compile(_translate(pattern), re.DOTALL)


def _translate(p: str) -> str:
    out: list[str] = []
    i, n = 0, len(p)
    while i < n:
        c = p[i]
        if p.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if p.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(p[i]))
        elif c == "[" and (end := p.find("]", i + 2)) != -1:
            body = p[i + 1 : end]
            negate = body[:1] in ("!", "^")
            body = body[1:] if negate else body
            out.append(("[^" if negate else "[") + body.replace("\\", "\\\\") + "]")
            i = end
        elif c == "{" and (end := p.find("}", i)) != -1:
            choices = p[i + 1 : end].split(",")
            out.append("(?:" + "|".join(_translate(choice) for choice in choices) + ")")
            i = end
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


@dataclass(frozen=True)
class Rule:
    """One gitignore line or rg `--glob` (same syntax): `!` negates, a trailing `/`
    limits it to folders, and a `/` elsewhere anchors it to its base folder."""

    regex: re.Pattern[str]
    negated: bool
    dir_only: bool
    anchored: bool

    @classmethod
    def parse(cls, text: str) -> Rule | None:
        text = text.rstrip()
        if not text or text.startswith("#"):
            return None
        negated = text.startswith("!")
        text = text[1:] if negated else text.removeprefix("\\")
        dir_only = text.endswith("/")
        text = text.rstrip("/")
        anchored = "/" in text
        text = text.lstrip("/")
        if not text:
            return None
        return cls(glob_regex(text), negated, dir_only, anchored)

    def matches(self, rel: str, is_dir: bool) -> bool:
        if self.dir_only and not is_dir:
            return False
        return self.regex.fullmatch(rel if self.anchored else rel.rpartition("/")[2]) is not None


class Overrides:
    """rg's `--glob` rules: later ones win; when any is positive, files must match one."""

    def __init__(self, globs: Collection[str]) -> None:
        self.rules = [r for r in map(Rule.parse, globs) if r is not None]
        self.whitelist = any(not r.negated for r in self.rules)

    def allows_file(self, rel: str) -> bool:
        for rule in reversed(self.rules):
            if rule.matches(rel, False):
                return not rule.negated
        return not self.whitelist

    def prunes_dir(self, rel: str) -> bool:
        for rule in reversed(self.rules):
            if rule.matches(rel, True):
                return rule.negated
        return False


class GitIgnores:
    """The `.gitignore` files met while walking, each applying below its own folder."""

    def __init__(self) -> None:
        self._by_dir: dict[str, list[Rule]] = {}

    def load(self, rel_dir: str, folder: Path) -> None:
        try:
            text = (folder / ".gitignore").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return
        rules = [r for r in map(Rule.parse, text.splitlines()) if r is not None]
        if rules:
            self._by_dir[rel_dir] = rules

    def ignored(self, rel: str, is_dir: bool) -> bool:
        verdict = False
        for base, rules in self._by_dir.items():
            if base and not rel.startswith(base + "/"):
                continue
            sub = rel[len(base) + 1 :] if base else rel
            for rule in rules:
                if rule.matches(sub, is_dir):
                    verdict = not rule.negated
        return verdict


def walk(
    root: Path, *, hidden: bool, skip_dirs: Collection[str], overrides: Overrides
) -> Iterator[tuple[Path, str]]:
    """Files under `root` that rg would visit, as (path, `/`-separated relative path)."""
    ignores = GitIgnores()
    for dirpath, dirnames, filenames in os.walk(root):
        folder = Path(dirpath)
        rel_dir = "" if folder == root else folder.relative_to(root).as_posix()
        ignores.load(rel_dir, folder)
        kept = []
        for name in sorted(dirnames):
            rel = f"{rel_dir}/{name}" if rel_dir else name
            if name in skip_dirs or (not hidden and name.startswith(".")):
                continue
            if ignores.ignored(rel, True) or overrides.prunes_dir(rel):
                continue
            kept.append(name)
        dirnames[:] = kept
        for name in sorted(filenames):
            rel = f"{rel_dir}/{name}" if rel_dir else name
            if not hidden and name.startswith("."):
                continue
            if ignores.ignored(rel, False) or not overrides.allows_file(rel):
                continue
            yield folder / name, rel


def list_files(root: Path, *, hidden: bool, exclude: Collection[str]) -> list[str]:
    """What `rg --files` lists under `root` (exclude: folder names never entered)."""
    found = walk(root, hidden=hidden, skip_dirs=exclude, overrides=Overrides(()))
    return [str(path) for path, _ in found]


def grep(q: GrepQuery, skip_dirs: Collection[str]) -> list[FileHits]:
    """Run `q` like rg (hidden files included) and return what each file contributed."""
    flags = re.MULTILINE | (re.IGNORECASE if q.ignore_case else 0)
    flags |= re.DOTALL if q.multiline else 0
    try:
        regex = re.compile(q.pattern, flags)
    except re.error as e:
        raise SearchError(f"regex parse error: {e}") from None
    types = Overrides(_type_globs(q.file_type))
    if q.root.is_file():  # like rg, a file named outright skips every filter
        candidates: Iterator[tuple[Path, str]] = iter([(q.root, "")])
    else:
        candidates = walk(q.root, hidden=True, skip_dirs=skip_dirs, overrides=Overrides(q.globs))
    hits = []
    for path, rel in candidates:
        if rel and not types.allows_file(rel):
            continue
        text = _read_text(path)
        if text is None:
            continue
        found = _search(q, regex, str(path), text)
        if found is not None:
            hits.append(found)
    return hits


def _type_globs(file_type: str | None) -> list[str]:
    if not file_type:
        return []
    globs = TYPE_GLOBS.get(file_type)
    if globs is None:
        raise SearchError(f"unrecognized file type: {file_type}")
    return list(globs)


def _read_text(path: Path) -> str | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if b"\0" in data:
        return None
    return data.decode("utf-8", errors="replace")


def _search(q: GrepQuery, regex: re.Pattern[str], path: str, text: str) -> FileHits | None:
    lines = text.split("\n")
    if lines and lines[-1] == "" and text:
        lines.pop()
    # Each match as (first line, last line, matched text), lines counted from 0.
    matches: list[tuple[int, int, str]] = []
    if q.multiline:
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line) + 1)
        for m in regex.finditer(text):
            first = _line_at(starts, m.start())
            last = _line_at(starts, max(m.end() - 1, m.start()))
            matches.append((first, last, m.group()))
    else:
        for i, line in enumerate(lines):
            matches += [(i, i, m.group()) for m in regex.finditer(line)]
    if not matches:
        return None
    if q.mode == "files_with_matches":
        return FileHits(path)
    if q.mode == "count":
        return FileHits(path, count=len(matches))
    return FileHits(path, _content_lines(q, path, lines, matches))


def _line_at(starts: list[int], offset: int) -> int:
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _content_lines(
    q: GrepQuery, path: str, lines: list[str], matches: list[tuple[int, int, str]]
) -> list[str]:
    matched: dict[int, list[str]] = {}
    for first, last, found in matches:
        for offset, i in enumerate(range(first, last + 1)):
            piece = found.split("\n")[offset] if q.only_matching else lines[i]
            matched.setdefault(i, []).append(piece)
    shown: set[int] = set()
    for i in matched:
        shown.update(range(max(i - q.before, 0), min(i + q.after, len(lines) - 1) + 1))
    out: list[str] = []
    previous = None
    for i in sorted(shown):
        if previous is not None and i != previous + 1 and (q.before or q.after):
            out.append("--")
        previous = i
        if i in matched:
            pieces = matched[i] if q.only_matching else [lines[i]]
            out += [_format(q, path, ":", i, _clip(piece, "matching")) for piece in pieces]
        else:
            out.append(_format(q, path, "-", i, _clip(lines[i], "context")))
    return out


def _clip(text: str, kind: str) -> str:
    text = text.removesuffix("\r")
    return f"[Omitted long {kind} line]" if len(text.encode()) > MAX_COLUMNS else text


def _format(q: GrepQuery, path: str, kind: str, index: int, text: str) -> str:
    return f"{path}{kind}{index + 1}{kind}{text}" if q.line_numbers else f"{path}{kind}{text}"
