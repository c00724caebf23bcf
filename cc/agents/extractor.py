"""Background memory extraction: after a turn, a forked agent looks for what to keep.

    extraction_for(session) -> ExtractionCoordinator | None    (memory and extraction on)
        turn_ended()      called when a turn of the main agent completes: starts an
                          extraction, or, if one runs, marks one more to follow it
        drain(timeout)    print mode: let a running extraction finish, within bounds

It never blocks the user: the extraction runs on the engine's supervisor while the
next prompt is taken. If turns end while it runs, exactly one more extraction follows
with everything since (coalescing), never a queue. The extractor is a fork of the
main agent (the same system blocks, tools and conversation, so its request reads the
main request's cache) whose only reach is the memory folder: its gate refuses every
call but the file tools inside it, and every write there is checked for secrets. A
failed extraction is logged and dropped.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cc.config.env import truthy
from cc.permissions.gate import Decision, HookDecision

if TYPE_CHECKING:
    from cc.agents.control import AgentHost
    from cc.core.query_engine import QueryEngine
    from cc.tools.base import Tool, ToolInput

log = logging.getLogger(__name__)

#: The turns an extraction may take (reads, a write or two, the index).
MAX_TURNS = 6
#: How long print mode waits for a running extraction after writing its result.
DRAIN_SECONDS = 20.0
#: What the extractor may use, inside the memory folder only.
FILE_TOOLS = ("Read", "Write", "Edit", "Glob", "Grep")


def extraction_for(host: AgentHost) -> ExtractionCoordinator | None:
    """The session's extraction coordinator, listening to its main agent's turns, when
    memory and extraction are on (None otherwise)."""
    if host.memory_dir is None or not extraction_enabled(host.settings):
        return None
    coordinator = ExtractionCoordinator(host.engine, host.memory_dir, host)
    host.engine.on_turn_end(coordinator.turn_ended)
    return coordinator


def extraction_enabled(settings: Any, env: Any = None) -> bool:
    """On unless settings `autoMemoryExtraction: false` or CC_DISABLE_MEMORY_EXTRACTION=1
    (Claude Code itself has no background extraction; this is ours)."""
    env = os.environ if env is None else env
    if truthy(env.get("CC_DISABLE_MEMORY_EXTRACTION")):
        return False
    return settings.get("autoMemoryExtraction") is not False


class MemoryOnlyGate:
    """The extractor's permission gate: the file tools inside the memory folder, nothing
    else."""

    def __init__(self, folder: Path, cwd: Path) -> None:
        self.folder = folder
        self.cwd = cwd
        self.mode = "dontAsk"

    async def check(self, tool: Tool, inp: ToolInput, tool_use_id: str, *,
                    hook_decision: HookDecision | None = None) -> Decision:
        from cc.memory.auto_memory import inside
        from cc.permissions.tool_rules import tool_path

        path = tool_path(tool.name, inp.model_dump(exclude_none=True), self.cwd, Path.home())
        if tool.name in FILE_TOOLS and path is not None and inside(self.folder, Path(path)):
            return Decision("allow")
        return Decision("deny", f"The memory extractor may only read and write in "
                        f"{self.folder}; {tool.name} was refused.")


class ExtractionCoordinator:
    def __init__(self, engine: QueryEngine, folder: Path, host: AgentHost) -> None:
        self.engine = engine
        self.folder = folder
        self.host = host
        #: Messages of the conversation already looked at, and those there are to look at
        #: (as the last turn to end left them).
        self.seen = 0
        self.upto = 0
        self.head: str | None = None
        self.running: asyncio.Task[None] | None = None
        self.again = False
        #: Extractions started so far (the bench reads it), and files they wrote.
        self.runs = 0
        self.saved: list[Path] = []
        #: Told of each memory file an extraction wrote (the REPL shows a line).
        self.on_saved: list[Callable[[Path], None]] = []

    def turn_ended(self) -> None:
        # What the turn left, counted now: the next prompt may join before we start.
        self.upto = len(self.engine.messages)
        if self.running is not None and not self.running.done():
            self.again = True  # one more afterwards, with everything since
            return
        self.running = self.engine.supervisor.spawn(self._work(), name="memory-extraction")

    async def drain(self, timeout: float = DRAIN_SECONDS) -> None:
        task = self.running
        if task is None or task.done():
            return
        try:
            await asyncio.wait_for(asyncio.shield(task), timeout)
        except (TimeoutError, asyncio.CancelledError):
            log.info("memory extraction still running after %.0f s; left to the close", timeout)
        except Exception:  # noqa: BLE001 - logged by _work already
            pass

    async def _work(self) -> None:
        while True:
            self.again = False
            try:
                await self._extract()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - a failed extraction is dropped
                log.warning("memory extraction failed: %s: %s", type(exc).__name__, exc)
            if not self.again:
                return

    async def _extract(self) -> None:
        from cc.core.spec import AgentSpec
        from cc.models.messages import UserMessage

        engine = self.engine
        messages = list(engine.messages[: self.upto])
        head = messages[0].uuid if messages else None
        if head != self.head:  # compacted (or cleared) since: a fresh conversation
            self.seen, self.head = 0, head
        if len(messages) <= self.seen:
            return
        since, self.seen = self.seen, len(messages)
        self.runs += 1
        directive = UserMessage.text(_directive(self.folder, since), is_meta=True)
        spec = AgentSpec(model=engine.model, system=list(engine.config.system),
                         permission_mode="dontAsk", tools=tuple(engine.registry.names),
                         max_turns=MAX_TURNS, thinking_budget=engine.config.thinking_budget,
                         controls=engine.config.controls.without_task_budget(),
                         max_output_tokens=engine.config.max_output_tokens,
                         session_id=engine.session_id, internal=True,
                         gate=MemoryOnlyGate(self.folder, self.host.cwd),
                         hooks=False,  # internal work: the user's hooks are not told of it
                         compaction=False, seed=(*messages, directive))
        child = await self.host.fork(engine, spec, inherit_tools=True)
        try:
            before = {p: p.stat().st_mtime_ns for p in self.folder.glob("*.md")}
            async for _ in child.run_turn():
                pass
            for path in sorted(self.folder.glob("*.md")):
                if before.get(path) != path.stat().st_mtime_ns and path.name != "MEMORY.md":
                    self.saved.append(path)
                    for listener in self.on_saved:
                        listener(path)
        finally:
            engine.usage.merge(child.usage)  # what the extraction cost is the session's too
            await child.aclose()


def _directive(folder: Path, since: int) -> str:
    from string import Template

    from cc.prompts import load_text

    return Template(load_text("memory/extract.md").strip()).substitute(
        folder=str(folder), since=str(since))
