"""Safe read-modify-write of a team's small JSON files, across threads and processes.

Each file has a sidecar lock (`<file>.lock`, an `fcntl.flock`: a teammate in another
process is held off as well as one in this one); the new content is written to a
temporary file, fsynced and renamed over the old, so a reader never sees half a file
and a crash mid-write leaves the previous version whole.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from cc.atomic import write_atomic
from cc.locking import file_lock

T = TypeVar("T")


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold `path`'s lock (threads and processes alike) for the block."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with file_lock(path.with_name(path.name + ".lock")):
        yield


def read_json(path: Path, default: Any) -> Any:
    """The file's JSON value, or `default` if it is missing or not JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return default


def write_json(path: Path, value: Any) -> None:
    """Write `value` whole (mode 0600)."""
    write_atomic(path, json.dumps(value, ensure_ascii=False, indent=2))


def update_json(path: Path, default: Any, change: Callable[[Any], tuple[Any, T]]) -> T:
    """Under the lock: read, `change(value) -> (new value, result)`, write; the result.
    A file that is not JSON is moved aside (`<name>.corrupt`), not overwritten."""
    with locked(path):
        try:
            value = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            value = default
        except (OSError, ValueError):
            os.replace(path, path.with_name(path.name + ".corrupt"))
            value = default
        value, result = change(value)
        write_json(path, value)
        return result
