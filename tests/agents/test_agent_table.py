"""The agent table keeps ended agents to be continued, but not without bound."""

from __future__ import annotations

import asyncio

from cc.tools.agent_tasks import AgentTask, AgentTasks


class Handle:
    def __init__(self) -> None:
        self.closed = False

    async def aclose(self) -> None:
        self.closed = True


def ended(table: AgentTasks, agent_id: str, name: str | None = None) -> Handle:
    handle = Handle()
    entry = AgentTask(agent_id, "work", "toolu_x", None, status="completed", name=name)
    entry.handle = handle
    table.keep(entry)
    return handle


def test_the_oldest_unnamed_agents_close_first_and_named_ones_stay() -> None:
    async def main() -> None:
        table = AgentTasks()
        named = ended(table, "a-named", name="alpha")
        handles = [ended(table, f"a{i}") for i in range(5)]
        await table.trim(keep=2)
        assert [h.closed for h in handles] == [True, True, True, False, False]
        assert not named.closed
        kept = table.find("alpha")
        assert kept is not None and kept.handle is named
        await table.close()
        assert named.closed and all(h.closed for h in handles)

    asyncio.run(main())
