"""The interactive REPL (`python -m cc` on a terminal).

    run_repl(session, first=None, *, services=None, dialogs=None) -> exit status
    make_ask_user(cwd) -> Dialogs      the UserChannel a permission checker awaits

`services` (cc.commands.context.Services) carries the control plane's hooks: mode
changes, session listing and resuming, hook listing, `!`-command checks, on_exit. When
the session's permission checker has nobody to ask, the REPL answers for it. Turns go
through the session's turn driver (`cc.app.session.Session`), as print mode's do.
"""

from __future__ import annotations

from cc.ui.repl.app import run_repl
from cc.ui.repl.dialogs import Dialogs, make_ask_user

__all__ = ["Dialogs", "make_ask_user", "run_repl"]
