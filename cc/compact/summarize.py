"""The summary request, and what is made of its answer.

The request is the main request with one thing added: the same model, system blocks,
tools and thinking, the conversation as it stands, and our summarisation instruction
as the last user text. Everything before that text is a prefix the previous request
wrote to the prompt cache, so the summary costs little more than its own answer. If it
fails, one plain request follows (no tools, the conversation as text).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from string import Template
from typing import Any

from cc.core.client import ModelRequest
from cc.core.controls import RequestControls
from cc.models.content_blocks import TextBlock, ToolResultBlock, ToolUseBlock
from cc.models.messages import (
    AssistantMessage,
    CompactBoundaryMessage,
    Message,
    UserMessage,
    normalize_messages_for_api,
)
from cc.prompts.builder import PromptSection

_SUMMARY = re.compile(r"<summary>(.*?)(?:</summary>|\Z)", re.S)
_ANALYSIS = re.compile(r"<analysis>.*?(?:</analysis>|\Z)", re.S)
#: What the plain fallback request keeps of a long conversation (characters).
FALLBACK_CHARS = 400_000
#: A tool result is kept this long in the fallback's text (paths and commands survive).
FALLBACK_RESULT_CHARS = 2_000


def instruction(custom: str | None = None) -> str:
    from cc.prompts import load_text

    extra = f"\nAdditional instructions from the user:\n{custom.strip()}\n" if custom else ""
    return Template(load_text("compact/instruction.md").strip()).substitute(custom=extra)


def summary_request(
    messages: Sequence[Message],
    *,
    model: str,
    max_tokens: int,
    system: Sequence[PromptSection],
    tools: list[dict[str, Any]],
    thinking_budget: int | None,
    controls: RequestControls | None = None,
    custom: str | None = None,
) -> ModelRequest:
    """The main request plus the instruction, as the last user text."""
    asked = [*messages, UserMessage.text(instruction(custom))]
    return ModelRequest(model=model, max_tokens=max_tokens, system=system,
                        messages=normalize_messages_for_api(asked), tools=tools,
                        thinking_budget=thinking_budget,
                        controls=controls or RequestControls())


def fallback_request(messages: Sequence[Message], *, model: str, max_tokens: int,
                     custom: str | None = None) -> ModelRequest:
    """A plain request: the conversation as text, no tools, a one-line system prompt."""
    text = transcript_text(messages)
    if len(text) > FALLBACK_CHARS:
        text = "[…earlier part left out…]\n" + text[-FALLBACK_CHARS:]
    prompt = f"<conversation>\n{text}\n</conversation>\n\n{instruction(custom)}"
    system = [PromptSection("summariser", "You summarise a coding conversation so that "
                            "the work can carry on from the summary alone.", cacheable=False)]
    return ModelRequest(model=model, max_tokens=max_tokens, system=system,
                        messages=[{"role": "user", "content": [{"type": "text",
                                                                "text": prompt}]}])


def transcript_text(messages: Sequence[Message]) -> str:
    """The conversation as plain text: prompts, answers, calls and (clipped) results."""
    lines: list[str] = []
    for message in messages:
        if isinstance(message, AssistantMessage):
            for block in message.content:
                if isinstance(block, TextBlock):
                    lines.append(f"Assistant: {block.text}")
                elif isinstance(block, ToolUseBlock):
                    lines.append(f"Assistant called {block.name}: {block.input}")
        elif isinstance(message, UserMessage):
            for block in message.content:
                if isinstance(block, ToolResultBlock):
                    content = block.content if isinstance(block.content, str) else " ".join(
                        str(b.get("text", "")) for b in block.content)
                    lines.append(f"Tool result: {content[:FALLBACK_RESULT_CHARS]}")
                elif isinstance(block, TextBlock):
                    lines.append(f"User: {block.text}")
        elif isinstance(message, CompactBoundaryMessage):
            lines.append(f"Earlier summary: {message.summary}")
    return "\n".join(lines)


def summary_of(answer: str) -> str | None:
    """The summary body of the model's answer (its analysis left out); None if empty."""
    found = _SUMMARY.search(answer)
    body = found.group(1) if found else _ANALYSIS.sub("", answer)
    body = body.strip()
    return body or None
