"""The prompt cache's rule, checked on what the fake API received: each request of a
conversation extends the one before it byte for byte (the same system blocks and tools,
the earlier messages unchanged; the last of them may go on with more content blocks, as
a prompt joined to one that never had an answer does), so the cache's prefix is read,
never written again.

A conversation is the requests of one session and agent (`x-claude-code-session-id`,
`x-claude-code-agent-id`) on one model with tools of ours (side requests have none, or a
server tool only), sent by cc (a request of another client, such as the real Claude Code
resuming a cc session in the cross-over tests, is not checked). Cache breakpoints move from request to request by design, so
`cache_control` is left out of the comparison.

A request that does not extend the one before is a break. Some breaks are the design,
and each is recognised from the two requests alone (`EXCEPTIONS`, in the order tried):

  compaction      the messages start with a summary they did not start with before
                  (the continuation text of `cc/prompts/compact/continuation.md`); or
                  old messages were trimmed in place: a tool result became a
                  `[Old tool result cleared…` placeholder, thinking left an earlier turn
  tool loaded     the tools grew by deferred tools that a `tool_reference` block of the
                  new messages names (ToolSearch loaded them); nothing else changed
  team wiring     SendMessage and TeamDelete changed (and nothing else did) after a
                  TeamCreate or TeamDelete call of the new messages that succeeded
  branch          a resume from an earlier point: the conversation goes on from a
                  complete exchange (its last message an answer with no call pending)
                  with another prompt, dropping what the earlier request had after it;
                  or a rewind: the request before's messages up to a prompt, sent again

The memory keeper's extraction is a fork of the conversation (its messages, then the
keeper's directive): the fork's requests are a conversation of their own, whose first
request has the system and tools of the conversation it forks.

A compaction's summary request is the conversation with the instruction to summarise it
added: it must extend the request before it like any other, but the next request goes
on from that earlier one, not from the summary request (the instruction is not kept).

`check` names every break with the exception that explains it (None: none does);
`breaks` says why each unexplained one breaks, which is what a test asserts empty.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tests.fakeapi import Recorded

Body = dict[str, Any]


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


Key = tuple[str, str, str, str]


def _key(request: Recorded) -> Key | None:
    body, headers = request.body, request.headers
    tools = body.get("tools") or []
    if request.path != "/v1/messages" or not isinstance(body.get("messages"), list) \
            or all("type" in t for t in tools):
        return None  # a side request (none of our tools, a server tool at most)
    agent = headers.get("user-agent", "cc/")
    if not agent.startswith("cc/"):
        return None  # another client's (Claude Code's own, in the cross-over tests)
    return (headers.get("x-claude-code-session-id", ""),
            headers.get("x-claude-code-agent-id", ""), str(body.get("model")), _fork(body))


def _fork(body: Body) -> str:
    """The memory keeper's directive that makes this request a fork's (empty: none)."""
    from cc.prompts import load_text

    start = load_text("memory/extract.md").split(":", 1)[0]
    return next((json.dumps(m) for m in body["messages"] if m.get("role") == "user"
                 and any(t.startswith(start) for t in _texts(m.get("content")))), "")


@dataclass(frozen=True)
class Change:
    """How a request differs from the one before it in its conversation."""

    system: bool
    tools: bool
    #: The first of the earlier request's messages that is not in this one (None: all are).
    message: int | None

    def describe(self, index: int) -> list[str]:
        out = [f"request {index}: its {part} differs from the request before"
               for part in ("system", "tools") if getattr(self, part)]
        if self.message is not None:
            out.append(f"request {index}: message {self.message} of the request before changed")
        return out


@dataclass(frozen=True)
class Break:
    index: int
    change: Change
    #: The named exception that explains it; None: none does (a defect).
    exception: str | None


def _change(before: Body, after: Body) -> Change | None:
    old, new = before["messages"], after["messages"]
    at = next((i for i, m in enumerate(old) if i >= len(new) or new[i] != m), None)
    if at == len(old) - 1 and _grown(old[at], new[at]):
        at = None  # the last message went on with more blocks: its own are still a prefix
    change = Change(json.dumps(before.get("system")) != json.dumps(after.get("system")),
                    json.dumps(before.get("tools")) != json.dumps(after.get("tools")), at)
    return change if change.system or change.tools or at is not None else None


def _grown(old: Body, new: Body) -> bool:
    """`new` is `old` with blocks added after its own (a prompt joined to one that never
    had an answer: a killed session's)."""
    a, b = _blocks(old), _blocks(new)
    return old.get("role") == new.get("role") and len(b) > len(a) and b[: len(a)] == a


# -- reading messages ---------------------------------------------------------------


def _blocks(message: Body) -> list[Body]:
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    return [b.get("text", "") for b in content or [] if isinstance(b, dict)
            and b.get("type") == "text"]


def _new_messages(before: Body, after: Body) -> list[Body]:
    """The messages `after` has past the length of `before`'s."""
    return after["messages"][len(before["messages"]):]


def _calls(messages: list[Body], names: tuple[str, ...]) -> list[str]:
    """Ids of the calls to `names` among `messages` whose result is there, not an error."""
    ids = [b["id"] for m in messages if m.get("role") == "assistant" for b in _blocks(m)
           if b.get("type") == "tool_use" and b.get("name") in names]
    ok = {b.get("tool_use_id") for m in messages if m.get("role") == "user" for b in _blocks(m)
          if b.get("type") == "tool_result" and not b.get("is_error")}
    return [i for i in ids if i in ok]


def _tools(body: Body) -> dict[str, Body]:
    return {str(t.get("name")): t for t in body.get("tools") or []}


def _summary_request(body: Body) -> bool:
    """A compaction's summary request: the conversation with the instruction to summarise
    it as the last text (`cc/prompts/compact/instruction.md`)."""
    from cc.prompts import load_text

    start = load_text("compact/instruction.md").split(":", 1)[0]
    texts = _texts(body["messages"][-1].get("content")) if body["messages"] else []
    return bool(texts) and texts[-1].startswith(start)


# -- the named exceptions -----------------------------------------------------------


def _continuation_start() -> str:
    from cc.prompts import load_text

    return load_text("compact/continuation.md").split("$", 1)[0]


def _summary(message: Body | None) -> bool:
    return message is not None and message.get("role") == "user" and any(
        t.startswith(_continuation_start()) for t in _texts(message.get("content")))


def _compaction(before: Body, after: Body, change: Change) -> bool:
    """A summary now starts the messages (a new one), or old messages were trimmed."""
    if change.system or change.tools:
        return False
    old, new = before["messages"], after["messages"]
    if new and _summary(new[0]) and new[0] != old[0]:
        return True
    return len(new) >= len(old) and all(
        a == b or _trimmed(a, b) for a, b in zip(old, new, strict=False))


def _trimmed(old: Body, new: Body) -> bool:
    """`new` is `old` with a tool result cleared or its thinking dropped (`cc.compact.micro`)."""
    from cc.compact.micro import CLEARED_PREFIX

    if old.get("role") != new.get("role"):
        return False
    a, b = _blocks(old), _blocks(new)
    if old.get("role") == "assistant":
        kept = [x for x in a if x.get("type") not in ("thinking", "redacted_thinking")]
        return kept == b and len(kept) < len(a)
    if len(a) != len(b):
        return False

    def cleared(x: Body, y: Body) -> bool:
        return (x.get("type") == y.get("type") == "tool_result"
                and x.get("tool_use_id") == y.get("tool_use_id")
                and not any(t.startswith(CLEARED_PREFIX) for t in _texts(x.get("content")))
                and any(t.startswith(CLEARED_PREFIX) for t in _texts(y.get("content"))))
    return all(x == y or cleared(x, y) for x, y in zip(a, b, strict=True))


def _tool_loaded(before: Body, after: Body, change: Change) -> bool:
    """Tools were only added, each named by a `tool_reference` of the new messages."""
    if change.system or change.message is not None or not change.tools:
        return False
    old, new = _tools(before), _tools(after)
    added = set(new) - set(old)
    named = {c.get("tool_name") for m in _new_messages(before, after) for b in _blocks(m)
             if b.get("type") == "tool_result" and isinstance(b.get("content"), list)
             for c in b["content"] if isinstance(c, dict) and c.get("type") == "tool_reference"}
    return (bool(added) and added <= named
            and all(new.get(name) == tool for name, tool in old.items()))


#: The tools a team changes in its leader's list (`cc.team.session.TEAM_TOOLS`).
TEAM_TOOLS = ("SendMessage", "TeamDelete")


def _team_wiring(before: Body, after: Body, change: Change) -> bool:
    """Only the team's tools changed, after a TeamCreate or TeamDelete that succeeded."""
    if change.system or change.message is not None or not change.tools:
        return False
    old, new = _tools(before), _tools(after)
    changed = {n for n in set(old) | set(new) if old.get(n) != new.get(n)}
    return changed <= set(TEAM_TOOLS) and bool(
        _calls(_new_messages(before, after), ("TeamCreate", "TeamDelete")))


def _branch(before: Body, after: Body, change: Change) -> bool:
    """A resume from an earlier point with another prompt, or a rewind to an earlier
    prompt (the messages are the request before's up to it)."""
    if change.system or change.tools or change.message is None:
        return False
    at, old, new = change.message, before["messages"], after["messages"]
    if at >= len(new):  # a rewind: the earlier messages up to a prompt, sent again
        return new[-1].get("role") == "user" and bool(_typed(_blocks(new[-1])))
    if at == 0 or at >= len(new) or new[at].get("role") != "user":
        return False
    fork = new[at - 1]  # the exchange the resume goes on from: an answer, no call pending
    pending = any(b.get("type") == "tool_use" for b in _blocks(fork))
    prompt = [b for b in _blocks(new[at]) if b.get("type") != "tool_result"]
    dropped_prompt = [b for b in _blocks(old[at]) if b.get("type") != "tool_result"]
    return (fork.get("role") == "assistant" and not pending and bool(prompt)
            and _typed(prompt) != _typed(dropped_prompt))


def _typed(blocks: list[Body]) -> list[str]:
    """What a person typed: the text that is not a system reminder."""
    return [t for t in _texts(blocks) if not t.lstrip().startswith("<system-reminder>")]


Recogniser = Callable[[Body, Body, Change], bool]
EXCEPTIONS: dict[str, Recogniser] = {
    "compaction": _compaction,
    "tool loaded": _tool_loaded,
    "team wiring": _team_wiring,
    "branch": _branch,
}


# -- the check ----------------------------------------------------------------------


def check(requests: list[Recorded]) -> list[Break]:
    """Every request that breaks the previous one's prefix, with the exception that
    explains it (None: none does)."""
    last: dict[Key, Body] = {}
    found = []
    for index, request in enumerate(requests):
        key = _key(request)
        if key is None:
            continue
        body = _plain(request.body)
        before = last.get(key)
        if before is None and key[3] and key[:3] + ("",) in last:
            # a fork's first request: the system and tools of the conversation it forks
            parent = last[key[:3] + ("",)]
            before = {**parent, "messages": body["messages"][:1]}
        if not _summary_request(body):  # the conversation goes on from the request before
            last[key] = body
        change = _change(before, body) if before is not None else None
        if before is None or change is None:
            continue
        named = next((name for name, explains in EXCEPTIONS.items()
                      if explains(before, body, change)), None)
        found.append(Break(index, change, named))
    return found


def breaks(requests: list[Recorded]) -> list[str]:
    """Why each request that breaks the previous one's prefix, unexplained by a named
    exception, does (empty: none does)."""
    return [line for b in check(requests) if b.exception is None
            for line in b.change.describe(b.index)]


def extends(before: Recorded, after: Recorded) -> list[str]:
    """Why `after` does not read `before` whole from the cache (empty: it does): the same
    system blocks and tools, and `before`'s messages first, cache breakpoints aside."""
    change = _change(_plain(before.body), _plain(after.body))
    return [] if change is None else [line.split(": ", 1)[1] for line in change.describe(0)]
