"""File permissions that hold even when the suite runs as root (as CI's container does).

Root reads anything, so a check that a file cannot be read would prove nothing there.
`unprivileged()` makes the process's effective user and group `nobody` for the length of
the block (the real ids stay root's, so they can be taken back), and `open_tmp` is a
folder such a user may enter: pytest's `tmp_path` is private to its owner.
"""

from __future__ import annotations

import os
import pwd
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def unprivileged() -> Iterator[None]:
    """Within the block, the kernel enforces file modes on this process."""
    if os.geteuid() != 0:
        yield
        return
    nobody = pwd.getpwnam("nobody")
    gid = os.getegid()
    os.setegid(nobody.pw_gid)
    os.seteuid(nobody.pw_uid)  # also drops root's capabilities (CAP_DAC_OVERRIDE)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(gid)


@pytest.fixture
def open_tmp() -> Iterator[Path]:
    """A fresh temporary folder every user may enter and list."""
    path = Path(tempfile.mkdtemp(prefix="cc-test-")).resolve()
    path.chmod(0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
