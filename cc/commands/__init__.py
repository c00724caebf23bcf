"""Slash commands: the built-ins, custom Markdown commands, `@` mentions and `!` shell input.

Everything here is library code shared by the REPL and print mode; only the REPL
decides how output reaches the terminal.
"""

from __future__ import annotations


class CommandError(Exception):
    """A command could not run or expand; its message is shown to the user."""
