"""The REPL's slash commands: the built-ins, and running custom ones and MCP prompts.

    registry.py      which commands exist, dispatch, resolve_input (typed → a command's
                     result or a prompt)
    context.py       what a command runs with (the session, a console, services) and
                     what it hands back
    builtins.py      /help /clear /model /cost /status /config /permissions /hooks …
    info.py sessions.py agents_view.py team_view.py sandbox_view.py   their views
    export.py tasks_view.py add_dir.py review.py doctor_view.py rename.py vim.py …
                     one module per command (or small family)
    headless.py      what a slash command typed to `-p` does (runs, is refused, or
                     goes to the model), as in Claude Code

Input preparation (custom commands, `@` mentions, `!` lines) is `cc.input`, shared
with print mode. Library code: only the REPL decides how output reaches the terminal.
"""

from __future__ import annotations


