"""Dataclasses made without compiling their methods anew on every start (Python 3.11).

`@dataclass` writes each method it adds (`__init__`, `__repr__`, `__eq__`, a frozen
class's `__setattr__`...) as source text and compiles it, class by class: for the 150
dataclasses of a print-mode run that is about half of what importing cc's own modules
costs. The text of a method depends only on the class's fields and options, so its
compiled code can be kept between runs, as Python keeps a module's bytecode. `install()`
wraps the stdlib's method maker (`dataclasses._create_fn`) to compile each text once and
reuse the code object; the functions it makes are built exactly as before, from the same
text with the same globals and closure values.

The code objects live in one file beside cc's bytecode (`cc/__pycache__`), keyed by a
hash of the text, and `save()` writes it once a run has compiled something new (the
first run after an install or an upgrade), unless bytecode is not to be written
(PYTHONDONTWRITEBYTECODE). `compile_all()` (`python -m cc.precompile`) writes it for
every module of cc at once, as `compileall` does bytecode. Anything unexpected (another Python, a file
that does not load, a directory that cannot be written) leaves dataclasses to the stdlib.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import marshal
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import CodeType
from typing import Any

#: What the file's name carries, so that another interpreter never reads it.
_TAG = f"{sys.implementation.cache_tag}-{marshal.version}"
#: Beyond this many entries the file keeps only what the run that writes it used.
MAX_ENTRIES = 4000

_codes: dict[bytes, CodeType] = {}
_used: set[bytes] = set()
_new = 0
_path: Path | None = None
_original: Callable[..., Any] | None = None


def default_path() -> Path:
    return Path(__file__).parent / "__pycache__" / f"dataclasses.{_TAG}.marshal"


def install(path: Path | None = None) -> None:
    """Make dataclasses from cached code from now on (idempotent; Python 3.11 only, whose
    `_create_fn` this mirrors)."""
    global _path, _original
    if _original is not None or sys.version_info[:2] != (3, 11):
        return
    original = getattr(dataclasses, "_create_fn", None)
    if original is None:
        return
    _path = path or default_path()
    _codes.update(_read(_path))
    _original = original
    dataclasses._create_fn = _create_fn  # type: ignore[attr-defined]


def uninstall() -> None:
    """Give dataclasses back to the stdlib (tests)."""
    global _original, _new
    if _original is not None:
        dataclasses._create_fn = _original  # type: ignore[attr-defined]
        _original = None
    _codes.clear()
    _used.clear()
    _new = 0


def compiled() -> int:
    """How many method texts this run compiled that the cache did not hold (not saved yet)."""
    return _new


def save(*, asked: bool = False) -> None:
    """Write the cache if this run compiled a method it did not hold (cheap otherwise);
    `asked`: even where bytecode is not written."""
    global _new
    if not _new or _path is None or (sys.dont_write_bytecode and not asked):
        return
    codes = _codes if len(_codes) <= MAX_ENTRIES else {k: _codes[k] for k in _used}
    temp = _path.with_name(f"{_path.name}.{os.getpid()}.tmp")
    try:
        _path.parent.mkdir(parents=True, exist_ok=True)
        temp.write_bytes(marshal.dumps(codes))
        os.replace(temp, _path)
    except OSError:  # a read-only install: every run compiles, as without the cache
        with contextlib.suppress(OSError):
            temp.unlink()
        return
    _new = 0


def _read(path: Path) -> dict[bytes, CodeType]:
    try:
        loaded = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(loaded, dict):
        return {}
    return {k: v for k, v in loaded.items()
            if isinstance(k, bytes) and isinstance(v, CodeType)}


def _create_fn(name: str, args: list[str], body: list[str], *,
               globals: dict[str, Any] | None = None, locals: dict[str, Any] | None = None,
               return_type: Any = dataclasses.MISSING) -> Any:
    """`dataclasses._create_fn` of Python 3.11, with the text's compiled code cached."""
    global _new
    if locals is None:
        locals = {}
    return_annotation = ""
    if return_type is not dataclasses.MISSING:
        locals["_return_type"] = return_type
        return_annotation = "->_return_type"
    lines = "\n".join(f"  {b}" for b in body)
    text = f" def {name}({','.join(args)}){return_annotation}:\n{lines}"
    text = f"def __create_fn__({', '.join(locals.keys())}):\n{text}\n return {name}"
    key = hashlib.blake2b(text.encode(), digest_size=16).digest()
    code = _codes.get(key)
    if code is None:
        code = _codes[key] = compile(text, "<string>", "exec")
        _new += 1
    _used.add(key)
    ns: dict[str, Any] = {}
    exec(code, vars(dataclasses) if globals is None else globals, ns)  # noqa: S102 - the stdlib's own text, as dataclasses runs it
    return ns["__create_fn__"](**locals)


def compile_all() -> int:
    """Import every module of cc with the cache on, then write it; the number of modules
    that failed to import (they are left out)."""
    import importlib
    import pkgutil

    import cc

    install()
    failed = 0
    for module in pkgutil.walk_packages(cc.__path__, "cc."):
        if module.name.endswith("__main__"):  # (importing one runs it)
            continue
        try:
            importlib.import_module(module.name)
        except Exception:  # noqa: BLE001 - an optional part missing here: its classes are left out
            failed += 1
    save(asked=True)
    return failed

