"""The interactive REPL (`python -m cc` on a terminal).

    run_repl(engine, runtime, first=None, *, services=None, dialogs=None) -> exit status
    make_ask_user(cwd) -> Dialogs      the UserChannel a permission checker awaits

`services` (cc.commands.context.Services) carries the control plane's hooks: mode
changes, session listing and resuming, hook listing, `!`-command checks, on_exit. When
`runtime.permissions` is a checker without anyone to ask, the REPL answers for it.
"""

from __future__ import annotations

from cc.ui.repl.app import run_repl
from cc.ui.repl.dialogs import Dialogs, make_ask_user

__all__ = ["Dialogs", "make_ask_user", "run_repl"]
