"""The agent table tells its watchers what happens to the session's agents."""

from __future__ import annotations

import asyncio

from cc.tools.agent_tasks import AgentTask, AgentTasks


async def test_watchers_hear_of_starts_calls_ends_and_news() -> None:
    table = AgentTasks()
    heard: list[tuple[str, str | None]] = []
    table.watchers.append(lambda change, entry: heard.append(
        (change, entry.id if entry is not None else None)))
    entry = AgentTask("a1", "count", "toolu_1", None, name="alpha")
    gate = asyncio.Event()
    table.start(entry, gate.wait())
    table.note_tool(entry, "Read", {"file_path": "a.txt"})
    assert entry.last_tool == ("Read", {"file_path": "a.txt"})
    gate.set()
    assert entry.task is not None
    await entry.task
    table.finish(entry, "completed", "done")
    table.finish(entry, "completed", "again")  # an entry ends once
    assert table.changed.is_set()
    table.changed.clear()
    table.wake()
    assert table.changed.is_set()
    assert heard == [("started", "a1"), ("tool", "a1"), ("ended", "a1"), ("news", None)]
    assert table.has_news  # the notification of its end waits for the next request
