"""A resumed conversation on screen: what was said before, drawn as it was then."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cc.models.content_blocks import TextBlock, ToolResultBlock, ToolUseBlock
from cc.models.messages import AssistantMessage, CompactBoundaryMessage, UserMessage

if TYPE_CHECKING:
    from rich.console import Console

_COMMAND = re.compile(
    r"<command-name>(/[^<]*)</command-name>.*?<command-args>(.*?)</command-args>", re.S
)


def typed_text(message: UserMessage) -> str | None:
    """What the user typed, for a message the user typed (None for tool results, notes)."""
    if message.is_meta or any(isinstance(b, ToolResultBlock) for b in message.content):
        return None
    texts = [b.text for b in message.content if isinstance(b, TextBlock)]
    if not texts or texts[0].startswith("<system-reminder>"):
        return None
    command = _COMMAND.search(texts[0])
    if command:
        return f"{command.group(1)} {command.group(2)}".strip()
    return texts[0]


def render_conversation(console: Console, messages: Sequence[Any], cwd: Path) -> None:
    from cc.ui.render import render_markdown, render_notice, render_tool_use, render_user_prompt

    results: dict[str, bool] = {}
    for m in messages:
        if isinstance(m, UserMessage):
            for b in m.content:
                if isinstance(b, ToolResultBlock):
                    results[b.tool_use_id] = b.is_error
    for m in messages:
        if isinstance(m, CompactBoundaryMessage):
            render_notice(console, "(earlier messages were summarized)")
        elif isinstance(m, UserMessage):
            typed = typed_text(m)
            if typed is not None:
                console.print()
                render_user_prompt(console, typed)
        elif isinstance(m, AssistantMessage):
            for block in m.content:
                if isinstance(block, TextBlock) and block.text.strip():
                    console.print()
                    render_markdown(console, block.text)
                elif isinstance(block, ToolUseBlock):
                    console.print()
                    failed = results.get(block.id, False)
                    render_tool_use(console, block.name, block.input, cwd, failed=failed)
