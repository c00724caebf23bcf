"""Make a loaded conversation whole again after the session that wrote it ended abruptly.

`pair_tool_results()`: a tool call with no result (the session ended while it ran) gets
a synthetic error result saying so, placed right after the call's other results; a
result answering no pending call is dropped; a tool_use id seen twice keeps its first.

`find_killed_tasks()`: background work that was running when the session ended was
killed with it. A background Bash shows as a result whose structured output has
`backgroundTaskId`, a background agent as one with `status: "async_launched"` and
`agentId`. Its end shows as a TaskOutput result whose task is no longer running, a
TaskStop (KillShell) result, a completion notice (ours: `(id X) completed|failed|was
killed`; Claude Code's: `<task-notification>` with `<task-id>`), or the notice that
`killed_notice()` writes, so a task is reported killed once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from cc.models.content_blocks import ContentBlock, TextBlock, ToolResultBlock, ToolUseBlock
from cc.models.messages import (
    AssistantMessage,
    CompactBoundaryMessage,
    Message,
    UserMessage,
    system_reminder,
)
from cc.session.lines import INTERRUPTED_TOOL_TEXT

_ENDED_RE = re.compile(r"\(id ([A-Za-z0-9_-]+)\) (?:completed|failed|was killed)")
_NOTIFICATION_RE = re.compile(r"<task-notification>(.*?)</task-notification>", re.S)
_TASK_ID_RE = re.compile(r"<task-id>\s*([^<\s]+)\s*</task-id>")
_RUNNING = {"running", "pending", None}


@dataclass
class KilledTask:
    """Background work that was running when the session ended."""

    task_id: str
    kind: str  # "bash" or "agent"
    description: str


def pair_tool_results(messages: list[Message]) -> tuple[list[Message], list[str]]:
    out: list[Message] = []
    pending: list[str] = []  # unanswered tool calls of the latest assistant message
    insert_at = 0  # just after that message and the results that follow it
    seen_calls: set[str] = set()
    interrupted = orphans = duplicates = 0

    def close_pending() -> None:
        nonlocal interrupted
        if pending:
            blocks: list[ContentBlock] = [
                ToolResultBlock(tid, INTERRUPTED_TOOL_TEXT, is_error=True) for tid in pending
            ]
            texts = ["Error: " + INTERRUPTED_TOOL_TEXT] * len(pending)
            out.insert(insert_at, UserMessage(blocks, tool_use_result=_data(texts)))
            interrupted += len(pending)
            pending.clear()

    for message in messages:
        if isinstance(message, (AssistantMessage, CompactBoundaryMessage)):
            close_pending()
        if isinstance(message, AssistantMessage):
            kept = []
            for block in message.content:
                if isinstance(block, ToolUseBlock):
                    if block.id in seen_calls:
                        duplicates += 1
                        continue
                    seen_calls.add(block.id)
                kept.append(block)
            message.content = kept
            if not kept:
                continue
            out.append(message)
            pending = [b.id for b in message.tool_uses]
            insert_at = len(out)
            continue
        if isinstance(message, UserMessage) and _results(message):
            dropped = _keep_answers(message, pending)
            orphans += dropped
            if not message.content:
                continue
            out.append(message)
            if insert_at == len(out) - 1 and all(
                isinstance(b, ToolResultBlock) for b in message.content
            ):
                insert_at = len(out)
            continue
        out.append(message)
    close_pending()

    warnings = []
    if interrupted:
        warnings.append(
            f"{interrupted} tool call(s) had not finished when the session ended; "
            "they are marked as interrupted."
        )
    if orphans:
        warnings.append(f"{orphans} tool result(s) answering no tool call were dropped.")
    if duplicates:
        warnings.append(f"{duplicates} repeated tool call(s) were dropped.")
    return out, warnings


def _keep_answers(message: UserMessage, pending: list[str]) -> int:
    """Drop the results of `message` that answer nothing pending; how many were dropped."""
    pairs = _results(message)
    kept_ids = set()
    for block, _ in pairs:
        if block.tool_use_id in pending:
            pending.remove(block.tool_use_id)
            kept_ids.add(id(block))
    if len(kept_ids) == len(pairs):
        return 0
    data = [d for b, d in pairs if id(b) in kept_ids]
    message.content = [
        b for b in message.content if not isinstance(b, ToolResultBlock) or id(b) in kept_ids
    ]
    message.tool_use_result = _data(data) if data else None
    return len(pairs) - len(kept_ids)


def _results(message: UserMessage) -> list[tuple[ToolResultBlock, Any]]:
    """The message's tool results, each with its own structured output."""
    blocks = [b for b in message.content if isinstance(b, ToolResultBlock)]
    data = message.tool_use_result
    if len(blocks) > 1 and isinstance(data, list) and len(data) == len(blocks):
        return list(zip(blocks, data))
    return [(b, data if i == 0 else None) for i, b in enumerate(blocks)]


def _data(values: list[Any]) -> Any:
    return values[0] if len(values) == 1 else values


# -- background work ----------------------------------------------------------------------


def find_killed_tasks(messages: list[Message]) -> list[KilledTask]:
    calls = {b.id: b for m in messages if isinstance(m, AssistantMessage) for b in m.tool_uses}
    started: dict[str, KilledTask] = {}
    ended: set[str] = set()
    for message in messages:
        if not isinstance(message, UserMessage):
            continue
        for block, data in _results(message):
            if isinstance(data, dict) and not block.is_error:
                task = _started(data, calls.get(block.tool_use_id))
                if task is not None:
                    started.setdefault(task.task_id, task)
                ended.update(_ended_by_result(data))
        for block in message.content:
            ended.update(_ended_by_text(_texts(block)))
    return [task for tid, task in started.items() if tid not in ended]


def _started(data: dict[str, Any], call: ToolUseBlock | None) -> KilledTask | None:
    inp = call.input if call is not None else {}
    label = str(inp.get("description") or inp.get("command") or inp.get("prompt") or "")
    task_id = data.get("backgroundTaskId")
    if isinstance(task_id, str) and task_id:
        return KilledTask(task_id, "bash", label or task_id)
    agent_id = data.get("agentId")
    if data.get("status") == "async_launched" and isinstance(agent_id, str) and agent_id:
        return KilledTask(agent_id, "agent", label or agent_id)
    return None


def _ended_by_result(data: dict[str, Any]) -> set[str]:
    ended = set()
    task = data.get("task")
    if isinstance(task, dict) and task.get("status") not in _RUNNING:
        ended.add(str(task.get("task_id")))
    stopped = data.get("task_id") or data.get("shell_id")
    if "message" in data and isinstance(stopped, str):  # TaskStop / KillShell
        ended.add(stopped)
    return ended


def _ended_by_text(texts: list[str]) -> set[str]:
    ended: set[str] = set()
    for text in texts:
        ended.update(_ENDED_RE.findall(text))
        for note in _NOTIFICATION_RE.findall(text):
            ended.update(_TASK_ID_RE.findall(note))
    return ended


def _texts(block: ContentBlock) -> list[str]:
    if isinstance(block, TextBlock):
        return [block.text]
    if isinstance(block, ToolResultBlock):
        if isinstance(block.content, str):
            return [block.content]
        return [str(b.get("text", "")) for b in block.content if isinstance(b, dict)]
    return []


def killed_notice(tasks: list[KilledTask]) -> UserMessage:
    """A meta message telling the model that `tasks` are no longer running."""
    lines = []
    for task in tasks:
        what = "Background agent" if task.kind == "agent" else "Background command"
        lines.append(
            f'{what} "{task.description}" (id {task.task_id}) was killed when the previous '
            "session ended; it is no longer running and its output may be incomplete."
        )
    return UserMessage.text(system_reminder("\n".join(lines)), is_meta=True)
