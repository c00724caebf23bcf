"""The first-visit question: may the files in this folder act?"""

from __future__ import annotations

import sys
from pathlib import Path

_TEXT = """\
Do you trust the files in this folder?

  {cwd}

cc may read, run and change files here. Project settings in this folder
(hooks, environment variables, apiKeyHelper, MCP servers) take effect only
once you trust it.

  1. Yes, proceed
  2. No, exit
"""


def ask_trust(cwd: Path) -> bool:
    """True when the user trusts `cwd`; EOF or anything but yes means no."""
    sys.stdout.write(_TEXT.format(cwd=cwd))
    sys.stdout.flush()
    while True:
        try:
            answer = input("Enter 1 or 2: ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            return False
        if answer in ("1", "y", "yes"):
            return True
        if answer in ("2", "n", "no", "q"):
            return False
