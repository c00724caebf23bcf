"""The interactive REPL (`python -m cc` on a terminal).

    Screen(facts, dialogs)             the banner, prompt and footer, up before the session
    run_repl(screen, session, first=None) -> exit status   (`session`: Opened, or an
                                       Opening that builds it once the prompt shows)
    make_ask_user(cwd) -> Dialogs      the UserChannel a permission checker awaits

An `Opened` session's `services` (cc.commands.context.Services) carry the control
plane's hooks: mode changes, session listing and resuming, hook listing, `!`-command
checks, on_exit. When
the session's permission checker has nobody to ask, the REPL answers for it. Turns go
through the session's turn driver (`cc.app.session.Session`), as print mode's do.
"""

from __future__ import annotations

from cc.ui.repl.app import Opened, Opening, run_repl
from cc.ui.repl.dialogs import Dialogs, make_ask_user
from cc.ui.repl.screen import Screen

__all__ = ["Dialogs", "Opened", "Opening", "Screen", "make_ask_user", "run_repl"]
