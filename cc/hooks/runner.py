"""HookRunner: fire an event, run its matching hooks in parallel, combine what they said.

    runner.run(event, payload, match_value)
      → config.matching(...)            matcher, `if`, one run per identical command
      → run_hook_command(...) × N       in parallel; stdin = common fields + payload
        run_prompt_hook / run_http_hook (+ team_name/teammate_name while a teammate acts)
      → combine(...)                    HookOutcome

`async: true` command hooks start in the background and are not waited for; what they
say for the model waits in `take_async_output()` (the engine's news: the next request
carries it), what they say for the user in `drain_user_messages()`.

The typed entry points (`pre_tool_use`, `stop`, `session_start`, …) build each
event's payload with Claude Code's field names. `pre_tool_use`/`post_tool_use`
implement `HookGate` for the tool executor; since they return protocol types,
their messages for the user wait in `drain_user_messages()` and a
`continue: false` waits in `take_stop()`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import uuid
from collections.abc import Callable, Coroutine, Mapping
from pathlib import Path
from typing import Any

from cc.hooks.background import Background
from cc.hooks.config import MATCHER_EVENTS, TOOL_EVENTS, HookCommand, HooksConfig
from cc.hooks.gate import PreToolOutcome
from cc.hooks.http_hook import run_http_hook
from cc.hooks.lifecycle import HookFinished, HookProgress, HookStarted, HookWatcher
from cc.hooks.matchers import rule_matches
from cc.hooks.outcome import HookOutcome, combine
from cc.hooks.payload import error_text, jsonable, team_fields
from cc.hooks.permission_request import ruling_of
from cc.hooks.process import KILL_GRACE, HookResult, run_hook_command, run_host_hook
from cc.hooks.prompt_hook import HookModel, run_prompt_hook
from cc.hooks.watches import Watches
from cc.identity import AgentInfo
from cc.permissions.ask import HookRuling, PermissionRequest
from cc.permissions.updates import allow_suggestion
from cc.tools.base import ToolResult

__all__ = ["HookOutcome", "HookResult", "HookRunner", "StopRequest", "team_fields"]

#: SessionEnd hooks share this budget (seconds), raised to the largest timeout an
#: entry sets, up to `SESSION_END_MAX`; `CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS` overrides.
SESSION_END_BUDGET = 1.5
SESSION_END_MAX = 60.0
#: Consecutive Stop-hook blocks after which the turn ends anyway.
MAX_STOP_BLOCKS = 8
#: Input fields made absolute in tool events (as Claude Code sends them).
_PATH_FIELDS = ("file_path", "notebook_path", "path")

#: Events whose input carries no `permission_mode`, and those with no `prompt_id` (as
#: Claude Code sends them).
_NO_MODE = frozenset({"SessionStart", "SessionEnd", "Setup", "InstructionsLoaded",
                      "MessageDisplay", "CwdChanged", "FileChanged", "StopFailure"})
_NO_PROMPT_ID = frozenset({"SessionStart", "Setup", "InstructionsLoaded"})
#: Events whose input says the effort (those of a request's work, as Claude Code's do).
_EFFORT_EVENTS = TOOL_EVENTS | {"PostToolBatch", "Stop", "SubagentStop", "StopFailure"}

#: (rule, tool_name, tool_input) -> whether the call matches a hook's `if` rule.
RuleMatcher = Callable[[str, str, dict[str, Any]], bool]


@dataclasses.dataclass(frozen=True)
class StopRequest:
    """A hook answered `continue: false`: end the turn, showing `reason` to the user."""

    reason: str | None


class HookRunner:
    """Runs the configured hooks; implements `HookGate`."""

    def __init__(
        self,
        config: HooksConfig,
        *,
        session_id: str,
        transcript_path: str | None,
        cwd: Path,
        project_dir: Path,
        permission_mode: Callable[[], str],
        rule_matcher: RuleMatcher | None = None,
        env: Mapping[str, str] | None = None,
        watcher: HookWatcher | None = None,
    ) -> None:
        self.config = config
        #: Settable: /clear and resume change these.
        self.session_id = session_id
        self.transcript_path = transcript_path
        self.cwd = Path(cwd)
        self.project_dir = Path(project_dir)
        self._permission_mode = permission_mode
        self._rule_matcher = rule_matcher
        self._env = env
        #: Told of each command's start and end (`cc.hooks.lifecycle`).
        self.watcher = watcher
        #: Set in a sub-agent's runner: who it is. Its tool hooks say who acts (a
        #: teammate's every event), and the end of its turn is `SubagentStop`, not `Stop`.
        self.agent: AgentInfo | None = None
        #: A sub-agent's own transcript (SubagentStop's `agent_transcript_path`).
        self.agent_transcript_path: str | None = None
        #: Answers `prompt` hooks (the engine's model); None: they fail, non-blocking.
        self.model: HookModel | None = None
        #: The effort level requests are sent with (None: the model takes none).
        self.effort: Callable[[], str | None] | None = None
        #: The current prompt's id (`prompt_id`): a new one at each UserPromptSubmit.
        self.prompt_id: str | None = None
        self._turn_id = str(uuid.uuid4())
        self._messages: list[str] = []
        self._stop: StopRequest | None = None
        self._stop_blocks = 0
        self._background = Background()
        self._watches = Watches(self.config, self._background, self._fire_watched)
        #: The settings files ConfigChange hooks watch, by Claude Code's source names
        #: (user_settings, project_settings, local_settings).
        self.settings_paths: dict[str, Path] = {}

    # -- the generic entry -------------------------------------------------------

    async def run(
        self, event: str, payload: dict[str, Any], match_value: str | None = None
    ) -> HookOutcome:
        """Run `event`'s hooks whose matcher accepts `match_value`; `payload` adds to
        the common fields. Never raises for a hook's failure (only on cancellation)."""
        hooks = self.config.matching(event, match_value, condition=self._condition(event, payload))
        if not hooks:
            return HookOutcome()
        data = {**self._common(event), **self._agent_fields(event),
                **team_fields(self.agent), **payload}
        stdin = json.dumps(data, ensure_ascii=False, default=jsonable).encode()
        env = {**self._base_env(), "CLAUDE_PROJECT_DIR": str(self.project_dir), "CLAUDECODE": "1"}
        if event == "SessionEnd":
            budget = self._session_end_budget(hooks)
            timeouts, grace = [min(h.timeout, budget) for h in hooks], 0.1
        else:
            timeouts, grace = [h.timeout for h in hooks], KILL_GRACE
        label = f"{event}:{match_value}" if match_value and event in MATCHER_EVENTS else event

        async def one(hook: HookCommand, timeout: float) -> HookResult:
            if hook.kind == "prompt":  # a question to the model: no hook records
                return await run_prompt_hook(hook, data, event=event, ask=self.model,
                                             timeout=timeout)
            hook_id = str(uuid.uuid4())
            if self.watcher is not None:
                self.watcher(HookStarted(hook_id, label, event))
            try:
                if hook.host is not None:  # the program driving cc answers it
                    result = await run_host_hook(hook, data, timeout=timeout)
                elif hook.kind == "http":
                    result = await run_http_hook(hook, stdin, env=env, timeout=timeout)
                else:
                    result = await run_hook_command(hook, stdin, cwd=self.project_dir,
                                                    env=env, timeout=timeout, kill_grace=grace,
                                                    progress=self._progress(hook_id, label, event))
            except asyncio.CancelledError:
                if self.watcher is not None:  # the session ended under it
                    self.watcher(HookFinished(hook_id, label, event,
                                              HookResult(hook, 1, timed_out=True)))
                raise
            if self.watcher is not None:
                self.watcher(HookFinished(hook_id, label, event, result))
            return result

        waited = []
        for hook, timeout in zip(hooks, timeouts, strict=True):
            if hook.is_async and event != "SessionEnd":
                self._in_background(event, label, one(hook, timeout))
            else:
                waited.append((hook, timeout))
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(one(hook, t)) for hook, t in waited]
        return combine(event, label, [t.result() for t in tasks])

    def _progress(self, hook_id: str, label: str, event: str
                  ) -> Callable[[str, str], None] | None:
        watcher = self.watcher
        if watcher is None:
            return None
        return lambda out, err: watcher(HookProgress(hook_id, label, event, out, err))

    def _in_background(self, event: str, label: str,
                       run: Coroutine[Any, Any, HookResult]) -> None:
        """An `async` hook: its output, when it ends, waits for the next request."""

        async def track() -> None:
            result = await run
            out = combine(event, label, [result])
            self._messages.extend(out.user_messages)
            # As Claude Code does: its systemMessage and context, together, for the model.
            message = (result.json or {}).get("systemMessage")
            said = [t.strip() for t in (message, out.additional_context)
                    if isinstance(t, str) and t.strip()]
            if said:
                self._background.say("\n".join(said))
            elif out.blocked and out.reason:
                self._background.say(f"{label} async hook blocking error: {out.reason}")

        self._background.start(track())

    def take_async_output(self) -> list[str]:
        """What `async` hooks that ended said for the model, oldest first; taken."""
        return self._background.take_output()

    async def cancel_async(self) -> None:
        """End the `async` hooks still running and the file watch (the session is over)."""
        await self._background.cancel()

    def _common(self, event: str) -> dict[str, Any]:
        """The fields every event's input starts with, in Claude Code's order."""
        data: dict[str, Any] = {"session_id": self.session_id,
                                "transcript_path": self.transcript_path, "cwd": str(self.cwd)}
        if self.prompt_id is not None and event not in _NO_PROMPT_ID:
            data["prompt_id"] = self.prompt_id
        if event not in _NO_MODE:
            data["permission_mode"] = self.permission_mode
        effort = self.effort() if self.effort is not None and event in _EFFORT_EVENTS else None
        if effort is not None:
            data["effort"] = {"level": effort}
        data["hook_event_name"] = event
        return data

    def _agent_fields(self, event: str) -> dict[str, str]:
        if self.agent is None or event not in TOOL_EVENTS:
            return {}
        return {"agent_id": self.agent.agent_id, "agent_type": self.agent.agent_type}

    @property
    def permission_mode(self) -> str:
        mode = self._permission_mode()
        return "default" if mode == "manual" else mode

    # -- HookGate ------------------------------------------------------------------

    async def pre_tool_use(
        self, tool_name: str, tool_input: dict[str, Any], tool_use_id: str
    ) -> PreToolOutcome:
        payload = {
            "tool_name": tool_name,
            "tool_input": self._absolute(tool_input),
            "tool_use_id": tool_use_id,
        }
        out = await self.run("PreToolUse", payload, tool_name)
        self._note(out)
        # `continue: false` ends the turn once the calls are done; as in Claude Code, it
        # does not stop this call by itself (a block does).
        if out.blocked:
            decision = "deny" if out.permission_decision == "deny" else "block"
            return PreToolOutcome(decision, out.reason, additional_context=out.additional_context,
                                  stop=out.stop, stop_reason=out.stop_reason)
        return PreToolOutcome(
            out.permission_decision,
            out.permission_decision_reason,
            out.updated_input,
            additional_context=out.additional_context,
            stop=out.stop,
            stop_reason=out.stop_reason,
        )

    async def post_tool_use(
        self, tool_name: str, tool_input: dict[str, Any], tool_use_id: str, result: ToolResult,
        *, duration_ms: int | None = None,
    ) -> str | None:
        """Context for the model after the call (it cannot be undone).

        A failed call (`is_error`) fires PostToolUseFailure with `error` instead.
        """
        payload: dict[str, Any] = {"tool_name": tool_name, "tool_input": self._absolute(tool_input)}
        if result.is_error:
            event = "PostToolUseFailure"
            payload["tool_use_id"] = tool_use_id
            payload["error"] = error_text(result)
            payload["is_interrupt"] = False  # an interrupted call fires no hook in cc
        else:
            event = "PostToolUse"
            payload["tool_response"] = result.data if result.data is not None else result.content
            payload["tool_use_id"] = tool_use_id
        if duration_ms is not None:
            payload["duration_ms"] = duration_ms
        out = await self.run(event, payload, tool_name)
        self._note(out)
        return _for_model(f"{event}:{tool_name}", out)

    async def post_tool_batch(
        self, calls: list[tuple[str, dict[str, Any], str, ToolResult]]
    ) -> str | None:
        """After all the calls of one message have their results: `calls` are (name,
        input, id, result) in the message's order. What the hooks say for the model (a
        block's reason, context) comes back, to go with the next request. Not fired when
        a hook has already ended the turn (as Claude Code does)."""
        if self._stop is not None:
            return None
        payload = {"tool_calls": [
            {"tool_name": name, "tool_input": self._absolute(inp), "tool_use_id": tool_use_id,
             "tool_response": error_text(result)}
            for name, inp, tool_use_id, result in calls]}
        out = await self.run("PostToolBatch", payload)
        self._note(out)
        return _for_model("PostToolBatch", out)

    async def permission_request(self, request: PermissionRequest) -> HookRuling | None:
        """`PermissionHooks`: before a permission prompt would be shown, the hooks may
        answer it (`hookSpecificOutput.decision`); None: they leave it to the usual ask.
        A deny with `interrupt: true` also ends the turn."""
        payload = {"tool_name": request.tool_name,
                   "tool_input": self._absolute(request.tool_input),
                   "permission_suggestions": [allow_suggestion(r) for r in request.suggestions]}
        out = await self.run("PermissionRequest", payload, request.tool_name)
        self._note(out)
        decision = out.request_decision or {}
        if decision.get("behavior") == "deny" and decision.get("interrupt") is True:
            message = decision.get("message")
            self._stop = self._stop or StopRequest(message if isinstance(message, str) else None)
        return ruling_of(out.request_decision)

    async def shell_moved(self, cwd: Path) -> None:
        """The shell's folder after a call: if it moved, later events say the new `cwd`
        and CwdChanged fires (`old_cwd`, `new_cwd`). Its hooks decide nothing."""
        if Path(cwd) == self.cwd:
            return
        old, self.cwd = self.cwd, Path(cwd)
        out = await self.run("CwdChanged", {"old_cwd": str(old), "new_cwd": str(self.cwd)})
        self._messages.extend(out.user_messages)
        self._watch_files(out.watch_paths)

    def _watch_files(self, paths: list[str]) -> None:
        """FileChanged hooks watch their matchers' file names in the cwd and `paths`."""
        if self.listens("FileChanged"):
            self._watches.files(self.cwd, paths)

    def _watch_settings(self) -> None:
        """ConfigChange hooks hear of edits to the settings files (`settings_paths`)."""
        if self.settings_paths and self.listens("ConfigChange"):
            self._watches.settings(self.settings_paths)

    def drain_user_messages(self) -> list[str]:
        """Messages from tool hooks for the user, oldest first; clears them."""
        messages, self._messages = self._messages, []
        return messages

    def take_stop(self) -> StopRequest | None:
        """A `continue: false` from a tool or Stop hook since the last call; clears it."""
        stop, self._stop = self._stop, None
        return stop

    # -- the other events ----------------------------------------------------------

    async def user_prompt_submit(self, prompt: str) -> HookOutcome:
        """blocked → erase the prompt (the reason is in user_messages); context → model.
        The prompt gets its `prompt_id`, which the events it leads to carry."""
        self.prompt_id = str(uuid.uuid4())
        self._turn_id = str(uuid.uuid4())
        return await self.run("UserPromptSubmit", {"prompt": prompt})

    async def message_display(self, message_id: str, text: str) -> None:
        """A message of the model's is shown, whole (cc does not show text in pieces to
        hooks): `index` 0, `final`, the text as `delta`. What the hooks say is ignored."""
        await self.run("MessageDisplay", {"turn_id": self._turn_id, "message_id": message_id,
                                          "index": 0, "final": True, "delta": text})

    async def user_prompt_expansion(self, *, expansion_type: str, command_name: str,
                                    command_args: str, command_source: str | None,
                                    prompt: str) -> HookOutcome:
        """A typed command about to become a prompt (an MCP prompt, a slash command);
        matchers test `command_name`. blocked → nothing is sent; context → model."""
        payload: dict[str, Any] = {"expansion_type": expansion_type,
                                   "command_name": command_name, "command_args": command_args}
        if command_source is not None:
            payload["command_source"] = command_source
        payload["prompt"] = prompt
        return await self.run("UserPromptExpansion", payload, command_name)

    async def stop(
        self, stop_hook_active: bool, *, last_assistant_message: str | None = None
    ) -> HookOutcome:
        """blocked → the turn goes on with `reason` as the next (meta) user message."""
        if self.agent is not None:
            return await self.subagent_stop(
                stop_hook_active, agent_id=self.agent.agent_id,
                agent_type=self.agent.agent_type,
                agent_transcript_path=self.agent_transcript_path,
                last_assistant_message=last_assistant_message)
        payload: dict[str, Any] = {"stop_hook_active": stop_hook_active}
        if last_assistant_message is not None:
            payload["last_assistant_message"] = last_assistant_message
        # Claude Code lists its background tasks and crons here; cc reports none.
        payload.update(background_tasks=[], session_crons=[])
        return await self.run("Stop", payload)

    async def stop_check(self, stop_hook_active: bool,
                         last_assistant_message: str | None = None) -> str | None:
        """`LoopDeps.stop_check`: the text that keeps the turn going, or None to end it.

        Messages for the user go to `drain_user_messages()`, a `continue: false` to
        `take_stop()`. After `MAX_STOP_BLOCKS` blocks in a row the turn ends anyway.
        """
        if not stop_hook_active:
            self._stop_blocks = 0
        out = await self.stop(stop_hook_active, last_assistant_message=last_assistant_message)
        self._note(out)
        if out.stop or not (out.blocked or out.additional_context):
            return None
        self._stop_blocks += 1
        if self._stop_blocks > MAX_STOP_BLOCKS:
            self._messages.append(
                f"Stop hooks blocked {MAX_STOP_BLOCKS} times in a row; ending the turn anyway"
            )
            return None
        parts = [p for p in (out.reason if out.blocked else None, out.additional_context) if p]
        return "Stop hook feedback:\n" + "\n\n".join(parts)

    async def stop_failure(self, error: str, last_assistant_message: str | None) -> None:
        """The turn ended on an API error; `error` is its kind (rate_limit, server_error,
        authentication_failed, …), which matchers test. What the hooks say is ignored."""
        payload: dict[str, Any] = {"error": error}
        if last_assistant_message:
            payload["last_assistant_message"] = last_assistant_message
        await self.run("StopFailure", payload, error)

    async def subagent_stop(
        self,
        stop_hook_active: bool,
        *,
        agent_id: str | None = None,
        agent_type: str | None = None,
        agent_transcript_path: str | None = None,
        last_assistant_message: str | None = None,
    ) -> HookOutcome:
        """Like `stop`, for a sub-agent's turn; matchers test `agent_type`."""
        payload: dict[str, Any] = {"stop_hook_active": stop_hook_active}
        extra = {
            "agent_id": agent_id,
            "agent_type": agent_type,
            "agent_transcript_path": agent_transcript_path,
            "last_assistant_message": last_assistant_message,
        }
        payload.update({k: v for k, v in extra.items() if v is not None})
        return await self.run("SubagentStop", payload, agent_type)

    async def session_start(self, source: str, *, model: str | None = None) -> HookOutcome:
        """`source`: startup, resume, clear, compact. Context (stdout too) → model."""
        payload: dict[str, Any] = {"source": source}
        if model is not None:
            payload["model"] = model
        out = await self.run("SessionStart", payload, source)
        self._watch_files(out.watch_paths)
        self._watch_settings()
        return out

    async def setup(self, trigger: str) -> HookOutcome:
        """`trigger`: init (`--init`, `--init-only`) or maintenance (`--maintenance`), what
        matchers test; its context reaches the model."""
        return await self.run("Setup", {"trigger": trigger}, trigger)

    def listens(self, event: str) -> bool:
        """Whether any hook is configured for `event` (to skip preparing its input)."""
        return bool(self.config.matching(event, None))

    async def instructions_loaded(self, file_path: str, memory_type: str,
                                  load_reason: str) -> None:
        """A CLAUDE.md joined the context; `memory_type` is User, Project or Local,
        `load_reason` (session_start, …) what matchers test. Its hooks decide nothing."""
        await self.run("InstructionsLoaded", {"file_path": file_path, "memory_type": memory_type,
                                              "load_reason": load_reason}, load_reason)

    async def session_end(self, reason: str) -> HookOutcome:
        """`reason`: clear, resume, logout, prompt_input_exit, other. Short budget."""
        return await self.run("SessionEnd", {"reason": reason}, reason)

    async def notification(
        self, message: str, *, notification_type: str | None = None, title: str | None = None
    ) -> HookOutcome:
        """Matchers test `notification_type` (permission_prompt, idle_prompt, …)."""
        payload: dict[str, Any] = {"message": message}
        if title is not None:
            payload["title"] = title
        if notification_type is not None:
            payload["notification_type"] = notification_type
        return await self.run("Notification", payload, notification_type)

    def permission_prompt(self, tool_name: str) -> None:
        """A permission dialog opened: Notification hooks (`permission_prompt`) run
        behind it, without holding it up."""

        async def notify() -> None:
            out = await self.notification(f"Claude needs your permission to use {tool_name}",
                                          notification_type="permission_prompt")
            self._messages.extend(out.user_messages)

        self._background.start(notify())

    async def post_compact(self, trigger: str, compact_summary: str) -> HookOutcome:
        """After a compaction: `compact_summary` is the model's whole answer."""
        return await self.run("PostCompact", {"trigger": trigger,
                                              "compact_summary": compact_summary}, trigger)

    async def pre_compact(self, trigger: str, custom_instructions: str | None = None) -> HookOutcome:
        """`trigger`: manual or auto. blocked → do not compact."""
        payload = {"trigger": trigger, "custom_instructions": custom_instructions}
        return await self.run("PreCompact", payload, trigger)

    async def teammate_idle(self, teammate_name: str, team_name: str) -> str | None:
        """A teammate is about to go idle: the feedback that keeps it working (exit 2 or
        `decision: "block"`), or None to let it rest; `continue: false` lets it rest too."""
        out = await self.run("TeammateIdle", {"teammate_name": teammate_name,
                                              "team_name": team_name})
        self._messages.extend(out.user_messages)
        if out.stop or not out.blocked:
            return None
        return "TeammateIdle hook feedback:\n" + (out.reason or "Keep working.")

    async def task_created(self, task_id: str, subject: str, description: str) -> HookOutcome:
        """A task was just created. blocked → undo it (the reason goes to the model)."""
        return await self._task_event("TaskCreated", task_id, subject, description)

    async def task_completed(self, task_id: str, subject: str, description: str) -> HookOutcome:
        """A task is about to be marked completed. blocked → leave it as it is."""
        return await self._task_event("TaskCompleted", task_id, subject, description)

    async def _task_event(self, event: str, task_id: str, subject: str,
                          description: str) -> HookOutcome:
        """Fired from inside a tool call: messages for the user and a `continue: false`
        wait, as for tool hooks, in `drain_user_messages()` and `take_stop()`."""
        payload = {"task_id": task_id, "task_subject": subject, "task_description": description}
        out = await self.run(event, payload)
        self._note(out)
        return out

    async def _fire_watched(self, event: str, payload: dict[str, Any], value: str) -> list[str]:
        """A watched file changed (FileChanged, ConfigChange): the paths its hooks add."""
        out = await self.run(event, payload, value)
        self._messages.extend(out.user_messages)
        return out.watch_paths

    # -- helpers -------------------------------------------------------------------

    def _note(self, out: HookOutcome) -> None:
        self._messages.extend(out.user_messages)
        if out.stop and self._stop is None:
            self._stop = StopRequest(out.stop_reason)

    def _condition(
        self, event: str, payload: dict[str, Any]
    ) -> Callable[[HookCommand], bool] | None:
        if event not in TOOL_EVENTS:
            return None
        tool_name = str(payload.get("tool_name", ""))
        tool_input = payload.get("tool_input")
        tool_input = tool_input if isinstance(tool_input, dict) else {}

        def passes(hook: HookCommand) -> bool:
            if hook.condition is None:
                return True
            if self._rule_matcher is not None:
                return self._rule_matcher(hook.condition, tool_name, tool_input)
            return rule_matches(
                hook.condition, tool_name, tool_input, cwd=self.cwd, project_dir=self.project_dir
            )

        return passes

    def _absolute(self, tool_input: dict[str, Any]) -> dict[str, Any]:
        out = dict(tool_input)
        for key in _PATH_FIELDS:
            value = out.get(key)
            if isinstance(value, str) and value and not os.path.isabs(value):
                out[key] = str(self.cwd / Path(value).expanduser())
        return out

    def _base_env(self) -> Mapping[str, str]:
        return os.environ if self._env is None else self._env

    def _session_end_budget(self, hooks: list[HookCommand]) -> float:
        raw = self._base_env().get("CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS", "")
        if raw.strip().isdigit() and int(raw) > 0:
            return int(raw) / 1000
        explicit = [h.timeout for h in hooks if h.timeout_set]
        return max(SESSION_END_BUDGET, min(SESSION_END_MAX, max(explicit, default=0.0)))


def _for_model(label: str, out: HookOutcome) -> str | None:
    """What hooks that ran after calls say for the model: a block's reason, then their
    context, each named by `label` (None: nothing)."""
    parts = []
    if out.blocked and out.reason:
        parts.append(f"{label} hook blocking error: {out.reason}")
    if out.additional_context:
        parts.append(f"{label} hook additional context: {out.additional_context}")
    return "\n\n".join(parts) or None
