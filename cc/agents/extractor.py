"""Background memory extraction: a forked agent looks for what to keep, when there is
something to look at and the session has a moment.

    extraction_for(session, lasting) -> ExtractionCoordinator | None
        turn_ended()      a turn of the main agent completed: if the turns not yet looked
                          at hold a sign worth keeping (`cc.memory.worth`), the session
                          waits for them; after IDLE_SECONDS with no turn running they
                          are looked at together, in one extraction
        finish(timeout)   the session ends: the turns still waiting are looked at now,
                          and the end waits for it, within bounds

Most turns hold nothing worth keeping (a question about the code, a fix, tool output),
and looking costs a request that reads the whole conversation; so the decision to look
is made locally from what the user typed, and several turns share one look. The idle
wait stays well inside the prompt cache's lifetime, so the look still reads the main
request's prefix: the extractor is a fork of the main agent (the same system blocks,
tools and conversation) whose only reach is the memory folder: its gate refuses every
call but the file tools inside it, and every write there is checked for secrets. It
stops once a batch of writes that includes the index went well. A failed extraction
is logged and dropped.

Only sessions that outlive their turns extract (the REPL, a program driving cc over
stdin), and only the REPL's exit looks back: print mode, one-shot or driven, exits as
soon as its result is written, waiting on no background work (one-shot print mode does
not extract at all, as Claude Code does not). A conversation compacted or cleared while turns
were waiting is looked at as it last was, before its cache goes cold.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cc.config.env import truthy
from cc.memory.auto_memory import INDEX
from cc.permissions.gate import Decision, HookDecision

if TYPE_CHECKING:
    from cc.agents.control import AgentHost
    from cc.core.query_engine import QueryEngine
    from cc.models.messages import Message
    from cc.tools.base import Tool, ToolInput

log = logging.getLogger(__name__)

#: The turns an extraction may take (a read or two, the writes, the index).
MAX_TURNS = 6
#: How long the session sits idle (no turn running) before waiting turns are looked at:
#: long enough that a user's next prompt usually comes first (the turns coalesce),
#: well inside the prompt cache's five minutes (the look reads the main prefix).
IDLE_SECONDS = 120.0
#: How long the end of a session waits for its last extraction.
FINISH_SECONDS = 20.0
#: What the extractor may use, inside the memory folder only.
FILE_TOOLS = ("Read", "Write", "Edit", "Glob", "Grep")
#: The calls after which the extractor needs no look at the results when they succeed.
WRITES = ("Write", "Edit")


def extraction_for(host: AgentHost, *, lasting: bool) -> ExtractionCoordinator | None:
    """The session's extraction coordinator, listening to its main agent's turns, when
    memory and extraction are on and the session outlives its turns (`lasting`: not
    one-shot print mode); None otherwise."""
    if not lasting or host.memory_dir is None or not extraction_enabled(host.settings):
        return None
    coordinator = ExtractionCoordinator(host.engine, host.memory_dir, host)
    host.engine.on_turn_start(coordinator.turn_started)
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
    def __init__(self, engine: QueryEngine, folder: Path, host: AgentHost, *,
                 idle_seconds: float = IDLE_SECONDS) -> None:
        self.engine = engine
        self.folder = folder
        self.host = host
        #: How long the session must sit idle before waiting turns are looked at.
        self.idle_seconds = idle_seconds
        from cc.memory.worth import worth_keeping  # (its patterns: not for one-shot runs)

        #: What decides whether the user's prompts are worth a look (the sign's kind, or
        #: None): `cc.memory.worth.worth_keeping` (the bench swaps in "every turn").
        self.judge: Callable[[list[str]], str | None] = worth_keeping
        #: The conversation as the last turn left it, and how many of its messages were
        #: looked at (a resumed conversation's were, in the session it comes from).
        self.conversation: tuple[Message, ...] = tuple(engine.messages)
        self.seen = len(self.conversation)
        #: How many of its messages were judged (those before held no sign, or wait).
        self.judged = self.seen
        #: Why the turns since `seen` are worth a look (the sign's kind); None: no turn
        #: waits.
        self.waiting: str | None = None
        self._idle: asyncio.Task[None] | None = None
        self._jobs: list[tuple[tuple[Message, ...], int]] = []
        self.running: asyncio.Task[None] | None = None
        #: Extractions started so far (the bench reads it), and files they wrote.
        self.runs = 0
        self.saved: list[Path] = []
        #: Told of each memory file an extraction wrote (the REPL shows a line).
        self.on_saved: list[Callable[[Path], None]] = []

    @property
    def settled(self) -> bool:
        """Whether nothing is scheduled or under way (turns may still wait)."""
        return ((self._idle is None or self._idle.done())
                and (self.running is None or self.running.done()))

    def turn_started(self) -> None:
        self._cancel_idle()  # not idle any more

    def turn_ended(self) -> None:
        now = tuple(self.engine.messages)
        kept = _common(self.conversation, now)
        if kept == 0 and self.conversation and self.waiting is not None:
            self._look()  # compacted or cleared: the old conversation, while it is cached
        self.seen = min(self.seen, kept)  # (rewound, compacted or cleared: from there on)
        self.judged = max(self.seen, min(self.judged, kept))
        self.conversation = now
        if self.waiting is None:
            from cc.memory.worth import typed_prompts

            self.waiting = self.judge(typed_prompts(now[self.judged:]))
        self.judged = len(now)
        if self.waiting is not None:
            self._cancel_idle()
            self._idle = self.engine.supervisor.spawn(self._after_idle(),
                                                      name="memory-extraction-idle")

    async def finish(self, timeout: float = FINISH_SECONDS) -> None:
        """The session ends: the turns still waiting are looked at now; wait for the
        extractions (at most `timeout` seconds; the session's close ends what is left)."""
        self._cancel_idle()
        self._look()
        task = self.running
        if task is None or task.done():
            return
        await asyncio.wait({task}, timeout=timeout)
        if not task.done():
            log.info("memory extraction still running after %.0f s; left to the close", timeout)

    def _cancel_idle(self) -> None:
        if self._idle is not None and not self._idle.done():
            self._idle.cancel()
        self._idle = None

    async def _after_idle(self) -> None:
        await asyncio.sleep(self.idle_seconds)
        self._look()

    def _look(self) -> None:
        """An extraction of the turns waiting, after any under way."""
        if self.waiting is None:
            return
        log.debug("memory extraction: %s", self.waiting)
        self._jobs.append((self.conversation, self.seen))
        self.seen, self.waiting = len(self.conversation), None
        if self.running is None or self.running.done():
            self.running = self.engine.supervisor.spawn(self._work(), name="memory-extraction")

    async def _work(self) -> None:
        while self._jobs:
            conversation, since = self._jobs.pop(0)
            try:
                await self._extract(conversation, since)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - a failed extraction is dropped
                log.warning("memory extraction failed: %s: %s", type(exc).__name__, exc)

    async def _extract(self, conversation: tuple[Message, ...], since: int) -> None:
        from cc.core.spec import AgentSpec
        from cc.models.messages import UserMessage

        engine = self.engine
        self.runs += 1
        index, whole_at = _index(self.folder)
        directive = UserMessage.text(_directive(self.folder, since, index), is_meta=True)
        spec = AgentSpec(model=engine.model, system=list(engine.config.system),
                         permission_mode="dontAsk", tools=tuple(engine.registry.names),
                         max_turns=MAX_TURNS, thinking_budget=engine.config.thinking_budget,
                         controls=engine.config.controls.without_task_budget(),
                         max_output_tokens=engine.config.max_output_tokens,
                         session_id=engine.session_id, internal=True,
                         gate=MemoryOnlyGate(self.folder, self.host.cwd),
                         hooks=False,  # internal work: the user's hooks are not told of it
                         compaction=False, seed=(*conversation, directive))
        child = await self.host.fork(engine, spec, inherit_tools=True)
        if whole_at is not None:  # the directive showed the index whole: it was read
            from cc.tools.base import FileReadRecord

            child.executor.ctx.read_files[str(self.folder / INDEX)] = FileReadRecord(whole_at)
        try:
            before = {p: p.stat().st_mtime_ns for p in self.folder.glob("*.md")}
            await _run(child)
            for path in sorted(self.folder.glob("*.md")):
                if before.get(path) != path.stat().st_mtime_ns and path.name != "MEMORY.md":
                    self.saved.append(path)
                    for listener in self.on_saved:
                        listener(path)
        finally:
            engine.usage.merge(child.usage)  # what the extraction cost is the session's too
            await child.aclose()


def _common(before: tuple[Message, ...], now: tuple[Message, ...]) -> int:
    """How many leading messages `now` shares with `before` (by uuid)."""
    n = 0
    for old, new in zip(before, now, strict=False):
        if old.uuid != new.uuid:
            break
        n += 1
    return n


async def _run(child: QueryEngine) -> None:
    """The extractor's turn, ended as soon as a batch of writes that includes the index
    went well: nothing is left for the model to look at, so no request to ask it."""
    from cc.core.events import AssistantEvent, ToolDone

    calls: dict[str, bool] = {}  # the batch's call ids: whether each writes the index
    done = 0
    look = False  # the model has results to look at: a read's, or a refusal
    async for event in child.run_turn():
        if isinstance(event, AssistantEvent):
            uses = event.message.tool_uses
            calls = {u.id: Path(str(u.input.get("file_path", ""))).name == INDEX
                     for u in uses}
            done, look = 0, any(u.name not in WRITES for u in uses)
        elif isinstance(event, ToolDone) and event.tool_use.id in calls:
            done += 1
            look |= event.result.is_error
            if done == len(calls) and not look and any(calls.values()):
                child.end_turn_after_tools("the memory index is written")


def _index(folder: Path) -> tuple[str, int | None]:
    """The index as the directive shows it, and its mtime when shown whole (the keeper
    may then rewrite it without reading it first); None when cut or missing."""
    from cc.memory.auto_memory import load_index

    path = folder / INDEX
    try:
        mtime = path.stat().st_mtime_ns
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "(no memories yet)", None
    shown = load_index(folder)
    if shown is None:
        return "(no memories yet)", None
    return shown, mtime if shown == text.rstrip("\n") else None


def _directive(folder: Path, since: int, index: str) -> str:
    from string import Template

    from cc.prompts import load_text

    return Template(load_text("memory/extract.md").strip()).substitute(
        folder=str(folder), since=str(since), index=index)
