"""Process checks for tests that kill things."""

from __future__ import annotations

import os


def alive(pid: int) -> bool:
    """Whether `pid` is a live process (zombies count as dead)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat[stat.rfind(b")") + 2 :].split()[0] not in (b"Z", b"X")


async def wait_dead(pid: int) -> None:
    """Wait until `pid` has died (fails after the generous shared deadline)."""
    from tests.waiting import wait_for_async

    await wait_for_async(lambda: not alive(pid), what=f"process {pid} dying")
