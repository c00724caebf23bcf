"""SessionOptions: what the flags, settings and environment ask of a session, resolved once.

`resolve_options()` is the one place flags meet settings and environment variables; it
raises `UsageError` for what cannot be done and reads only the files flags name
(`--system-prompt-file`). Everything after start-up works from the result.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cc.cli_args import split_tool_list
from cc.config.attribution import COMMIT_TRAILER, PR_TRAILER, attribution_from
from cc.config.env import simple_mode, truthy
from cc.core.controls import RequestControls
from cc.errors import UsageError

if TYPE_CHECKING:
    from cc.config.settings import Settings


COORDINATOR_ENV = "CLAUDE_CODE_COORDINATOR_MODE"
#: How many answers that do not conform end a turn, unless MAX_STRUCTURED_OUTPUT_RETRIES
#: says otherwise.
STRUCTURED_OUTPUT_RETRIES = 5
#: What a coordinator keeps: it delegates, follows its workers and keeps the task list.
COORDINATOR_TOOLS = ("Agent", "SendMessage", "TaskStop", "TaskCreate", "TaskGet", "TaskList",
                     "TaskUpdate")


@dataclass(frozen=True)
class SessionOptions:
    model: str
    permission_mode: str
    max_turns: int | None = None
    #: `--max-budget-usd` (print mode): the turn ends once the estimated cost reaches it.
    max_budget_usd: float | None = None
    #: `--fallback-model a,b`: the models a turn moves to when its model is busy or missing.
    fallback_models: tuple[str, ...] = ()
    thinking_budget: int | None = None
    #: Thinking mode and display, effort, task budget, betas (`cc.core.controls`).
    controls: RequestControls = RequestControls()
    max_output_tokens: int | None = None
    allowed_tools: tuple[str, ...] = ()
    disallowed_tools: tuple[str, ...] = ()
    add_dirs: tuple[str, ...] = ()
    #: The built-in tools offered (`--tools`); None: the default set.
    tools: tuple[str, ...] | None = None
    #: `--system-prompt`/`--system-prompt-file`: replaces the built-in prompt.
    system_prompt: str | None = None
    append_system_prompt: str | None = None
    #: What commits and pull request descriptions end with (settings `attribution`).
    commit_trailer: str | None = COMMIT_TRAILER
    pr_trailer: str | None = PR_TRAILER
    #: The language replies are in (settings `language`); None: the user's own.
    language: str | None = None
    #: `--session-id`, validated.
    session_id: str | None = None
    #: `--agents`: custom sub-agents as a JSON object (its entries are checked when loaded).
    agents_json: str | None = None
    #: Coordinator mode (`CLAUDE_CODE_COORDINATOR_MODE=1`): the main agent only delegates.
    coordinator: bool = False
    #: Someone at the terminal answers (the REPL): the tools that ask a person
    #: (AskUserQuestion, plan mode's) are offered. False in print mode.
    interactive: bool = False
    #: `--mcp-config`: files or JSON strings naming MCP servers.
    mcp_configs: tuple[str, ...] = ()
    #: `--strict-mcp-config`: no MCP servers but those of `--mcp-config`.
    strict_mcp_config: bool = False
    #: A program drives the session over stdin/stdout (`--input-format stream-json`):
    #: its in-process MCP servers are reached through it.
    sdk_host: bool = False
    #: That program answers what would ask a person (`--permission-prompt-tool stdio`).
    program_answers: bool = False
    #: `--json-schema` (print mode): the answer is a StructuredOutput call conforming to
    #: it, and MAX_STRUCTURED_OUTPUT_RETRIES calls that do not conform end the turn.
    json_schema: dict[str, Any] | None = None
    structured_output_retries: int = 5
    #: `--include-hook-events`: stream-json records every hook command's start and end
    #: (SessionStart's are always there).
    include_hook_events: bool = False
    #: `--plugin-dir`: plugins asked for, which cc cannot load yet (system/init says so).
    plugin_dirs: tuple[str, ...] = ()
    #: `--init`/`--init-only` (init) or `--maintenance`: the Setup hooks' trigger, run
    #: before the session starts (None: no Setup).
    setup_trigger: str | None = None
    #: `--allow-dangerously-skip-permissions`: Shift+Tab offers bypassPermissions.
    offer_bypass: bool = False
    #: `--name`: the session's display name (its transcript's title).
    name: str | None = None
    #: What start-up should tell the user about these options (a value ignored).
    warnings: tuple[str, ...] = ()

    @property
    def someone_answers(self) -> bool:
        """Whether questions reach someone (the REPL's user, or the program driving cc):
        the tools that ask a person are offered."""
        return self.interactive or self.program_answers


def resolve_options(
    args: argparse.Namespace, settings: Settings, env: Mapping[str, str] | None = None
) -> SessionOptions:
    env = os.environ if env is None else env
    override = args.system_prompt
    if args.system_prompt_file:
        if override is not None:
            raise UsageError("Use either --system-prompt or --system-prompt-file, not both")
        override = _read_flag_file(args.system_prompt_file, "--system-prompt-file")
    append = args.append_system_prompt
    appended_file = _read_flag_file(args.append_system_prompt_file, "--append-system-prompt-file")
    if appended_file is not None:
        append = f"{append}\n\n{appended_file}" if append else appended_file
    tools = None
    if args.tools is not None and args.tools.strip().lower() != "default":
        tools = tuple(split_tool_list(args.tools))
    warnings: list[str] = []
    trailers, problems = attribution_from(settings.merged)
    warnings += problems
    if simple_mode(env):  # --bare: no attribution lines
        trailers = dataclasses.replace(trailers, commit=None, pr=None)
    return SessionOptions(
        model=_model(args, settings, env),
        permission_mode=_permission_mode(args, settings),
        max_turns=args.max_turns or None,  # 0 means no limit, as in Claude Code
        max_budget_usd=args.max_budget_usd,
        fallback_models=_fallback_models(args.fallback_model),
        thinking_budget=_thinking_budget(args, settings, env),
        controls=_controls(args, settings, env, warnings),
        max_output_tokens=_max_output_tokens(env),
        allowed_tools=tuple(split_tool_list(args.allowed_tools)),
        disallowed_tools=tuple(split_tool_list(args.disallowed_tools)),
        add_dirs=tuple(args.add_dir),
        tools=tools,
        system_prompt=override,
        append_system_prompt=append,
        commit_trailer=trailers.commit,
        pr_trailer=trailers.pr,
        language=_language(settings, warnings),
        session_id=valid_uuid(args.session_id) if args.session_id else None,
        agents_json=_agents_json(args.agents),
        coordinator=truthy(env.get(COORDINATOR_ENV)),
        mcp_configs=tuple(args.mcp_config),
        strict_mcp_config=args.strict_mcp_config,
        sdk_host=getattr(args, "input_format", "text") == "stream-json",
        program_answers=getattr(args, "input_format", "text") == "stream-json"
        and (getattr(args, "permission_prompt_tool", None) == "stdio"
             or getattr(args, "permission_prompts", None) == "host"),
        offer_bypass=getattr(args, "allow_dangerously_skip_permissions", False),
        setup_trigger=_setup_trigger(args),
        name=(getattr(args, "name", None) or "").strip() or None,
        json_schema=_json_schema(args.json_schema),
        structured_output_retries=_structured_output_retries(env),
        include_hook_events=args.include_hook_events,
        plugin_dirs=_plugin_dirs(args.plugin_dirs, warnings),
        warnings=tuple(warnings),
    )


def _model(args: argparse.Namespace, settings: Settings, env: Mapping[str, str]) -> str:
    from cc.models.catalog import DEFAULT_MODEL, resolve_model

    chosen = args.model or env.get("ANTHROPIC_MODEL") or settings.get("model")
    return resolve_model(str(chosen or DEFAULT_MODEL))


def _language(settings: Settings, warnings: list[str]) -> str | None:
    value = settings.get("language")
    if value is None or (isinstance(value, str) and value.strip()):
        return value.strip() if isinstance(value, str) else None
    warnings.append(f"language must be the name of a language, not {value!r}; ignored")
    return None


def _fallback_models(value: str | None) -> tuple[str, ...]:
    """`--fallback-model`'s models (aliases resolved), in order, each once."""
    from cc.models.catalog import resolve_model

    names = [resolve_model(n) for n in (value or "").split(",") if n.strip()]
    return tuple(dict.fromkeys(names))


def _thinking_budget(args: argparse.Namespace, settings: Settings,
                     env: Mapping[str, str]) -> int | None:
    """A fixed thinking budget: `--max-thinking-tokens` (0: none), else the environment's
    or the settings'; `--thinking disabled` turns every one off."""
    if args.thinking == "disabled":
        return None
    if args.max_thinking_tokens is not None:
        return args.max_thinking_tokens if args.max_thinking_tokens > 0 else None
    raw = env.get("MAX_THINKING_TOKENS")
    if raw:
        try:
            return int(raw) if int(raw) > 0 else None
        except ValueError:
            raise UsageError(f"MAX_THINKING_TOKENS must be a number, not {raw!r}") from None
    return None


def _controls(args: argparse.Namespace, settings: Settings, env: Mapping[str, str],
              warnings: list[str]) -> RequestControls:
    """What the thinking, effort, task budget and beta flags (and the settings and
    environment behind them) ask of every request of the conversation. Thinking is on
    unless turned off; print mode's text and json output, which show no thinking, ask
    for none of its text back."""
    from cc.core.controls import ALLOWED_BETAS, EFFORT_LEVELS

    effort, source = args.effort, "--effort"
    if effort is None and settings.get("effortLevel") is not None:
        effort, source = settings.get("effortLevel"), "effortLevel"
    if effort is not None and effort not in EFFORT_LEVELS:
        warnings.append(f"{source} {effort!r} is not one of {', '.join(EFFORT_LEVELS)}; "
                        "the model's default effort is used")
        effort = None
    betas = []
    for beta in split_tool_list(args.betas):
        if beta in ALLOWED_BETAS:
            betas.append(beta)
        else:
            warnings.append(f"--betas {beta!r} is not sent: the betas that may be added "
                            f"are {', '.join(ALLOWED_BETAS)}")
    off = (args.thinking == "disabled" or args.max_thinking_tokens is not None
           or (env.get("MAX_THINKING_TOKENS") or "").strip() == "0")
    display = args.thinking_display
    if display is None and args.print_mode and args.output_format in ("text", "json"):
        display = "omitted"
    cache_ttl, subagent_cache_ttl = _cache_ttls(settings, env, warnings)
    return RequestControls(cache_ttl=cache_ttl, subagent_cache_ttl=subagent_cache_ttl,
                           adaptive_thinking=not off,
                           budget_fallback=settings.get("alwaysThinkingEnabled") is not False,
                           thinking_display=display, effort=str(effort) if effort else None,
                           task_budget=args.task_budget, betas=tuple(dict.fromkeys(betas)))


def _plugin_dirs(dirs: list[str], warnings: list[str]) -> tuple[str, ...]:
    """`--plugin-dir`s, absolute. cc has no plugins yet: the run goes on without them,
    saying so once (an SDK program that passes plugins keeps working)."""
    if dirs:
        warnings.append("cc does not load plugins yet; going on without "
                        + ", ".join(dirs) + " (--plugin-dir)")
    return tuple(str(Path(d).expanduser().absolute()) for d in dirs)


def _max_output_tokens(env: Mapping[str, str]) -> int | None:
    raw = env.get("CLAUDE_CODE_MAX_OUTPUT_TOKENS")
    if not raw:
        return None
    try:
        return max(1, int(raw))
    except ValueError:
        raise UsageError(f"CLAUDE_CODE_MAX_OUTPUT_TOKENS must be a number, not {raw!r}") from None


def _read_flag_file(path: str | None, flag: str) -> str | None:
    if path is None:
        return None
    try:
        return Path(path).expanduser().read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"{flag}: cannot read {path}: {exc.strerror or exc}") from None


def _agents_json(text: str | None) -> str | None:
    """`--agents` as given, once it parses as a JSON object (the entries are checked
    when the agents load)."""
    if text is not None:
        from cc.agents.definitions import agents_object

        agents_object(text)
    return text


def _json_schema(text: str | None) -> dict[str, Any] | None:
    """`--json-schema`, parsed and checked (an empty one asks for nothing, as in Claude
    Code)."""
    if not text:
        return None
    import json

    try:
        schema = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"--json-schema is not valid JSON: {exc}") from None
    if not isinstance(schema, dict):
        raise UsageError("--json-schema must be a JSON object")
    from cc.tools.json_schema import schema_problem

    problem = schema_problem(schema)
    if problem is not None:
        raise UsageError(f"--json-schema is not a valid JSON Schema: {problem}")
    return schema


def _structured_output_retries(env: Mapping[str, str]) -> int:
    """MAX_STRUCTURED_OUTPUT_RETRIES: answers that do not conform before the turn ends
    (0: the first ends it; anything but a whole number: 5)."""
    try:
        value = int(env.get("MAX_STRUCTURED_OUTPUT_RETRIES", ""))
    except ValueError:
        return STRUCTURED_OUTPUT_RETRIES
    return value if value >= 0 else STRUCTURED_OUTPUT_RETRIES


def _cache_ttls(settings: Settings, env: Mapping[str, str],
                warnings: list[str]) -> tuple[str, str | None]:
    """The prompt cache's lifetime for the session and for its sub-agents (None: the
    same): DISABLE_PROMPT_CACHING (off), FORCE_PROMPT_CACHING_5M and
    ENABLE_PROMPT_CACHING_1H decide for both; else the settings' promptCacheTtl and
    subagentPromptCacheTtl (5m or 1h), as Claude Code reads them."""
    if truthy(env.get("DISABLE_PROMPT_CACHING")):
        return "off", None
    if truthy(env.get("FORCE_PROMPT_CACHING_5M")):
        return "5m", None
    if truthy(env.get("ENABLE_PROMPT_CACHING_1H")):
        return "1h", None
    chosen: list[str | None] = []
    for key in ("promptCacheTtl", "subagentPromptCacheTtl"):
        value = settings.get(key)
        if value is not None and value not in ("5m", "1h"):
            warnings.append(f"{key} {value!r} is not 5m or 1h; the default applies")
            value = None
        chosen.append(value)
    return chosen[0] or "5m", chosen[1]


def _setup_trigger(args: argparse.Namespace) -> str | None:
    if getattr(args, "init", False) or getattr(args, "init_only", False):
        return "init"
    return "maintenance" if getattr(args, "maintenance", False) else None


def _permission_mode(args: argparse.Namespace, settings: Settings) -> str:
    """The mode asked for; the permission context normalizes aliases such as `manual`."""
    if args.dangerously_skip_permissions:
        return "bypassPermissions"
    mode = args.permission_mode or (settings.get("permissions") or {}).get("defaultMode")
    return str(mode or "default")


def valid_uuid(value: str) -> str:
    import uuid

    try:
        return str(uuid.UUID(value))
    except ValueError:
        raise UsageError(f"--session-id must be a valid UUID, not {value!r}") from None
