"""SendMessage: talk to an agent of the session, by its id or name.

To an agent that is running, the message joins its next request; to one that has
ended, it starts another run of it, its conversation intact (its end is announced
again, by a `<task-notification>` naming this call). With a team, the team's router
(`cc.team.session`) takes the addresses it knows first: members, `team-lead`, `*`. A
named agent of no team (`cc.agents.named`) writes to the main conversation ("main").
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from pydantic import ConfigDict, Field

from cc.tools.base import Tool, ToolContext, ToolInput, ToolResult, optional_without_null

if TYPE_CHECKING:
    from cc.tools.agent_tasks import AgentTask, AgentTasks


class SendMessageInput(ToolInput):
    model_config = ConfigDict(extra="forbid", json_schema_extra=optional_without_null)

    to: str = Field(max_length=300, pattern=r"^[^\n\r]*$")
    #: Text; or, between teammates, a protocol message (`cc.team.protocol`).
    message: str | dict[str, Any] = ""
    summary: str | None = Field(default=None, max_length=200)
    notify_when_idle: bool | None = None


class MessageRouter(Protocol):
    """Addresses beyond the session's agents (a team's): a result, or None when `to`
    is not one of its own."""

    def send(self, inp: SendMessageInput, ctx: ToolContext) -> ToolResult | None: ...


class SendMessageTool(Tool):
    name = "SendMessage"
    input_model: ClassVar[type[ToolInput]] = SendMessageInput

    def __init__(self, router: MessageRouter | None = None,
                 prompt: str = "tools/SendMessage.md") -> None:
        self.router = router
        self._prompt = prompt

    def description(self) -> str:
        from cc.prompts import load_text

        return load_text(self._prompt).strip()

    def input_schema(self) -> dict[str, Any]:
        # Claude Code's schema: `message` is a string (a protocol message may be sent as
        # its JSON text; an object is accepted as well).
        return {"type": "object", "properties": {
            "to": {"type": "string", "allOf": [{"pattern": "^[^\\n\\r]*$"},
                                               {"pattern": "^[\\s\\S]{0,300}$"}]},
            "summary": {"type": "string", "maxLength": 200},
            "message": {"default": "", "type": "string"},
            "notify_when_idle": {"type": "boolean"}},
            "required": ["to", "message"], "additionalProperties": False}

    def is_concurrency_safe(self, inp: ToolInput) -> bool:
        return True

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, SendMessageInput)
        if self.router is not None and (routed := self.router.send(inp, ctx)) is not None:
            return routed
        from cc.agents.control import agent_control

        who = agent_control(ctx).identity
        if who is not None and who.name is not None and who.team is None:
            return self._from_named_agent(inp, ctx, who.name)
        if who is not None:
            return ToolResult.error("A sub-agent reports in its final message; it has no one "
                                    "to send messages to.")
        table = ctx.agent_tasks
        entry = table.find(inp.to) if table is not None else None
        if table is None or entry is None:
            known = ", ".join(_label(a) for a in table) if table is not None else ""
            return ToolResult.error(f"No agent {inp.to!r} in this session."
                                    + (f" Agents: {known}" if known else ""))
        if not isinstance(inp.message, str):
            return ToolResult.error("Protocol messages go between the members of a team; "
                                    "send this agent text.")
        return deliver(table, entry, inp.message, ctx.tool_use_id or "",
                       queued=from_parent(inp.message))

    @staticmethod
    def _from_named_agent(inp: SendMessageInput, ctx: ToolContext, sender: str) -> ToolResult:
        """A named agent of no team writes to the main conversation (its only reader)."""
        from cc.agents.named import LEAD_ADDRESSES, send_to_lead

        if inp.to == sender:
            return ToolResult.error(f"You are {sender}: send to \"main\".")
        if inp.to not in LEAD_ADDRESSES:
            return ToolResult.error(f"No agent {inp.to!r} to send to: your messages go to the "
                                    "main conversation (to: \"main\").")
        return send_to_lead(inp, ctx, sender)


def deliver(table: AgentTasks, entry: AgentTask, prompt: str, tool_use_id: str, *,
            queued: str | None) -> ToolResult:
    """To a running agent: `queued` joins its next request (None: it is in its mailbox
    already). To one that ended: another run starts with `prompt`."""
    from cc.agents.background import Continuation, continue_agent

    handle = entry.handle
    label = _label(entry)
    if not isinstance(handle, Continuation) or handle.run.closed:
        return ToolResult.error(f"Agent {label} has ended for good and cannot be continued; "
                                "start a new one with the Agent tool.")
    if entry.status == "running":
        if queued is not None:
            handle.run.inbox.append(queued)
        data: dict[str, Any] = {"success": True, "message": f"Message queued for {label}: it "
                                "reads it before its next request."}
    else:
        continue_agent(table, entry, prompt, tool_use_id)
        data = {"success": True, "message": f"Resuming agent {label}",
                "resumedAgentId": entry.id}
    return ToolResult(json.dumps(data), data=data, summary=data["message"])


def from_parent(text: str) -> str:
    """A message of the main conversation as a running agent reads it."""
    return ("The agent that gave you your task sent a message while you were working:\n"
            f"{text}\n\nTake it into account before you finish.")


def _label(entry: AgentTask) -> str:
    return f"{entry.name} ({entry.id})" if entry.name else entry.id
