"""The live area: what changes while a turn runs, drawn just above the input line.

    ● The answer so far, streaming in (unfinished paragraph)…
    ● Bash(npm test)                     a running tool, with its latest output
      ⎿  PASS src/calc.test.js
    ● Agent(Count the lines)             a running sub-agent, with its latest calls
      ⎿  Read(src/a.py)
         Bash(wc -l src/a.py)
         +2 more tool uses
    ✻ Working… (4s · ↓ 120 tokens · esc to interrupt)   hidden while a dialog asks
      @alpha · working · Read(a.py)      the team's members, while the session leads one
      › queued: and then add a test      typed while the turn runs
    > _

Finished output (whole paragraphs, tool results) is printed above and leaves here.
"""

from __future__ import annotations

import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, field

Fragments = list[tuple[str, str]]
SPINNER = "·✢✳✶✻✽✻✶✳✢"
#: How many of a running sub-agent's latest calls are shown under its Agent call.
AGENT_CALLS_SHOWN = 3


@dataclass
class Live:
    on_change: Callable[[], None] = lambda: None
    busy: bool = False
    started: float = 0.0
    verb: str = "Working"
    #: Streamed assistant text not yet printed above.
    stream: str = ""
    #: Whether the current message's "●" has been printed already.
    message_started: bool = False
    tokens_done: int = 0
    streamed_chars: int = 0
    retry: str | None = None
    running: dict[str, str] = field(default_factory=dict)
    progress: dict[str, str] = field(default_factory=dict)
    #: The calls (labels, in order) of each running sub-agent, by its Agent call's id.
    agent_calls: dict[str, list[str]] = field(default_factory=dict)
    queued: list[str] = field(default_factory=list)
    #: The team's lines (each a list of fragments), shown whether a turn runs or not.
    team: list[Fragments] = field(default_factory=list)
    #: When the spinner was paused (a dialog waits for an answer); None while it runs.
    paused_at: float | None = None

    def begin(self) -> None:
        self.busy, self.started, self.verb = True, time.monotonic(), "Working"
        self.paused_at = None
        self.stream, self.message_started, self.retry = "", False, None
        self.tokens_done = self.streamed_chars = 0
        self.running.clear()
        self.progress.clear()
        self.agent_calls.clear()
        self.changed()

    def end(self) -> None:
        """The turn is over. Streamed text not printed yet stays until the view prints it."""
        self.busy, self.paused_at = False, None
        self.running.clear()
        self.progress.clear()
        self.agent_calls.clear()
        self.changed()

    def changed(self) -> None:
        self.on_change()

    def pause(self, now: float | None = None) -> None:
        """Hide the spinner and stop its clock (while the user is asked something)."""
        if self.busy and self.paused_at is None:
            self.paused_at = time.monotonic() if now is None else now
            self.changed()

    def resume(self, now: float | None = None) -> None:
        """Show the spinner again; the time it was paused does not count."""
        if self.paused_at is not None:
            now = time.monotonic() if now is None else now
            self.started += max(0.0, now - self.paused_at)
            self.paused_at = None
            self.changed()

    @property
    def tokens(self) -> int:
        return self.tokens_done + self.streamed_chars // 4


def _wrap(text: str, width: int) -> list[str]:
    out: list[str] = []
    for line in text.split("\n"):
        out += textwrap.wrap(line, width, replace_whitespace=False, drop_whitespace=False) or [""]
    return out


def agent_lines(calls: list[str], shown: int = AGENT_CALLS_SHOWN) -> list[tuple[str, str]]:
    """(style, text) of the lines under a running Agent call: its latest calls, then how
    many earlier ones are not shown; "Initializing…" before its first call."""
    if not calls:
        return [("class:dim", "Initializing…")]
    latest = calls[-shown:] if shown > 0 else []
    lines = [("", label) for label in latest]
    hidden = len(calls) - len(latest)
    if hidden:
        lines.append(("class:dim", f"+{hidden} more tool use" + ("" if hidden == 1 else "s")))
    return lines


def _tool_lines(live: Live, inner: int) -> Fragments:
    """Each running tool: its line, then a sub-agent's calls or the tool's latest output."""
    lines: Fragments = []
    for tool_id, label in live.running.items():
        lines.append(("class:tool", "● " + label[:inner]))
        calls = live.agent_calls.get(tool_id)
        if calls is not None:
            for i, (style, text) in enumerate(agent_lines(calls)):
                lines.append((style, ("  ⎿  " if i == 0 else "     ") + text[: inner - 4]))
            continue
        tail = live.progress.get(tool_id, "").rstrip("\n").split("\n")[-1]
        if tail.strip():
            lines.append(("class:dim", "  ⎿  " + tail[: inner - 4]))
    return lines


def spinner_line(live: Live, now: float) -> str:
    elapsed = max(0.0, now - live.started)
    frame = SPINNER[int(elapsed * 8) % len(SPINNER)]
    tokens = f" · ↓ {live.tokens} tokens" if live.tokens else ""
    return f"{frame} {live.verb}… ({int(elapsed)}s{tokens} · esc to interrupt)"


def live_fragments(live: Live, width: int, max_lines: int, now: float | None = None) -> Fragments:
    """The live area as prompt_toolkit (style, text) fragments, ending in a newline."""
    now = time.monotonic() if now is None else now
    inner = max(10, width - 2)
    lines: Fragments = []
    tools = _tool_lines(live, inner)
    if live.stream.strip():
        wrapped = _wrap(live.stream.strip("\n"), inner)
        budget = max(3, max_lines - 4 - len(tools) - len(live.queued) - len(live.team))
        wrapped = wrapped[-budget:]
        for i, line in enumerate(wrapped):
            lead = "● " if i == 0 and not live.message_started else "  "
            lines.append(("", lead + line))
    lines += tools
    if live.busy and live.paused_at is None:
        if live.retry:
            lines.append(("class:warning", "  ⎿  " + live.retry[: inner - 4]))
        lines.append(("class:spinner", spinner_line(live, now)))
    out: Fragments = []
    for style, text in lines:
        out += [(style, text), ("", "\n")]
    for line in live.team:
        out += [*_clip(line, inner), ("", "\n")]
    for text in live.queued:
        shown = " ".join(text.split())
        out += [("class:dim", "  › queued: " + shown[: inner - 12]), ("", "\n")]
    return out


def _clip(line: Fragments, width: int) -> Fragments:
    """A line of fragments cut to `width` characters."""
    out: Fragments = []
    for style, text in line:
        if width <= 0:
            break
        out.append((style, text[:width]))
        width -= len(text)
    return out
