"""One turn on screen: engine events in, live-area updates and printed output out.

Assistant text streams into the live area and is printed as Markdown a paragraph at
a time (never splitting a fenced code block); a tool call is printed when it ends,
with its result; retries, notices and errors are printed as they come. When a turn
is stopped, the text streamed so far is printed too (it is never just dropped).

A sub-agent's events (`SubagentEvent`) only feed the live area under its Agent call:
the calls it makes are listed there while it runs, and its text is never streamed
into the answer. The Agent call is printed like any tool when it ends, with its
summary ("Done (2 tool uses · 1,234 tokens · 3.1s)").
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from cc.core.events import (
    AssistantEvent,
    BlockComplete,
    Event,
    ModelFallback,
    Notice,
    RequestStart,
    RetryEvent,
    StreamDiscarded,
    SubagentEvent,
    Terminal,
    TextDelta,
    ThinkingStarted,
    ToolDone,
    ToolProgress,
    ToolStart,
)
from cc.models.content_blocks import OpaqueBlock, TextBlock, ToolUseBlock
from cc.ui.repl.live import Live
from cc.ui.repl.printer import Printer

if TYPE_CHECKING:
    from rich.console import Console

MAX_PROGRESS_CHARS = 2000


def split_paragraphs(text: str) -> tuple[str, str]:
    """(finished paragraphs, the rest): cut at the last blank line outside a code fence."""
    lines = text.split("\n")
    in_fence, seen_text, cut = False, False, None
    for i, line in enumerate(lines[:-1]):  # the last line may still be growing
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            in_fence = not in_fence
        if stripped:
            seen_text = True
        elif not in_fence and seen_text:
            cut = i
    if cut is None:
        return "", text
    return "\n".join(lines[:cut]), "\n".join(lines[cut + 1 :])


class TurnView:
    def __init__(self, printer: Printer, live: Live, cwd: Path,
                 memory_dir: Path | None = None) -> None:
        self.printer = printer
        self.live = live
        self.cwd = cwd
        #: The project's memory folder: a file saved there gets a line of its own.
        self.memory_dir = memory_dir
        self._printed_since_request = False
        #: Tools started and not finished: shown with the interrupt notice if the turn stops.
        self._running: dict[str, ToolUseBlock] = {}

    async def handle(self, event: Event) -> None:
        live = self.live
        if isinstance(event, TextDelta):
            live.stream += event.text
            live.streamed_chars += len(event.text)
            done, rest = split_paragraphs(live.stream)
            if done.strip():
                live.stream = rest
                await self._print_text(done)
            live.changed()
        elif isinstance(event, ThinkingStarted):
            live.verb = "Thinking"
            live.changed()
        elif isinstance(event, BlockComplete):
            if isinstance(event.block, TextBlock):
                await self.flush()
            elif isinstance(event.block, OpaqueBlock):
                from cc.ui.render import render_opaque

                await self.flush()
                block = event.block
                await self.printer.print(lambda c: render_opaque(c, block), gap=True)
        elif isinstance(event, AssistantEvent):
            await self.flush()
            live.tokens_done += int(event.message.usage.get("output_tokens") or 0)
            live.streamed_chars = 0
            live.changed()
        elif isinstance(event, RequestStart):
            self._printed_since_request = False
            live.verb = "Working"
        elif isinstance(event, StreamDiscarded):
            live.stream, live.streamed_chars, live.message_started = "", 0, False
            if self._printed_since_request:
                await self._notice("(the response was cut off; trying again)")
            live.changed()
        elif isinstance(event, ToolStart):
            from cc.ui.render import tool_label

            use = event.tool_use
            self._running[use.id] = use
            live.running[use.id] = tool_label(use.name, use.input, self.cwd)
            live.changed()
        elif isinstance(event, ToolProgress):  # one line of output at a time
            live.progress[event.tool_use_id] = event.text[-MAX_PROGRESS_CHARS:]
            live.changed()
        elif isinstance(event, ToolDone):
            await self._tool_done(event)
        elif isinstance(event, SubagentEvent):
            self._subagent(event)
        elif isinstance(event, (RetryEvent, ModelFallback)):
            from cc.ui.render import render_retry

            summary = event.summary
            await self.printer.print(lambda c: render_retry(c, summary))
        elif isinstance(event, Notice):
            await self._notice(event.text)
        elif isinstance(event, Terminal):
            await self.flush()
            if event.error:
                from cc.ui.render import render_error

                message = event.error
                await self.printer.print(lambda c: render_error(c, message), gap=True)

    def _subagent(self, event: SubagentEvent) -> None:
        """Note a running sub-agent's calls under its Agent call; nothing else of it shows."""
        parent_id = event.agent.parent_tool_use_id
        if parent_id not in self.live.running:  # its call is over (or ran in the background)
            return
        first = parent_id not in self.live.agent_calls
        calls = self.live.agent_calls.setdefault(parent_id, [])  # "Initializing…" till a call
        inner = event.event
        if isinstance(inner, ToolStart):
            from cc.ui.render import tool_label

            calls.append(tool_label(inner.tool_use.name, inner.tool_use.input, self.cwd))
        elif not first:
            return  # its text, requests and results: nothing to show
        self.live.changed()

    async def _tool_done(self, event: ToolDone) -> None:
        from cc.ui.render import render_tool

        self._running.pop(event.tool_use.id, None)
        self.live.running.pop(event.tool_use.id, None)
        self.live.progress.pop(event.tool_use.id, None)
        self.live.agent_calls.pop(event.tool_use.id, None)
        use, result = event.tool_use, event.result
        draw = lambda c: render_tool(c, use.name, use.input, result, self.cwd)  # noqa: E731
        await self.printer.print(draw, gap=True)
        self._printed_since_request = True
        self.live.changed()
        saved = saved_memory(use.name, use.input, result.is_error, self.memory_dir)
        if saved is not None:
            await self._notice(memory_line(saved))

    async def _print_text(self, text: str) -> None:
        from cc.ui.render import render_markdown

        first = not self.live.message_started
        self.live.message_started = True
        self._printed_since_request = True
        await self.printer.print(lambda c: render_markdown(c, text, first=first), gap=True)

    async def _notice(self, text: str) -> None:
        from cc.ui.render import render_notice

        await self.printer.print(lambda c: render_notice(c, text))

    async def flush(self) -> None:
        """Print whatever streamed text is left; the next text starts a new "●"."""
        text, self.live.stream = self.live.stream, ""
        if text.strip():
            await self._print_text(text)
        self.live.message_started = False
        self.live.changed()

    async def interrupted(self) -> None:
        """The turn was stopped: what streamed so far stays, then the tools it stopped."""
        await self.flush()
        from cc.ui.render import render_error, render_tool_use

        uses, self._running = list(self._running.values()), {}

        def draw(c: Console) -> None:
            for use in uses:
                render_tool_use(c, use.name, use.input, self.cwd, failed=True)
            render_error(c, "Interrupted by user")

        await self.printer.print(draw, gap=bool(uses))


def saved_memory(tool: str, tool_input: dict[str, object], failed: bool,
                 folder: Path | None) -> Path | None:
    """The memory file a successful Write or Edit saved, if it saved one."""
    path = tool_input.get("file_path")
    if folder is None or failed or tool not in ("Write", "Edit") or not isinstance(path, str):
        return None
    from cc.memory.auto_memory import INDEX, inside

    target = Path(path)
    return target if inside(folder, target) and target.name != INDEX else None


def memory_line(path: Path) -> str:
    return f"Saved a memory: {path.stem} (/memory to see them all)"
