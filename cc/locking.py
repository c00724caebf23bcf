"""Holding a lock file: an `fcntl.flock` on a descriptor opened for the purpose, so the
lock holds off other processes and, since every call opens its own descriptor (flock
locks belong to the open file description), other threads of this one as well."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def file_lock(path: Path, *, shared: bool = False, create: bool = True,
              mode: int = 0o600) -> Iterator[None]:
    """Hold `path`'s lock for the block: exclusive, or `shared`. With `create`, the lock
    file is made (with `mode`) if missing; without, a missing one is FileNotFoundError."""
    flags = (os.O_RDWR | os.O_CREAT) if create else os.O_RDONLY
    fd = os.open(path, flags | os.O_CLOEXEC, mode)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock
