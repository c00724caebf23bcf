"""The built-in tools' definitions kept between runs, so that the first request can go
out before the tools' modules are imported.

A request carries every tool's definition (name, description, input schema). Making
them imports each tool's module, builds its pydantic input model and generates the
model's JSON schema: some 70 ms of a print-mode run's CPU, for definitions that change
only with cc's code. So the definitions of the tools whose definition is fixed by their
code (`is_fixed`) are kept in one file beside cc's bytecode (`cc/__pycache__`), under a
fingerprint of what they are made from: the files of `cc/tools` and of the tools'
descriptions (`cc/prompts/tools`), Python's and pydantic's versions. Any change there
and the file is ignored, the definitions made again. A tool's module is then imported
only when the tool is called.

    SHARED.cached(name)            the definition kept for a tool, or None
    SHARED.keep(tool, definition)  what was just made, kept if the tool's is fixed
    SHARED.save()                  writes the file when something new was kept

Like the dataclasses' cache (`cc.dataclass_cache`), `save()` does not write where
bytecode is not written (PYTHONDONTWRITEBYTECODE) unless asked; `python -m
cc.precompile` writes both at once.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import json
import os
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cc.tools.base import Tool

_TOOLS = Path(__file__).parent
#: What the definitions are made from: the tools' code and their descriptions.
SOURCES: tuple[tuple[Path, str], ...] = ((_TOOLS, ".py"), (_TOOLS.parent / "prompts" / "tools", ""))


def default_path() -> Path:
    return _TOOLS.parent / "__pycache__" / f"tool-definitions.{sys.implementation.cache_tag}.json"


def is_fixed(tool: Tool) -> bool:
    """Whether the tool's definition follows from its code and description file: a
    built-in tool that leaves the three to `Tool` (or says so with `fixed_definition`)."""
    from cc.tools.base import Tool

    cls = type(tool)
    if not cls.__module__.startswith("cc.tools."):
        return False
    if cls.fixed_definition:
        return True
    return (cls.api_definition is Tool.api_definition and cls.description is Tool.description
            and cls.input_schema is Tool.input_schema)


class DefinitionCache:
    """The definitions kept in the file at `path`, valid while `sources` are unchanged;
    read on first use."""

    def __init__(self, path: Path, sources: tuple[tuple[Path, str], ...] = SOURCES) -> None:
        self.path = path
        self.sources = sources
        self._lock = threading.Lock()
        self._kept: dict[str, dict[str, Any]] | None = None
        self._fingerprint = ""
        self._new = False

    def cached(self, name: str) -> dict[str, Any] | None:
        """The kept definition of the built-in tool `name` (a copy), if its sources have
        not changed since it was made."""
        definition = self._definitions().get(name)
        return copy.deepcopy(definition) if definition is not None else None

    def keep(self, tool: Tool, definition: dict[str, Any]) -> None:
        """Keep `definition`, just made by `tool`, if the tool's code alone decides it."""
        if not is_fixed(tool):
            return
        definitions = self._definitions()
        with self._lock:
            if definitions.get(tool.name) != definition:
                definitions[tool.name] = copy.deepcopy(definition)
                self._new = True

    def save(self, *, asked: bool = False) -> None:
        """Write the kept definitions if any is new (not where bytecode is not written,
        unless `asked`)."""
        if not self._new or (sys.dont_write_bytecode and not asked):
            return
        with self._lock:
            body = json.dumps({"fingerprint": self._fingerprint, "tools": self._kept or {}})
            self._new = False
        temp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temp.write_text(body, encoding="utf-8")
            os.replace(temp, self.path)
        except OSError:  # a read-only install: definitions are made on every run instead
            with contextlib.suppress(OSError):
                temp.unlink()

    def fingerprint(self) -> str:
        """Each source file's path, size and change time, Python's and pydantic's versions."""
        import pydantic

        digest = hashlib.blake2b(digest_size=16)
        digest.update(f"{sys.version}|{pydantic.VERSION}".encode())
        for folder, suffix in self.sources:
            for path, stat in _files(folder, suffix):
                digest.update(f"{path}|{stat.st_size}|{stat.st_mtime_ns}\n".encode())
        return digest.hexdigest()

    def _definitions(self) -> dict[str, dict[str, Any]]:
        with self._lock:
            if self._kept is None:
                self._fingerprint = self.fingerprint()
                self._kept = _read(self.path, self._fingerprint)
            return self._kept


#: The process's cache, beside cc's bytecode.
SHARED = DefinitionCache(default_path())


def _files(folder: Path, suffix: str) -> list[tuple[str, os.stat_result]]:
    found: list[tuple[str, os.stat_result]] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return found
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            if entry.name != "__pycache__":
                found += _files(Path(entry.path), suffix)
        elif entry.name.endswith(suffix):
            found.append((entry.path, entry.stat()))
    return sorted(found)


def _read(path: Path, expected: str) -> dict[str, dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("fingerprint") != expected:
        return {}
    tools = data.get("tools")
    if not isinstance(tools, dict):
        return {}
    return {name: d for name, d in tools.items()
            if isinstance(d, dict) and d.get("name") == name}
