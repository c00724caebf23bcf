"""The REPL's side of the session's MCP servers.

    ask()     the question about the project's new servers (`.mcp.json` names not yet
              approved or refused), before the first input is taken; the answer is
              recorded and the approved servers connect at once
    start()   connect the servers (once the prompt is drawn: the SDK's import must not
              delay it), then watch them
    notices   the configuration's problems, once the prompt is up; a server that fails
              to connect, or loses its connection, told once (not at each retry); a
              reconnect the user asked for (`/mcp`) reports its own outcome; problems
              found later (tool names that clash) told once too
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cc.app.session import Session
    from cc.mcp.connection import ServerConnection
    from cc.ui.repl.dialogs import Dialogs


class McpWatch:
    def __init__(self, session: Session, dialogs: Dialogs,
                 show: Callable[[list[str]], None]) -> None:
        self.session = session
        self.dialogs = dialogs
        self.show = show
        #: Each server's status when last seen.
        self._seen: dict[str, str] = {}

    async def ask(self) -> list[str]:
        """Ask about the servers waiting for approval; the warnings to show."""
        hub = self.session.mcp
        waiting = hub.awaiting() if hub is not None else []
        if not waiting:
            return []
        from cc.mcp.config import PROJECT_FILE, launch_text

        origin = waiting[0].entry.origin
        servers = [(c.name, launch_text(c.entry.config)) for c in waiting]
        answer = await self.dialogs.approve_servers(servers, str(origin or PROJECT_FILE))
        return self.session.answer_mcp(answer)

    def start(self) -> None:
        hub = self.session.mcp
        if hub is None:
            return
        self._seen = {c.name: c.status for c in hub.connections.values()}
        hub.on_change(self._changed)
        self.session.start_mcp()
        problems = hub.take_problems()  # the configuration's
        if problems:
            self.show(problems)

    def _changed(self) -> None:
        hub = self.session.mcp
        if hub is None:
            return
        lines = []
        for connection in hub.connections.values():
            before = self._seen.get(connection.name)
            self._seen[connection.name] = connection.status
            if _news(connection, before):
                lines.append(failure_line(connection))
        lines += hub.take_problems()
        if lines:
            self.show(lines)


def _news(connection: ServerConnection, before: str | None) -> bool:
    """A failure the user has not heard of: the first attempt's, or a connection lost;
    not a retry's, nor that of a reconnect the user asked for (pending again after
    having been connected)."""
    if connection.status != "failed" or before == "failed":
        return False
    return not (before == "pending" and connection.generation > 0)


def failure_line(connection: ServerConnection) -> str:
    name = connection.name
    if connection.generation > 0:
        what = "lost its connection (cc keeps trying to reconnect)"
    else:
        what = "failed to connect: " + (connection.error or "no reason given").strip(
            ).splitlines()[0]
    return f'MCP server "{name}" {what} · /mcp to see it or reconnect'
