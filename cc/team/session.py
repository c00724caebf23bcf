"""A team as the session lives it: its files, its leader's engine, its members' runs,
and the second wiring of the leader (the team tools registered when the team is made,
taken away when it is deleted). It routes SendMessage's team addresses: a letter goes
to the member's mailbox, and a member that is idle is woken by it.

While the session leads the team, its task list is the team's (`<config>/tasks/<team>/`,
see `cc.app.factory`): the leader and every member see one list. A member whose run
crashes (fails or is stopped) hands its unfinished tasks back (`release_tasks`), and
TeamDelete removes the list with the team."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cc.agents.named import LEAD_ADDRESSES
from cc.team import protocol
from cc.team.config import LEAD, TeamFiles
from cc.team.identity import sender_name
from cc.team.mailbox import Letter, Mailbox, inbox_path
from cc.tools.base import ToolContext, ToolResult

if TYPE_CHECKING:
    from cc.agents.send_message import SendMessageInput
    from cc.agents.subagent import SubagentRun
    from cc.core.query_engine import QueryEngine
    from cc.tasks.store import TaskStore
    from cc.tools.agent_tasks import AgentTask, AgentTasks

#: The tools a team brings to its leader (SendMessage is re-wired for the team).
TEAM_TOOLS = ("SendMessage", "TeamDelete")


@dataclass
class TeamSession:
    files: TeamFiles
    leader: QueryEngine
    #: Member name -> agent id, for those spawned in this session.
    members: dict[str, str] = field(default_factory=dict)
    #: Member name -> who asked to hear when it stops (SendMessage `notify_when_idle`),
    #: with the id of the call that asked.
    idle_watchers: dict[str, dict[str, str]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.files.team

    @property
    def table(self) -> AgentTasks | None:
        """The leader's agents: the members' runs are among them."""
        return self.leader.executor.ctx.agent_tasks

    @property
    def tasks(self) -> TaskStore | None:
        """The session's task list: the team's while the team lasts."""
        return self.leader.executor.ctx.task_list

    def release_tasks(self, member: str, agent_id: str | None = None) -> str | None:
        """`member` ended without finishing: its tasks not completed go back to pending
        with no owner (`TaskStore.release`). The note for the leader, or None if it held
        none."""
        store = self.tasks
        if store is None:
            return None
        try:
            released = store.release(member, *([agent_id] if agent_id else []))
        except OSError as exc:
            return f"The tasks {member} owned could not be released: {exc}"
        if not released:
            return None
        ids = ", ".join(f"#{t.id}" for t in released)
        return (f"Released the tasks {member} owned and had not completed ({ids}): they are "
                "pending again with no owner, for another member to claim.")

    def inbox(self, member: str) -> Mailbox:
        return Mailbox(inbox_path(self.files.dir, member))

    def delivered(self, member: str) -> list[str]:
        """`member`'s unread letters, taken, as the texts its next request carries."""
        return [agent_message(letter) for letter in self.inbox(member).receive()]

    def lead_letters(self) -> list[str]:
        """The leader's unread letters, taken (a source of its next request)."""
        return self.delivered(LEAD)

    def lead_has_mail(self) -> bool:
        return self.inbox(LEAD).unread > 0

    def entry(self, member: str) -> AgentTask | None:
        agent_id = self.members.get(member)
        table = self.table
        return table.get(agent_id) if table is not None and agent_id else None

    # -- SendMessage's team addresses ----------------------------------------------------

    def send(self, inp: SendMessageInput, ctx: ToolContext) -> ToolResult | None:
        from cc.agents.control import agent_control

        sender = sender_name(agent_control(ctx).identity)
        to = LEAD if inp.to in LEAD_ADDRESSES else inp.to
        to = next((n for n, a in self.members.items() if a == to), to)  # an agent id
        config = self.files.load()
        names = [m.name for m in config.members] if config else []
        if to != "*" and to not in names:
            return None  # not a member: perhaps another agent of the session
        if to == sender:
            return ToolResult.error(f"You are {sender}: send to another member, "
                                    "\"team-lead\" or \"*\".")
        structured = protocol.parse(inp.message)
        if structured is not None:
            return self._protocol(structured, sender, to, ctx)
        if not isinstance(inp.message, str):
            return ToolResult.error("`message` is text, or a shutdown_request or "
                                    "shutdown_response object.")
        targets = [n for n in names if n != sender] if to == "*" else [to]
        if not targets:
            return ToolResult.error(f"Team {self.name!r} has no other member to send to.")
        for name in targets:
            self.inbox(name).send(sender, inp.message, inp.summary)
            if inp.notify_when_idle and name != LEAD:
                self.idle_watchers.setdefault(name, {})[sender] = ctx.tool_use_id or ""
        woken = [n for n in targets if self._wake(n, ctx.tool_use_id or "")]
        data: dict[str, object] = {"success": True,
                                   "message": f"Message sent to {', '.join(targets)}'s inbox."}
        if woken:
            data["resumed"] = woken
        return ToolResult(json.dumps(data), data=data,
                          summary=f"To {', '.join(targets)}: {inp.summary or inp.message[:60]}")

    def went_idle(self, member: str, state: str) -> None:
        """`member`'s run ended: those who asked to hear of it get a letter from it."""
        for watcher, call in sorted(self.idle_watchers.pop(member, {}).items()):
            self.inbox(watcher).send(member, f"{member} has stopped working ({state}).",
                                     f"{member} is {state}")
            self._wake(watcher, call)

    def _wake(self, member: str, tool_use_id: str) -> bool:
        """A letter is in `member`'s mailbox: the leader is woken if it waits; a member
        that has ended starts another run on its letters. Whether a run started."""
        from cc.agents.background import continue_agent

        if member == LEAD:
            self.leader.wake()  # an idle leader (print mode, the REPL) takes it up at once
            return False
        entry, table = self.entry(member), self.table
        if entry is None or table is None or entry.status == "running":
            return False  # a running member reads its mailbox before its next request
        run = run_of(entry)
        texts = run.mail() if run is not None else []
        if not texts:
            return False
        if continue_agent(table, entry, "\n\n".join(texts), tool_use_id):
            self.files.set_status(member, "active")
            return True
        return False

    def _protocol(self, message: protocol.Structured, sender: str, to: str,
                  ctx: ToolContext) -> ToolResult:
        if to == "*":
            return ToolResult.error(f"A {message.kind} goes to one member, not to \"*\".")
        if message.kind == "shutdown_request":
            if sender != LEAD:
                return ToolResult.error("Only the team's leader asks a member to shut down.")
            if to == LEAD:
                return ToolResult.error("The leader is not shut down by request.")
            rid = protocol.request_id(to)
            text = protocol.letter("shutdown_request", requestId=rid, **{"from": sender},
                                   reason=message.get("reason", "content"))
            self.inbox(to).send(sender, text, "Shutdown request")
            self._wake(to, ctx.tool_use_id or "")
            data = {"success": True, "message": f"Shutdown request sent to {to}. Request ID: "
                    f"{rid}", "request_id": rid, "target": to}
            return ToolResult(json.dumps(data), data=data, summary=f"Asked {to} to shut down")
        # shutdown_response: a member answers the leader.
        if sender == LEAD:
            return ToolResult.error("Only a member answers a shutdown request.")
        rid = message.get("request_id", "requestId")
        if not isinstance(rid, str) or not rid:
            return ToolResult.error("A shutdown_response needs the request_id of the request.")
        approve = message.get("approve") is True
        reason = message.get("reason", "content")
        kind = "shutdown_approved" if approve else "shutdown_rejected"
        self.inbox(LEAD).send(sender, protocol.letter(kind, requestId=rid, **{"from": sender},
                                                      reason=reason), kind.replace("_", " "))
        self.leader.wake()
        if approve:
            ctx.services().end_turn("shutdown")
            run = run_of(self.entry(sender))
            if run is not None:
                run.closing = True  # its run ends with this message, and it for good
        data = {"success": True, "request_id": rid, "approved": approve,
                "message": "Shutdown approved: your work ends here." if approve else
                "Shutdown rejected: keep working, the leader has your reason."}
        return ToolResult(json.dumps(data), data=data, summary=kind.replace("_", " "))

    async def delete(self) -> None:
        """The team is over: its members' agents close, its folder goes, and so does its
        task list (not a list `CLAUDE_CODE_TASK_LIST_ID` chose, which outlives it)."""
        from cc.tasks.store import chosen_list_id

        table = self.table
        if table is not None:
            await table.forget(*(e for n in self.members if (e := self.entry(n)) is not None))
        shutil.rmtree(self.files.dir, ignore_errors=True)
        store = self.tasks
        if store is not None and chosen_list_id() is None:
            shutil.rmtree(store.root / self.name, ignore_errors=True)


def run_of(entry: AgentTask | None) -> SubagentRun | None:
    from cc.agents.background import Continuation

    handle = entry.handle if entry is not None else None
    return handle.run if isinstance(handle, Continuation) else None


def team_of(ctx: ToolContext) -> TeamSession | None:
    """The team the session of the agent a tool runs in leads, if any."""
    from cc.agents.control import agent_control

    return agent_control(ctx).team


def agent_message(letter: Letter) -> str:
    """A letter as the model reads it (Claude Code's `<agent-message>` shape)."""
    from cc.agents.named import agent_message as render

    return render(letter.sender, letter.text, letter.summary)


__all__ = ["LEAD", "TEAM_TOOLS", "TeamSession", "agent_message", "run_of", "team_of"]
