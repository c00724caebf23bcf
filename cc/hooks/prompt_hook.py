"""Run one `prompt` hook: ask the model to judge the event, read its JSON verdict.

    {"type": "prompt", "prompt": "Block any rm -rf: $ARGUMENTS", "timeout": 30,
     "model": "…", "continueOnBlock": false}

`$ARGUMENTS` in the prompt becomes the event's input JSON (appended after
"ARGUMENTS: " when the prompt does not name it). On Stop and SubagentStop the model
also sees the conversation, and the prompt is put to it as a condition the conversation
must meet. The model answers `{"ok": bool, "reason": "…"}` and the verdict
becomes a command's result, so `combine` treats both alike:

    ok: true                      exit 0, nothing to add
    ok: false                     exit 2, stderr "[<prompt>]: <reason>" (blocks where
                                  the event can block); on PreToolUse the turn also ends
                                  (`continue: false`) unless `continueOnBlock` is set
    no answer, not a verdict,     exit 1: a non-blocking error that says why
    `impossible: true`
    no answer in time             a timeout (non-blocking)
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from typing import Any, Protocol

from cc.hooks.config import HookCommand
from cc.hooks.payload import jsonable
from cc.hooks.process import HookResult

#: The system prompt of the judging request, and the question a Stop hook's prompt
#: becomes (our wording).
SYSTEM_PROMPT = "hooks/prompt_hook.md"
STOP_CONDITION = "hooks/stop_condition.md"
#: Events whose judge reads the conversation too.
CONVERSATION_EVENTS = frozenset({"Stop", "SubagentStop"})
#: The verdict's shape, which the request asks the model to keep to where it can.
VERDICT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"ok": {"type": "boolean"}, "reason": {"type": "string"},
                   "impossible": {"type": "boolean"}},
    "required": ["ok", "reason"],
    "additionalProperties": False,
}
#: Events where a block by a prompt hook ends the turn (unless `continueOnBlock`).
STOPPING_EVENTS = frozenset({"PreToolUse"})
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")


class HookModel(Protocol):
    """Asks the model one question without tools; its text, or None if it failed."""

    async def __call__(self, *, system: str, prompt: str, model: str | None,
                       conversation: bool = False,
                       schema: dict[str, Any] | None = None) -> str | None:
        """`conversation`: the agent's messages go first, `prompt` after them; `schema`:
        the JSON shape the answer must have."""
        ...


def render_prompt(template: str, payload: dict[str, Any]) -> str:
    arguments = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), default=jsonable)
    if "$ARGUMENTS" in template:
        return template.replace("$ARGUMENTS", arguments)
    return f"{template}\n\nARGUMENTS: {arguments}"


async def run_prompt_hook(hook: HookCommand, payload: dict[str, Any], *, event: str,
                          ask: HookModel | None, timeout: float) -> HookResult:
    """Judge `payload` with `hook`'s prompt; never raises for the model's failures."""
    from cc.prompts import load_text

    started = time.monotonic()
    if ask is None:
        result = HookResult(hook, 1, stderr="prompt hooks need a model, and none is set up here")
    else:
        prompt = render_prompt(hook.command, payload)
        conversation = event in CONVERSATION_EVENTS
        if conversation:
            prompt = load_text(STOP_CONDITION).strip().format(condition=prompt)
        try:
            async with asyncio.timeout(timeout):
                answer = await ask(system=load_text(SYSTEM_PROMPT), prompt=prompt,
                                   model=hook.model, conversation=conversation,
                                   schema=VERDICT_SCHEMA)
        except TimeoutError:
            result = HookResult(hook, None, timed_out=True)
        else:
            result = verdict_result(hook, event, answer)
    result.duration_ms = int((time.monotonic() - started) * 1000)
    result.timeout = timeout
    return result


def verdict_result(hook: HookCommand, event: str, answer: str | None) -> HookResult:
    """The model's `answer` read as a hook command's result (see the module's table)."""
    if answer is None:
        return HookResult(hook, 1, stderr="the request to the model failed")
    verdict = parse_verdict(answer)
    if isinstance(verdict, str):
        return HookResult(hook, 1, stdout=answer, stderr=verdict)
    ok, reason = verdict
    if ok:
        return HookResult(hook, 0, stdout=answer)
    text = f"[{hook.command}]: {reason or 'blocked'}"
    output: dict[str, Any] | None = None
    if event in STOPPING_EVENTS and not hook.continue_on_block:
        output = {"continue": False, "stopReason": text}
    return HookResult(hook, 2, stdout=answer, stderr=text, json=output)


def parse_verdict(answer: str) -> tuple[bool, str] | str:
    """`(ok, reason)` from the model's text, or why it is not a verdict."""
    text = _FENCE.sub("", answer.strip())
    start, end = text.find("{"), text.rfind("}")
    try:
        data = json.loads(text[start:end + 1]) if 0 <= start < end else None
    except json.JSONDecodeError:
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("ok"), bool):
        return f'the model did not answer with a verdict ({{"ok": …}}): {answer.strip()[:200]}'
    reason = data.get("reason")
    reason = reason.strip() if isinstance(reason, str) else ""
    if data.get("impossible") is True:
        return f"the model could not judge the event: {reason or 'no reason given'}"
    return data["ok"], reason
