"""The `hooks` settings: read from every settings file, combined, matched per event.

    {"hooks": {"PreToolUse": [{"matcher": "Edit|Write",
                               "hooks": [{"type": "command", "command": "…", "timeout": 60}]}]}}

Hooks from all files are combined (user, project, local, `--settings`), never
overridden. A malformed entry is skipped with a warning that says where it was;
the rest still load. `disableAllHooks: true` in any file turns every hook off.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from cc.config.settings import Settings, SettingsFile
from cc.hooks.matchers import MatcherError, compile_matcher

#: Every event Claude Code knows. Config for all of them loads; cc fires the ones
#: its engine reaches (see `HookRunner`).
HOOK_EVENTS = (
    "PreToolUse",
    "PermissionRequest",
    "PermissionDenied",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "MessageDisplay",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "TaskCreated",
    "TaskCompleted",
    "TeammateIdle",
    "PreCompact",
    "PostCompact",
    "SessionStart",
    "Setup",
    "SessionEnd",
    "InstructionsLoaded",
    "ConfigChange",
    "CwdChanged",
    "DirectoryAdded",
    "FileChanged",
    "WorktreeCreate",
    "WorktreeRemove",
    "Elicitation",
    "ElicitationResult",
)

#: Events whose hooks get the tool call (and whose `if` conditions apply).
TOOL_EVENTS = frozenset(
    {"PreToolUse", "PermissionRequest", "PermissionDenied", "PostToolUse", "PostToolUseFailure"}
)

#: Events that filter by `matcher`; on any other event the matcher is ignored.
MATCHER_EVENTS = TOOL_EVENTS | {
    "UserPromptExpansion",
    "Notification",
    "SessionStart",
    "SessionEnd",
    "PreCompact",
    "PostCompact",
    "SubagentStart",
    "SubagentStop",
    "Setup",
    "ConfigChange",
    "StopFailure",
    "InstructionsLoaded",
    "FileChanged",
    "Elicitation",
    "ElicitationResult",
}

#: Claude Code's default command-hook timeout (seconds) since 2.1.3, and its exceptions.
DEFAULT_TIMEOUT = 600.0
EVENT_TIMEOUTS = {"UserPromptSubmit": 30.0, "MessageDisplay": 10.0}
#: A `prompt` hook's default timeout (seconds), whatever the event.
PROMPT_TIMEOUT = 30.0

_UNSUPPORTED_TYPES = ("agent", "mcp_tool")


@dataclass(frozen=True)
class HookCommand:
    """One handler. `kind` says how it runs: "command" (a shell command or `args`),
    "prompt" (a question to the model; `command` holds the prompt text) or "http" (a
    POST; `command` holds the url)."""

    command: str
    #: Seconds; the event's default when the entry gives none.
    timeout: float
    #: The settings file it came from: "user", "project", "local" or "flagSettings".
    source: str
    #: Exec form (`args`): run `command` with these arguments, without a shell.
    args: tuple[str, ...] | None = None
    #: The `if` field: one permission rule the tool call must match.
    condition: str | None = None
    #: Whether the entry set `timeout` itself (the SessionEnd budget counts only those).
    timeout_set: bool = False
    #: A hook of the program driving cc (an SDK host's callback), run by asking it; its
    #: answer is the hook's JSON output. `command` then names it (`sdk:<callback id>`).
    host: HostHook | None = field(default=None, compare=False)
    kind: str = "command"
    #: `async: true`: run in the background; the turn does not wait for it.
    is_async: bool = False
    #: A prompt hook's `model` (None: the session's model).
    model: str | None = None
    #: A prompt hook's `continueOnBlock`: a block on a tool event lets the turn go on.
    continue_on_block: bool = False
    #: An http hook's `headers` (values may name `allowed_env_vars` as $VAR or ${VAR}).
    headers: tuple[tuple[str, str], ...] = ()
    allowed_env_vars: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[str, tuple[str, ...] | None]:
        """Identical handlers (in several files) run once."""
        return f"{self.kind}:{self.command}", self.args


@dataclass(frozen=True)
class HookMatcher:
    event: str
    matcher: str | None
    hooks: tuple[HookCommand, ...]

    def matches(self, value: str | None) -> bool:
        if value is None or self.event not in MATCHER_EVENTS:
            return True
        return compile_matcher(self.matcher)(value)


@dataclass(frozen=True)
class HookSummary:
    """One row of `/hooks`."""

    event: str
    matcher: str
    command: str
    timeout: float
    source: str


class HostHook(Protocol):
    """Asks the program for a hook's output: `(input, tool_use_id) -> JSON output`."""

    async def __call__(self, payload: dict[str, Any], tool_use_id: str | None
                       ) -> dict[str, Any]: ...


class HooksConfig:
    """The matcher groups of every settings file, in load order (user first), then those
    a program driving cc registered (`add`)."""

    def __init__(self, matchers: Iterable[HookMatcher] = ()) -> None:
        self.matchers = tuple(matchers)

    def add(self, matchers: Iterable[HookMatcher]) -> None:
        self.matchers = (*self.matchers, *matchers)

    def __bool__(self) -> bool:
        return any(m.hooks for m in self.matchers)

    def matching(
        self,
        event: str,
        value: str | None,
        *,
        condition: Callable[[HookCommand], bool] | None = None,
    ) -> list[HookCommand]:
        """The commands to run for `event` whose matcher accepts `value`, each once.

        `value` is the tool name, source, trigger… (None: every matcher accepts).
        `condition` filters on the `if` field before duplicates are dropped.
        """
        seen: set[tuple[str, tuple[str, ...] | None]] = set()
        out: list[HookCommand] = []
        for group in self.matchers:
            if group.event != event or not group.matches(value):
                continue
            for hook in group.hooks:
                if hook.key in seen or (condition is not None and not condition(hook)):
                    continue
                seen.add(hook.key)
                out.append(hook)
        return out

    def summary(self) -> list[HookSummary]:
        rows = []
        for group in self.matchers:
            for hook in group.hooks:
                shown = hook.command if hook.args is None else " ".join((hook.command, *hook.args))
                rows.append(
                    HookSummary(group.event, group.matcher or "*", shown, hook.timeout, hook.source)
                )
        order = {event: i for i, event in enumerate(HOOK_EVENTS)}
        return sorted(rows, key=lambda r: order.get(r.event, len(order)))


def load_hooks(settings: Settings) -> tuple[HooksConfig, list[str]]:
    """The hooks of all settings files, and warnings for the entries skipped."""
    if any(f.data.get("disableAllHooks") is True for f in settings.files):
        return HooksConfig(), []
    warnings: list[str] = []
    matchers: list[HookMatcher] = []
    for file in settings.files:
        matchers.extend(_file_hooks(file, warnings))
    return HooksConfig(matchers), warnings


def _file_hooks(file: SettingsFile, warnings: list[str]) -> list[HookMatcher]:
    label = str(file.path) if file.path is not None else "--settings"
    raw = file.data.get("hooks")
    if raw is None:
        return []
    if not isinstance(raw, dict):
        warnings.append(f"Skipped hooks in {label}: `hooks` must be an object")
        return []
    out: list[HookMatcher] = []
    for event, groups in raw.items():
        where = f"hooks.{event}"
        if event not in HOOK_EVENTS:
            warnings.append(f"Skipped hooks in {label}: unknown hook event {event!r}")
            continue
        if not isinstance(groups, list):
            warnings.append(f"Skipped hooks in {label}: {where} must be a list of matchers")
            continue
        for i, group in enumerate(groups):
            parsed = _group(event, group, file.source, f"{where}[{i}]", label, warnings)
            if parsed is not None:
                out.append(parsed)
    return out


def _group(
    event: str, group: Any, source: str, where: str, label: str, warnings: list[str]
) -> HookMatcher | None:
    def skip(why: str) -> None:
        warnings.append(f"Skipped hooks in {label}: {where} {why}")

    if not isinstance(group, dict):
        skip("must be an object with `matcher` and `hooks`")
        return None
    matcher = group.get("matcher")
    if matcher is not None and not isinstance(matcher, str):
        skip("has a `matcher` that is not a string")
        return None
    try:
        compile_matcher(matcher)
    except MatcherError as exc:
        skip(f"has an invalid matcher: {exc}")
        return None
    entries = group.get("hooks")
    if not isinstance(entries, list):
        skip("needs a `hooks` list")
        return None
    hooks = []
    for j, entry in enumerate(entries):
        hook = _command(event, entry, source)
        if isinstance(hook, str):
            warnings.append(f"Skipped hook in {label}: {where}.hooks[{j}] {hook}")
        else:
            hooks.append(hook)
    return HookMatcher(event, matcher, tuple(hooks))


def _command(event: str, entry: Any, source: str) -> HookCommand | str:
    """The parsed handler, or why it was skipped."""
    if not isinstance(entry, dict):
        return "must be an object"
    kind = entry.get("type")
    if kind in _UNSUPPORTED_TYPES:
        return f'has type "{kind}", which cc does not run (only "command", "prompt", "http")'
    if kind not in ("command", "prompt", "http"):
        return 'needs "type": "command", "prompt" or "http"'
    timeout = entry.get("timeout")
    if timeout is not None and (
        isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0
    ):
        return f"has an invalid timeout {timeout!r} (a positive number of seconds)"
    condition = entry.get("if")
    if condition is not None and (not isinstance(condition, str) or not condition.strip()):
        return "has an `if` that is not a permission rule string"
    default = PROMPT_TIMEOUT if kind == "prompt" else EVENT_TIMEOUTS.get(event, DEFAULT_TIMEOUT)
    common: dict[str, Any] = {
        "timeout": float(timeout) if timeout is not None else default,
        "source": source,
        "condition": condition.strip() if condition else None,
        "timeout_set": timeout is not None,
        "kind": kind,
    }
    if kind == "prompt":
        return _prompt_handler(entry, common)
    if kind == "http":
        return _http_handler(entry, common)
    command = entry.get("command")
    if not isinstance(command, str) or not command.strip():
        return "needs a non-empty `command` string"
    args = entry.get("args")
    if args is not None and not (isinstance(args, list) and all(isinstance(a, str) for a in args)):
        return "has `args` that is not a list of strings"
    return HookCommand(command=command, args=tuple(args) if args is not None else None,
                       is_async=entry.get("async") is True, **common)


def _prompt_handler(entry: dict[str, Any], common: dict[str, Any]) -> HookCommand | str:
    prompt = entry.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        return "needs a non-empty `prompt` string"
    model = entry.get("model")
    if model is not None and (not isinstance(model, str) or not model.strip()):
        return "has a `model` that is not a model name"
    return HookCommand(command=prompt, model=model.strip() if model else None,
                       continue_on_block=entry.get("continueOnBlock") is True, **common)


def _http_handler(entry: dict[str, Any], common: dict[str, Any]) -> HookCommand | str:
    url = entry.get("url")
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        return "needs a `url` starting with http:// or https://"
    headers = entry.get("headers", {})
    if not isinstance(headers, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in headers.items()):
        return "has `headers` that are not an object of strings"
    allowed = entry.get("allowedEnvVars", [])
    if not isinstance(allowed, list) or not all(isinstance(a, str) for a in allowed):
        return "has `allowedEnvVars` that is not a list of names"
    return HookCommand(command=url, headers=tuple(headers.items()),
                       allowed_env_vars=tuple(allowed), **common)
