"""A plain line-by-line interactive loop (the full-screen REPL replaces it).

It shares everything below the UI with print mode: the same engine, events
and slash-command-free turns; it only reads lines and writes what streams.
"""

from __future__ import annotations

import asyncio
import sys
from typing import TYPE_CHECKING

from cc.core.events import (
    Notice,
    RetryEvent,
    StreamDiscarded,
    Terminal,
    TextDelta,
    ThinkingStarted,
    ToolDone,
    ToolStart,
)

if TYPE_CHECKING:
    from cc.core.query_engine import QueryEngine
    from cc.main import Runtime

EXIT_WORDS = {"/exit", "/quit", "exit", "quit"}


async def run_repl(engine: QueryEngine, runtime: Runtime, first: str | None = None) -> int:
    write = sys.stdout.write
    write(f"cc · {engine.model} · {runtime.cwd}\n")
    if not (runtime.credentials.api_key or runtime.credentials.auth_token):
        write("No API key: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN) to talk to a model.\n")
    pending = first
    try:
        while True:
            if pending is None:
                try:
                    line = await asyncio.to_thread(input, "> ")
                except EOFError:
                    return 0
            else:
                line, pending = pending, None
            if not line.strip():
                continue
            if line.strip() in EXIT_WORDS:
                return 0
            await _turn(engine, line)
    finally:
        await engine.aclose()


async def _turn(engine: QueryEngine, prompt: str) -> None:
    write = sys.stdout.write
    async for event in engine.submit(prompt):
        if isinstance(event, TextDelta):
            write(event.text)
        elif isinstance(event, ThinkingStarted):
            write("(thinking…)\n")
        elif isinstance(event, StreamDiscarded):
            write("\n[retrying]\n")
        elif isinstance(event, ToolStart):
            write(f"\n● {event.tool_use.name}({_brief(event.tool_use.input)})\n")
        elif isinstance(event, ToolDone):
            summary = event.result.summary or ("error" if event.result.is_error else "done")
            write(f"  ⎿  {summary}\n")
        elif isinstance(event, RetryEvent):
            write(f"\n[{event.error.message}; retry {event.attempt}/{event.max_retries}]\n")
        elif isinstance(event, Notice):
            write(f"\n[{event.text}]\n")
        elif isinstance(event, Terminal):
            if event.error:
                write(f"\n{event.error}\n")
            write("\n")
        sys.stdout.flush()


def _brief(tool_input: dict[str, object]) -> str:
    for key in ("file_path", "command", "pattern", "path", "url"):
        if key in tool_input:
            return str(tool_input[key])
    return ""
