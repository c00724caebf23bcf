"""The team on screen while this session leads one.

    @alpha · working · Read(src/a.py)      one line per member in the live area, just
    @beta · idle · SendMessage(team-lead)  above the prompt: state and latest call
    ✉ alpha: found the bug in a.py         a member's letter to the leader, printed
                                           above once, as it arrives (not taken: the
                                           leader's next request takes it)

`TeamWatch` is told of every change of the leader's agent table (a member started, made
a call, ended; a letter arrived) and keeps `Live.team` up to date. cc.team is imported
only once a team exists.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cc.app.session import Session
    from cc.team.mailbox import Letter
    from cc.team.roster import MemberView
    from cc.team.session import TeamSession
    from cc.ui.repl.live import Live

#: Styles of the states in a member's line.
STATE_STYLES = {"working": "class:spinner", "failed": "class:warning"}
LETTER_CHARS = 120


def member_line(member: MemberView, cwd: Path) -> list[tuple[str, str]]:
    """One member's line, as (style, text) fragments."""
    out = [("bold", f"  @{member.name}"), ("class:dim", " · "),
           (STATE_STYLES.get(member.state, "class:dim"), member.state)]
    if member.last_tool is not None:
        from cc.ui.render import tool_label

        name, tool_input = member.last_tool
        out += [("class:dim", " · " + tool_label(name, tool_input, cwd))]
    return out


def letter_line(letter: Letter) -> str:
    """`✉ sender: summary` (or the text's first line), on one line."""
    first = next((ln.strip() for ln in letter.text.splitlines() if ln.strip()), "")
    said = (letter.summary or first).strip()
    if len(said) > LETTER_CHARS:
        said = said[: LETTER_CHARS - 1] + "…"
    return f"✉ {letter.sender}: {said}"


class TeamWatch:
    """Keeps the live area's team lines, and prints the leader's letters once."""

    def __init__(self, runtime: Session, live: Live, cwd: Path,
                 show: Callable[[list[str]], None]) -> None:
        self.runtime, self.live, self.cwd = runtime, live, cwd
        #: Prints lines above the prompt.
        self.show = show
        self._session: TeamSession | None = None
        self._letters_seen = 0

    def changed(self, change: str = "", entry: object = None) -> None:
        """Something of the leader's agents changed (or a turn ended): the lines follow
        (redrawn only when they read differently: a background agent's call, or a member's
        call like the one before, changes nothing on screen); letters that arrived are
        printed."""
        session = self._follow()
        if session is not None and change in ("news", "ended", ""):
            self._new_letters(session)
        lines = self._lines(session)
        if lines != self.live.team:
            self.live.team = lines
            self.live.changed()

    def _follow(self) -> TeamSession | None:
        """The team the session leads now (a new team's letters are counted afresh)."""
        session = getattr(self.runtime, "team", None)
        if session is not self._session:
            self._session, self._letters_seen = session, 0
        return session

    def _new_letters(self, session: TeamSession) -> None:
        from cc.team.config import LEAD

        letters = session.inbox(LEAD).all()  # read only: the leader's request takes them
        fresh = letters[self._letters_seen:]
        self._letters_seen = len(letters)
        if fresh:
            self.show([letter_line(x) for x in fresh])

    def _lines(self, session: TeamSession | None) -> list[list[tuple[str, str]]]:
        if session is None:
            return []
        from cc.team.roster import roster

        return [member_line(m, self.cwd) for m in roster(session)]
