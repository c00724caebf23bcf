"""The conversation's agents: those running in the background (started by the Agent
tool, stopped by TaskStop, announced to the model by a `<task-notification>` when they
end) and those that ended and may be continued (SendMessage starts another run).
Running ones are cancelled on close, then every agent's engine is closed.

The table knows nothing of how an agent runs: it holds the asyncio task and a handle
that can close the agent, and the Agent tool reports the outcome through `finish()` (and
each tool a background agent starts through `note_tool()`). Whoever shows the agents (the
REPL) adds a watcher: it is told "started", "tool", "ended" or "news" (something arrived
for the next request: `wake()`), with the agent concerned.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

AgentStatus = Literal["running", "completed", "failed", "killed"]
TASK_TYPE = "local_agent"
#: How many unnamed agents that ended stay open to be continued (the oldest close first;
#: named ones, teammates among them, stay until the session ends).
MAX_KEPT = 32
#: What a watcher is told: an agent started (or started again), started a tool, ended;
#: or news arrived for the next request.
Change = Literal["started", "tool", "ended", "news"]
Watcher = Callable[[Change, "AgentTask | None"], None]


class AgentHandle(Protocol):
    """What the table keeps of an agent to end it for good."""

    async def aclose(self) -> None: ...


@dataclass
class AgentTask:
    id: str
    description: str
    tool_use_id: str
    output_path: Path | None
    status: AgentStatus = "running"
    #: The name it was given (SendMessage and TaskStop take it as well as the id).
    name: str | None = None
    #: The agent itself, for continuing and closing it (None: it cannot be continued).
    handle: AgentHandle | None = None
    #: Whether its end is announced to the model (not for a foreground agent's).
    announce: bool = True
    #: Its type, and what its current (or last) run was asked.
    agent_type: str = ""
    prompt: str = ""
    #: The agent's final report (or its error), once it ended.
    result: str | None = None
    tokens: int = 0
    tool_uses: int = 0
    duration_ms: int = 0
    #: The latest tool it started in the background (name, input), for the UI.
    last_tool: tuple[str, dict[str, Any]] | None = None
    started_at: float = field(default_factory=time.monotonic)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None


class AgentTasks:
    """The conversation's background agents, by id."""

    def __init__(self) -> None:
        self._agents: dict[str, AgentTask] = {}
        self._notifications: list[str] = []
        #: Set whenever an agent ends or news arrives (print mode waits on it).
        self.changed = asyncio.Event()
        #: Told of every change (see the module docstring); a watcher must not raise.
        self.watchers: list[Watcher] = []

    def __iter__(self) -> Iterator[AgentTask]:
        return iter(list(self._agents.values()))

    def get(self, agent_id: str) -> AgentTask | None:
        return self._agents.get(agent_id)

    def find(self, key: str) -> AgentTask | None:
        """The agent with this id, else the latest one with this name."""
        if key in self._agents:
            return self._agents[key]
        named = [a for a in self._agents.values() if a.name == key]
        return named[-1] if named else None

    @property
    def running(self) -> list[AgentTask]:
        return [a for a in self._agents.values() if a.status == "running"]

    def start(self, entry: AgentTask, work: Coroutine[Any, Any, None]) -> AgentTask:
        self._agents[entry.id] = entry
        entry.task = asyncio.create_task(work, name=f"agent-{entry.id}")
        self._tell("started", entry)
        return entry

    def keep(self, entry: AgentTask) -> AgentTask:
        """An agent that ran in the foreground and ended: kept to be continued."""
        self._agents[entry.id] = entry
        entry.done.set()
        return entry

    def restart(self, entry: AgentTask, tool_use_id: str, prompt: str,
                work: Coroutine[Any, Any, None]) -> None:
        """Another run of an agent that ended, asked `prompt` by the call `tool_use_id`
        (its notification will name that call)."""
        if entry.status == "running":
            raise ValueError(f"agent {entry.id} is running")
        entry.status, entry.result, entry.tool_use_id = "running", None, tool_use_id
        entry.prompt, entry.tool_uses = prompt, 0
        entry.started_at, entry.announce = time.monotonic(), True
        entry.done = asyncio.Event()
        entry.task = asyncio.create_task(work, name=f"agent-{entry.id}")
        self._tell("started", entry)

    def note_tool(self, entry: AgentTask, name: str, tool_input: dict[str, Any]) -> None:
        """A background agent started a tool."""
        entry.last_tool = (name, tool_input)
        entry.tool_uses += 1
        self._tell("tool", entry)

    def post(self, text: str) -> None:
        """A message for the next request of the conversation that holds the table (a
        named agent's letter to it), which is woken if it waits."""
        self._notifications.append(text)
        self.wake()

    def wake(self) -> None:
        """Something arrived for the next request (a teammate's letter)."""
        self.changed.set()
        self._tell("news", None)

    def _tell(self, change: Change, entry: AgentTask | None) -> None:
        for watch in list(self.watchers):
            watch(change, entry)

    def finish(self, entry: AgentTask, status: AgentStatus, result: str | None) -> None:
        """The agent ended: queue the notification the model reads next."""
        if entry.status != "running":
            return
        entry.status, entry.result = status, result
        entry.duration_ms = int((time.monotonic() - entry.started_at) * 1000)
        if entry.announce:
            self._notifications.append(notification(entry))
        entry.done.set()
        self.changed.set()
        self._tell("ended", entry)

    async def stop(self, agent_id: str) -> bool:
        """Cancel a running agent; whether it was running."""
        entry = self._agents.get(agent_id)
        if entry is None or entry.status != "running":
            return False
        if entry.task is not None:
            entry.task.cancel()
            await asyncio.gather(entry.task, return_exceptions=True)
        self.finish(entry, "killed", None)
        return True

    def drain_notifications(self) -> list[str]:
        texts, self._notifications = self._notifications, []
        return texts

    @property
    def has_news(self) -> bool:
        return bool(self._notifications)

    async def close(self) -> None:
        for entry in self.running:
            if entry.task is not None:
                entry.task.cancel()
        await asyncio.gather(*(a.task for a in self._agents.values() if a.task is not None),
                             return_exceptions=True)
        await self.forget(*self._agents.values())

    async def trim(self, keep: int = MAX_KEPT) -> None:
        """Close the oldest unnamed agents that ended, beyond `keep` of them."""
        ended = [a for a in self._agents.values()
                 if a.status != "running" and a.handle is not None and a.name is None]
        await self.forget(*ended[: max(0, len(ended) - keep)])

    async def forget(self, *entries: AgentTask) -> None:
        """Close these agents (that have ended) for good: they can no longer continue."""
        for entry in entries:
            handle, entry.handle = entry.handle, None
            if handle is not None:
                await handle.aclose()


def notification(entry: AgentTask) -> str:
    """The `<task-notification>` block, in the shape Claude Code's model is used to."""
    status = "completed" if entry.status == "completed" else entry.status
    if entry.status == "completed":
        summary = f'Agent "{entry.description}" finished'
    elif entry.status == "killed":
        summary = f'Agent "{entry.description}" was stopped'
    else:
        summary = f'Agent "{entry.description}" failed'
    lines = ["<task-notification>", f"<task-id>{entry.id}</task-id>",
             f"<tool-use-id>{entry.tool_use_id}</tool-use-id>"]
    if entry.output_path is not None:
        lines.append(f"<output-file>{entry.output_path}</output-file>")
    lines += [f"<status>{status}</status>", f"<summary>{summary}</summary>"]
    if entry.result is not None:
        lines.append(f"<result>{entry.result}</result>")
    lines.append(f"<usage><subagent_tokens>{entry.tokens}</subagent_tokens>"
                 f"<tool_uses>{entry.tool_uses}</tool_uses>"
                 f"<duration_ms>{entry.duration_ms}</duration_ms></usage>")
    lines.append("</task-notification>")
    return "\n".join(lines)
