"""The conversation as plain text, for /export: what was typed, what the model said
(its markdown as written), each tool call with its main argument and the first lines
of its result.

    > fix the test
    ● Read(tests/test_calc.py)
      ⎿  def test_add(): ...
    ● The test expects 3; add() returned -1. Fixed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cc.models.content_blocks import TextBlock, ToolResultBlock, ToolUseBlock
from cc.models.messages import AssistantMessage, CompactBoundaryMessage, Message, UserMessage

__all__ = ["conversation_text"]

#: How many lines of a tool's result are kept.
RESULT_LINES = 4
_COMMAND = re.compile(
    r"<command-name>(/[^<]*)</command-name>.*?<command-args>(.*?)</command-args>", re.S
)
#: The input field that says most about a call, tried in order.
_MAIN_FIELDS = ("command", "file_path", "notebook_path", "pattern", "path", "url", "query",
                "skill", "description", "prompt")


def conversation_text(messages: Sequence[Message], cwd: Path) -> str:
    parts: list[str] = []
    for message in messages:
        if isinstance(message, CompactBoundaryMessage):
            parts.append("(earlier messages were summarized)")
        elif isinstance(message, UserMessage):
            parts += _user_parts(message)
        elif isinstance(message, AssistantMessage):
            parts += _assistant_parts(message, cwd)
    return "\n\n".join(parts) + "\n" if parts else ""


def _user_parts(message: UserMessage) -> list[str]:
    results = [b for b in message.content if isinstance(b, ToolResultBlock)]
    if results:
        return [_result(b) for b in results]
    texts = [b.text for b in message.content if isinstance(b, TextBlock)]
    if message.is_meta or not texts or texts[0].startswith("<system-reminder>"):
        return []
    command = _COMMAND.search(texts[0])
    typed = f"{command.group(1)} {command.group(2)}".strip() if command else texts[0]
    if typed.startswith("<local-command-stdout>"):
        return [_indented("  ⎿  ", typed.removeprefix("<local-command-stdout>")
                          .removesuffix("</local-command-stdout>"))]
    return [_indented("> ", typed)]


def _assistant_parts(message: AssistantMessage, cwd: Path) -> list[str]:
    parts = []
    for block in message.content:
        if isinstance(block, TextBlock) and block.text.strip():
            parts.append(_indented("● ", block.text.strip()))
        elif isinstance(block, ToolUseBlock):
            parts.append(f"● {block.name}({_main_argument(block.input, cwd)})")
    return parts


def _main_argument(tool_input: dict[str, Any], cwd: Path) -> str:
    for name in _MAIN_FIELDS:
        value = tool_input.get(name)
        if isinstance(value, str) and value:
            if name.endswith("path") and value.startswith(f"{cwd}/"):
                value = value[len(str(cwd)) + 1:]
            return _one_line(value)
    return _one_line(json.dumps(tool_input, ensure_ascii=False)) if tool_input else ""


def _result(block: ToolResultBlock) -> str:
    content: Any = block.content
    if isinstance(content, list):
        content = "\n".join(str(c.get("text", "")) for c in content
                            if isinstance(c, dict) and c.get("type") == "text")
    lines = str(content).strip().splitlines() or ["(no output)"]
    if len(lines) > RESULT_LINES:
        lines = [*lines[:RESULT_LINES], f"… +{len(lines) - RESULT_LINES} lines"]
    prefix = "  ⎿  Error: " if block.is_error else "  ⎿  "
    return _indented(prefix, "\n".join(lines), indent="     ")


def _indented(prefix: str, text: str, indent: str = "  ") -> str:
    first, *rest = text.splitlines() or [""]
    return "\n".join([prefix + first, *(indent + line if line else "" for line in rest)])


def _one_line(text: str, limit: int = 100) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
