"""How big the conversation is, in tokens: the one count the loop, /context and the
status line use.

The last response reported exactly what its request held (input, cache reads and
writes) and what it added (output); what joined the conversation after it is estimated
at UTF-8 bytes / 4, which errs high, the safe side for deciding when to compact.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from cc.models.messages import AssistantMessage, Message, SystemMessage


def estimate(value: Any) -> int:
    """Tokens of a JSON-able value, estimated from its UTF-8 size."""
    if isinstance(value, str):
        return len(value.encode()) // 4
    return len(json.dumps(value, ensure_ascii=False).encode()) // 4


def reported(usage: dict[str, Any] | None) -> int:
    """What a response's usage says the context held once it was written."""
    if not usage:
        return 0
    return sum(int(usage.get(key) or 0) for key in (
        "input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens",
        "output_tokens"))


def context_tokens(messages: Sequence[Message], *,
                   overhead: int | Callable[[], int] = 0) -> int:
    """The conversation's size: the last reported usage plus an estimate of what came
    after it; with no usage yet, an estimate of everything plus `overhead` (the system
    prompt and tools, which a reported figure already includes; a function is called
    only then)."""
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if isinstance(message, AssistantMessage) and reported(message.usage):
            return reported(message.usage) + messages_tokens(messages[index + 1:])
    return (overhead() if callable(overhead) else overhead) + messages_tokens(messages)


def messages_tokens(messages: Sequence[Message]) -> int:
    """An estimate of `messages` as the API would get them."""
    return sum(estimate(m.to_api()) for m in messages if not isinstance(m, SystemMessage))
