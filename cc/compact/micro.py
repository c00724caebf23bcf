"""Cheap trims before compaction: edits of old messages that need no model call.

Three trims edit the conversation in place and return what they did (a `Trim`):
  - `snip_old_results`: an old, large tool result becomes a short placeholder that
    names the call, so the model can run it again if it needs the output;
  - `dedupe_reads`: of identical Reads of an unchanged file, only the newest keeps
    its content;
  - `drop_old_thinking`: the thinking blocks of earlier turns are removed.
None of them touches a tool_use, a `tool_use_id` or `is_error`, so every call stays
answered. Sizes are estimates: UTF-8 bytes / 4.

Editing an old message changes the request's prefix and throws away a warm prompt
cache. `worth_trimming()` is the policy for when that is worth it; `trim()` works out
what the three would save without changing anything, asks the policy, and applies
them only if it agrees. Each trim is planned as a list of edits first and applied
after, which is what lets `trim()` price them without copying the conversation.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cc.compact.tokens import estimate
from cc.models.content_blocks import (
    ContentBlock,
    RedactedThinkingBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from cc.models.messages import AssistantMessage, Message, UserMessage

__all__ = [
    "CACHE_TTL_S",
    "CLEARED_PREFIX",
    "KEEP_RECENT_RESULTS",
    "LARGE_SAVING_FRACTION",
    "LARGE_SAVING_TOKENS",
    "MIN_RESULT_TOKENS",
    "Trim",
    "dedupe_reads",
    "drop_old_thinking",
    "snip_old_results",
    "trim",
    "worth_trimming",
]

#: Lifetime of the API's default (ephemeral) prompt cache entry, refreshed on each hit.
CACHE_TTL_S = 300.0
#: With a warm cache, trim only when it saves this share of the context...
LARGE_SAVING_FRACTION = 0.25
#: ...or this many tokens.
LARGE_SAVING_TOKENS = 40_000
#: The most recent tool results are never snipped: the model is still working with them.
KEEP_RECENT_RESULTS = 8
#: Results this small (about 800 bytes) are left alone: a placeholder would save little.
MIN_RESULT_TOKENS = 200

#: How every placeholder starts; a result that starts so is never trimmed again.
CLEARED_PREFIX = "[Old tool result cleared"
_MAX_DETAIL_CHARS = 200

#: Tools that cannot change a file: a Read before and after one of them saw the same file.
#: Any tool not listed here, and not in `_PATH_FIELDS`, may change any file (Bash, Agent,
#: MCP tools, tools added later).
_NO_CHANGE_TOOLS = frozenset({"Read", "Grep", "Glob", "WebFetch", "WebSearch"})
#: Tools that change the one file named by this input field.
_PATH_FIELDS = {
    "Edit": "file_path",
    "MultiEdit": "file_path",
    "Write": "file_path",
    "NotebookEdit": "notebook_path",
}


@dataclass
class Trim:
    """What a trim did: blocks cleared or removed, and the tokens that saved."""

    cleared: int = 0
    saved_tokens: int = 0


@dataclass
class _Edit:
    """One planned change: `apply()` makes it; `target` is the id() of the block it clears."""

    target: int
    count: int
    saved: int
    apply: Callable[[], None]


def snip_old_results(
    messages: list[Message],
    *,
    keep_recent: int = KEEP_RECENT_RESULTS,
    min_tokens: int = MIN_RESULT_TOKENS,
) -> Trim:
    """Clear tool results older than the `keep_recent` newest and larger than `min_tokens`."""
    return _apply(_plan_snip(messages, keep_recent, min_tokens, skip=frozenset()))


def dedupe_reads(messages: list[Message], *, cwd: str | Path) -> Trim:
    """Clear Reads that a newer, identical Read of the unchanged file makes redundant."""
    return _apply(_plan_dedupe(messages, cwd))


def drop_old_thinking(messages: list[Message]) -> Trim:
    """Remove thinking and redacted_thinking blocks of earlier turns' assistant messages."""
    return _apply(_plan_thinking(messages))


def worth_trimming(
    *,
    saved_tokens: int,
    context_tokens: int,
    seconds_since_last_response: float | None,
    cache_ttl_s: float = CACHE_TTL_S,
) -> bool:
    """Whether editing old messages to save `saved_tokens` is worth it now.

    An edit changes the request prefix from the edited block on, so everything after it
    misses the prompt cache. At the API's prices a cache read costs 0.1x the base input
    rate and a cache write 1.25x. With a warm cache, the next request pays to write
    everything after the edit (up to 1.25 x context) instead of reading it (0.1 x context);
    each later request saves only 0.1 x `saved_tokens`. A small saving never pays that
    back, so with a warm cache we trim only when the saving is large: a quarter of the
    context, or 40,000 tokens (a fifth of a 200k window). A saving that size also puts
    off the auto-compaction that fires near the window's end, which rewrites the whole
    prefix anyway, costs a summarising call and loses detail.

    When the cache is cold (`cache_ttl_s` or more since the last response) the whole
    prompt is written again whatever we do, so any saving is free. `None` means we do
    not know (a fresh or resumed session): treated as cold.
    """
    if saved_tokens <= 0:
        return False
    if seconds_since_last_response is None or seconds_since_last_response >= cache_ttl_s:
        return True
    if saved_tokens >= LARGE_SAVING_TOKENS:
        return True
    return context_tokens > 0 and saved_tokens >= LARGE_SAVING_FRACTION * context_tokens


def trim(
    messages: list[Message],
    *,
    cwd: str | Path,
    context_tokens: int,
    seconds_since_last_response: float | None,
) -> Trim:
    """All three trims, applied only if `worth_trimming()` agrees; what was applied.

    Planned in the order dedupe, snip, thinking: a Read cleared as a duplicate is not
    snipped (or counted) a second time."""
    dedupe = _plan_dedupe(messages, cwd)
    skip = frozenset(edit.target for edit in dedupe)
    edits = dedupe + _plan_snip(messages, KEEP_RECENT_RESULTS, MIN_RESULT_TOKENS, skip=skip)
    edits += _plan_thinking(messages)
    saved = sum(edit.saved for edit in edits)
    if not worth_trimming(saved_tokens=saved, context_tokens=context_tokens,
                          seconds_since_last_response=seconds_since_last_response):
        return Trim()
    return _apply(edits)


def _apply(edits: list[_Edit]) -> Trim:
    for edit in edits:
        edit.apply()
    return Trim(cleared=sum(e.count for e in edits), saved_tokens=sum(e.saved for e in edits))


# -- snip ---------------------------------------------------------------------------


def _plan_snip(
    messages: list[Message], keep_recent: int, min_tokens: int, *, skip: frozenset[int]
) -> list[_Edit]:
    results = _result_blocks(messages)
    old = results[: len(results) - keep_recent] if keep_recent > 0 else results
    uses: dict[str, ToolUseBlock] | None = None  # made when a result is to be cleared
    edits: list[_Edit] = []
    for block in old:
        if id(block) in skip or _is_cleared(block.content):
            continue
        size = _content_tokens(block.content)
        if size <= min_tokens:
            continue
        if uses is None:
            uses = _uses_by_id(messages)
        text = (f"{CLEARED_PREFIX} to save context. It was the output of "
                f"{_describe(uses.get(block.tool_use_id))}; run it again if you need it.]")
        edit = _replace(block, text, size)
        if edit is not None:
            edits.append(edit)
    return edits


def _describe(use: ToolUseBlock | None) -> str:
    """The call a result answered, in a few words: tool name and path or command."""
    if use is None:
        return "a tool call"
    inp = use.input
    if use.name == "Read":
        where = _field(inp, "file_path") or "a file"
        window = ", ".join(f"{k} {inp[k]}" for k in ("offset", "limit") if inp.get(k) is not None)
        return f"Read {_clip(where)}" + (f" ({window})" if window else "")
    if use.name == "Bash":
        return f"Bash `{_clip(_field(inp, 'command') or '')}`"
    if use.name in ("Grep", "Glob"):
        where = _field(inp, "path") or "the working directory"
        return f"{use.name} `{_clip(_field(inp, 'pattern') or '')}` in {_clip(where)}"
    return use.name


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_DETAIL_CHARS else text[: _MAX_DETAIL_CHARS - 1] + "…"


# -- dedupe -------------------------------------------------------------------------


def _plan_dedupe(messages: list[Message], cwd: str | Path) -> list[_Edit]:
    """Walk the calls in order, remembering the newest Read of each (path, offset, limit).

    A remembered Read is forgotten when a call that may change its file comes: an Edit,
    Write or NotebookEdit of that path, or any other tool not known to change nothing
    (`_NO_CHANGE_TOOLS`), such as Bash. A change in the same assistant message as a Read
    counts as both before and after it, since parallel calls have no order to rely on.
    On top of that the two results must be equal: that also covers what the walk cannot
    see (the user editing the file between turns, another spelling of the same path)."""
    results = {b.tool_use_id: b for b in _result_blocks(messages)}
    newest: dict[tuple[str, Any, Any], ToolResultBlock] = {}
    edits: list[_Edit] = []
    for msg in messages:
        if not isinstance(msg, AssistantMessage):
            continue
        uses = msg.tool_uses
        if not uses:
            continue
        changed = [_changed_path(u, cwd) for u in uses if u.name not in _NO_CHANGE_TOOLS]
        _forget(newest, changed)
        for use in uses:
            if use.name != "Read":
                continue
            result = results.get(use.id)
            path = _field(use.input, "file_path")
            if result is None or result.is_error or path is None:
                continue
            if _is_cleared(result.content):
                continue
            key = (_normalise(path, cwd), use.input.get("offset"), use.input.get("limit"))
            older = newest.get(key)
            if older is not None and older.content == result.content:
                text = (f"{CLEARED_PREFIX}: {_clip(path)} was read again later with the same "
                        "offset and limit and had not changed; the newer copy is further down.]")
                edit = _replace(older, text, _content_tokens(older.content))
                if edit is not None:
                    edits.append(edit)
            newest[key] = result
        _forget(newest, changed)
    return edits


def _changed_path(use: ToolUseBlock, cwd: str | Path) -> str | None:
    """The one file `use` may change, or None when it may change any."""
    name = _PATH_FIELDS.get(use.name)
    path = _field(use.input, name) if name is not None else None
    return _normalise(path, cwd) if path is not None else None


def _forget(newest: dict[tuple[str, Any, Any], ToolResultBlock], changed: list[str | None]) -> None:
    if not changed:
        return
    if None in changed:
        newest.clear()
        return
    for key in [k for k in newest if k[0] in changed]:
        del newest[key]


def _normalise(path: str, cwd: str | Path) -> str:
    return os.path.normpath(os.path.join(cwd, os.path.expanduser(path)))


# -- thinking -----------------------------------------------------------------------


def _plan_thinking(messages: list[Message]) -> list[_Edit]:
    """Edits dropping thinking before the current turn. The last assistant message keeps its
    thinking wherever it is: when the request answers its tool calls, the API wants it."""
    start = _current_turn_start(messages)
    if start == 0:
        return []  # the whole conversation is the current turn
    last = max((i for i, m in enumerate(messages) if isinstance(m, AssistantMessage)), default=-1)
    edits: list[_Edit] = []
    for i, msg in enumerate(messages[:start]):
        if not isinstance(msg, AssistantMessage) or i == last:
            continue
        kept = [b for b in msg.content if not _is_thinking(b)]
        dropped = len(msg.content) - len(kept)
        if not dropped or not kept:  # nothing to drop, or nothing would be left
            continue
        saved = sum(_block_tokens(b) for b in msg.content if _is_thinking(b))
        edits.append(_Edit(id(msg), dropped, saved, _setter(msg, kept)))
    return edits


def _current_turn_start(messages: list[Message]) -> int:
    """Index of the last real prompt: a user message, not meta, not only tool results."""
    for i in range(len(messages) - 1, -1, -1):
        msg = messages[i]
        if isinstance(msg, UserMessage) and not msg.is_meta:
            for b in msg.content:
                if not isinstance(b, ToolResultBlock):
                    return i
    return 0


def _is_thinking(block: ContentBlock) -> bool:
    return isinstance(block, ThinkingBlock | RedactedThinkingBlock)


def _setter(msg: AssistantMessage, kept: list[ContentBlock]) -> Callable[[], None]:
    def apply() -> None:
        msg.content[:] = kept
    return apply


# -- shared -------------------------------------------------------------------------


def _result_blocks(messages: Iterable[Message]) -> list[ToolResultBlock]:
    return [b for m in messages if isinstance(m, UserMessage)
            for b in m.content if isinstance(b, ToolResultBlock)]


def _uses_by_id(messages: Iterable[Message]) -> dict[str, ToolUseBlock]:
    return {u.id: u for m in messages if isinstance(m, AssistantMessage) for u in m.tool_uses}


def _replace(block: ToolResultBlock, text: str, size: int) -> _Edit | None:
    """An edit replacing `block`'s content by `text`, or None if that would save nothing."""
    saved = size - _content_tokens(text)
    if saved <= 0:
        return None

    def apply() -> None:
        block.content = text
    return _Edit(id(block), 1, saved, apply)


def _is_cleared(content: str | list[dict[str, Any]]) -> bool:
    return isinstance(content, str) and content.startswith(CLEARED_PREFIX)


def _field(inp: dict[str, Any], key: str) -> str | None:
    value = inp.get(key)
    return value if isinstance(value, str) and value else None


def _content_tokens(content: str | list[dict[str, Any]]) -> int:
    return estimate(content)


def _block_tokens(block: ContentBlock) -> int:
    return estimate(block.to_api())
