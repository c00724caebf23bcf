"""The control plane: parse flags, pick a mode, build the engine, run it.

    run(argv) ── print mode (-p) ──> run_print()   one turn, then exit
             └─ interactive ──────> the REPL       slash commands, many turns

`_build_engine()` gathers everything a request needs (settings, CLAUDE.md, the
system prompt, hooks, permissions, tools) and assembles the QueryEngine. Tools
that need the engine get it through `engine_ref`, a list the engine is
appended to once it exists (late binding).
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from cc.cli_args import build_parser, split_tool_list
from cc.errors import UsageError

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from cc.commands.context import Services
    from cc.config.settings import Settings
    from cc.core.client import Credentials
    from cc.core.query_engine import QueryEngine
    from cc.hooks.runner import HookRunner
    from cc.permissions.checker import PermissionChecker
    from cc.permissions.context import PermissionContext
    from cc.sandbox.sandbox import Sandbox
    from cc.tools.registry import ToolRegistry

#: What commits written in a session end with (settings `includeCoAuthoredBy`).
COMMIT_TRAILER = "Co-Authored-By: Claude <noreply@anthropic.com>"
#: Piped stdin is capped, as in Claude Code.
MAX_STDIN_BYTES = 10 * 1024 * 1024


@dataclass
class Runtime:
    """What start-up found; shared by every mode."""

    cwd: Path
    config_dir: Path
    settings: Settings
    credentials: Credentials
    engine_ref: list[QueryEngine] = field(default_factory=list)
    #: The conversation continues an earlier one (-c / -r).
    resumed: bool = False
    #: The permission checker (the REPL gives it someone to ask and cycles its mode).
    permissions: PermissionChecker | None = None
    #: The Bash sandbox, when settings turn it on (`sandbox.enabled`).
    sandbox: Sandbox | None = None

    @property
    def engine(self) -> QueryEngine:
        return self.engine_ref[0]


def run(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.print_mode or not sys.stdin.isatty():
            return _run_print(args)
        return _run_interactive(args)
    except UsageError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def _run_print(args: argparse.Namespace) -> int:
    from cc.core.client import prefetch_sdk

    prefetch_sdk()  # overlaps the SDK import with settings, CLAUDE.md and prompt work
    if args.output_format == "stream-json" and not args.verbose:
        raise UsageError("When using --print, --output-format=stream-json requires --verbose")
    if args.resume == "":
        raise UsageError("--resume needs a session id in print mode")
    prompt = _print_prompt(args)
    runtime = _startup(args)
    engine = _build_engine(args, runtime)
    _attach_session(args, runtime, engine)
    import asyncio

    from cc.ui.print_mode import run_print

    return asyncio.run(
        run_print(engine, prompt, args.output_format, runtime, verbose=args.verbose,
                  partial=args.include_partial_messages)
    )


def _run_interactive(args: argparse.Namespace) -> int:
    if not _trust_folder():
        return 1
    runtime = _startup(args)
    engine = _build_engine(args, runtime)
    _attach_session(args, runtime, engine)
    import asyncio

    from cc.ui.repl import run_repl

    first = " ".join(args.prompt).strip() or None
    if args.resume == "":  # -r with no id: pick one
        first = "/resume"
    if first:  # it goes out at once; otherwise the REPL starts the import once it is drawn
        from cc.core.client import prefetch_sdk

        prefetch_sdk()
    services = _repl_services(runtime, engine)
    return asyncio.run(run_repl(engine, runtime, first, services=services))


def _repl_services(runtime: Runtime, engine: QueryEngine) -> Services:
    """What the REPL's commands need of the parts it does not own."""
    from cc.commands.context import Services, SessionSummary
    from cc.permissions.grants import command_permit

    def sessions() -> list[SessionSummary]:
        from cc.session.loader import list_sessions

        return [
            SessionSummary(s.session_id, s.summary or s.first_prompt, s.modified.timestamp(),
                           s.message_count)
            for s in list_sessions(runtime.cwd, runtime.config_dir, limit=20)
            if s.session_id != engine.session_id
        ]

    def resume(session_id: str) -> None:
        from cc.session.attach import resume_into
        from cc.session.loader import find_session_by_id

        path = find_session_by_id(runtime.config_dir, session_id, runtime.cwd)
        if path is None:
            raise UsageError(f"No conversation found with session ID: {session_id}")
        resume_into(engine, path, cwd=runtime.cwd)

    return Services(
        list_sessions=sessions,
        resume_session=resume,
        permit_shell=command_permit(runtime.permissions, engine.registry.get("Bash")),
        grant_tools=lambda rules: _grant_tools(runtime, rules),
    )


def _grant_tools(runtime: Runtime, rules: Sequence[str]) -> Callable[[], None]:
    from cc.permissions.grants import grant_rules

    if runtime.permissions is None:
        return lambda: None
    undo, warnings = grant_rules(runtime.permissions, rules)
    _warn(warnings)
    return undo


def _trust_folder() -> bool:
    """Ask before anything of this folder's own takes effect, once per folder."""
    from cc.config.paths import config_dir
    from cc.config.trust import is_trusted, set_trusted

    cwd, config = Path.cwd(), config_dir()
    if is_trusted(config, cwd):
        return True
    from cc.ui.trust_dialog import ask_trust

    if not ask_trust(cwd):
        return False
    try:
        set_trusted(config, cwd)
    except OSError as exc:
        _warn([f"could not remember the answer: {exc}"])
    return True


def _print_prompt(args: argparse.Namespace) -> str:
    parts: list[str] = []
    given = False
    if not sys.stdin.isatty():
        data = sys.stdin.buffer.read(MAX_STDIN_BYTES + 1)
        if len(data) > MAX_STDIN_BYTES:
            raise UsageError("Piped input is larger than 10 MB")
        given = bool(data)
        piped = data.decode("utf-8", errors="replace")
        if piped.strip():
            parts.append(piped.rstrip("\n"))
    argument = " ".join(args.prompt)
    given = given or bool(argument)
    if argument.strip():
        parts.append(argument)
    if parts:
        return "\n\n".join(parts)
    if given:
        raise UsageError(
            "Input contained only whitespace. Provide a prompt with text through "
            "stdin or as a prompt argument when using --print"
        )
    raise UsageError(
        "Input must be provided either through stdin or as a prompt argument "
        "when using --print"
    )


def _startup(args: argparse.Namespace) -> Runtime:
    from cc.config.paths import config_dir
    from cc.config.settings import SOURCES, load_settings
    from cc.core.client import Credentials

    cwd = Path.cwd()
    config = config_dir()
    sources = SOURCES
    if args.setting_sources is not None:
        sources = tuple(s.strip() for s in args.setting_sources.split(",") if s.strip())
    settings = load_settings(cwd, config, flag_settings=args.settings, sources=sources)
    _warn(settings.warnings)
    env = settings.get("env")
    if isinstance(env, dict):  # the settings win over the process, as in Claude Code
        for key, value in env.items():
            os.environ[str(key)] = str(value)
    credentials = Credentials.from_env()
    helper = settings.get("apiKeyHelper")
    if not credentials.present and isinstance(helper, str) and helper.strip():
        from cc.core.client import run_api_key_helper

        key, problem = run_api_key_helper(helper)
        if problem:
            _warn([problem])
        credentials.api_key, credentials.from_helper = key, key is not None
    return Runtime(cwd, config, settings, credentials)


def _choose_model(args: argparse.Namespace, settings: Settings) -> str:
    from cc.core.model_catalog import DEFAULT_MODEL, resolve_model

    chosen = args.model or os.environ.get("ANTHROPIC_MODEL") or settings.get("model")
    return resolve_model(str(chosen or DEFAULT_MODEL))


def _thinking_budget(settings: Settings) -> int | None:
    raw = os.environ.get("MAX_THINKING_TOKENS")
    if raw:
        try:
            return int(raw) if int(raw) > 0 else None
        except ValueError:
            raise UsageError(f"MAX_THINKING_TOKENS must be a number, not {raw!r}") from None
    if settings.get("alwaysThinkingEnabled") is True:
        return 31_999
    return None


def _max_output_tokens() -> int | None:
    raw = os.environ.get("CLAUDE_CODE_MAX_OUTPUT_TOKENS")
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


def _permission_mode(args: argparse.Namespace, settings: Settings) -> str:
    """The mode asked for; the permission context normalizes aliases such as `manual`."""
    if args.dangerously_skip_permissions:
        return "bypassPermissions"
    mode = args.permission_mode or (settings.get("permissions") or {}).get("defaultMode")
    return str(mode or "default")


def _build_registry(args: argparse.Namespace) -> ToolRegistry:
    """Tier 1 tools at once; later tiers are wired in here as they land."""
    from cc.tools.bash import BashTool
    from cc.tools.edit import EditTool
    from cc.tools.glob import GlobTool
    from cc.tools.grep import GrepTool
    from cc.tools.read import ReadTool
    from cc.tools.registry import ToolRegistry
    from cc.tools.task_output import TaskOutputTool
    from cc.tools.task_stop import TaskStopTool
    from cc.tools.write import WriteTool

    registry = ToolRegistry(
        [
            TaskOutputTool(),
            BashTool(),
            GlobTool(),
            GrepTool(),
            ReadTool(),
            EditTool(),
            WriteTool(),
            TaskStopTool(),
        ]
    )
    if args.tools is not None and args.tools.strip().lower() != "default":
        wanted = set(split_tool_list(args.tools))
        for name in list(registry.names):
            if name not in wanted:
                registry.pop(name)
    return registry


def _build_engine(args: argparse.Namespace, runtime: Runtime) -> QueryEngine:
    from cc.core.client import ModelClient
    from cc.core.query_engine import EngineConfig, QueryEngine
    from cc.memory.claude_md import load_claude_md, render_claude_md
    from cc.permissions.checker import PermissionChecker
    from cc.permissions.context import build_permission_context
    from cc.prompts.builder import build_system_prompt, environment_for
    from cc.tools.base import ToolContext
    from cc.tools.executor import ToolExecutor
    from cc.tools.shell import BackgroundTasks, ShellSession

    settings = runtime.settings
    model = _choose_model(args, settings)
    shell = ShellSession(runtime.cwd)
    ctx = ToolContext(cwd=runtime.cwd, shell=shell, tasks=BackgroundTasks(shell.tasks_dir))
    permissions = build_permission_context(
        settings,
        cwd=runtime.cwd,
        config_dir=runtime.config_dir,
        mode=_permission_mode(args, settings),
        allowed_tools=split_tool_list(args.allowed_tools),
        disallowed_tools=split_tool_list(args.disallowed_tools),
        add_dirs=list(args.add_dir),
    )
    _warn(permissions.warnings)
    permissions.shell_cwd = lambda: shell.cwd
    ctx.read_denied = _read_denied(permissions)
    # Nobody to ask yet: print mode keeps it so; the REPL sets `gate.ask`.
    gate = PermissionChecker(permissions, sandbox=_build_sandbox(runtime, permissions))
    runtime.permissions = gate
    ctx.sandbox = gate.sandbox
    registry = _build_registry(args)
    for name in list(registry.names):
        if gate.hides(name):
            registry.pop(name)  # a bare deny rule removes the tool from the model's view

    override = args.system_prompt
    if args.system_prompt_file:
        if override is not None:
            raise UsageError("Use either --system-prompt or --system-prompt-file, not both")
        override = _read_flag_file(args.system_prompt_file, "--system-prompt-file")
    append = args.append_system_prompt
    appended_file = _read_flag_file(args.append_system_prompt_file, "--append-system-prompt-file")
    if appended_file is not None:
        append = f"{append}\n\n{appended_file}" if append else appended_file

    claude_md = None if override is not None else render_claude_md(
        load_claude_md(runtime.cwd, runtime.config_dir)
    )
    system = build_system_prompt(
        environment_for(runtime.cwd, model),
        tool_names=registry.names,
        claude_md=claude_md,
        override=override,
        append=append,
        commit_trailer=COMMIT_TRAILER if settings.get("includeCoAuthoredBy", True) else None,
    )
    config = EngineConfig(
        model=model,
        system=system,
        max_turns=args.max_turns or None,  # 0 means no limit, as in Claude Code
        thinking_budget=_thinking_budget(settings),
        max_output_tokens=_max_output_tokens(),
    )
    if args.session_id:
        config.session_id = _valid_uuid(args.session_id)
    hooks = _build_hooks(runtime, config.session_id, lambda: gate.mode)
    executor = ToolExecutor(registry, ctx, permissions=gate, hooks=hooks)
    engine = QueryEngine(
        config, ModelClient(runtime.credentials), registry, executor, hooks=hooks
    )
    runtime.engine_ref.append(engine)
    ctx.extra["engine_ref"] = runtime.engine_ref
    ctx.results_dir = lambda: _results_dir(engine)
    return engine


def _read_denied(permissions: PermissionContext) -> Callable[[str], bool] | None:
    """What Grep and Glob leave out: files a Read deny rule covers (symlinks resolved)."""
    from cc.permissions.path_policy import PathPolicy

    if not any(r.tool == "Read" for r in permissions.rules.deny):
        return None
    return lambda path: PathPolicy(permissions.rules, permissions.scope()).denied(
        path, write=False) is not None


def _build_sandbox(runtime: Runtime, permissions: PermissionContext) -> Sandbox | None:
    """The Bash sandbox if settings turn it on (nothing of it is imported otherwise)."""
    raw = runtime.settings.get("sandbox")
    if not (isinstance(raw, dict) and raw.get("enabled") is True):
        return None
    from cc.sandbox.config import load_sandbox_config
    from cc.sandbox.sandbox import Sandbox

    config = load_sandbox_config(runtime.settings, permissions)
    _warn(config.warnings)
    sandbox = Sandbox(config)
    warning = sandbox.startup_warning()  # looks for bubblewrap, once
    if warning:
        _warn([warning])
    runtime.sandbox = sandbox
    return sandbox


def _results_dir(engine: QueryEngine) -> Path | None:
    from cc.session.paths import tool_results_dir

    return None if engine.transcript is None else tool_results_dir(engine.transcript.path)


def _build_hooks(
    runtime: Runtime, session_id: str, permission_mode: Callable[[], str]
) -> HookRunner:
    from cc.hooks.config import load_hooks
    from cc.hooks.runner import HookRunner

    config, warnings = load_hooks(runtime.settings)
    _warn(warnings)
    return HookRunner(
        config,
        session_id=session_id,
        transcript_path=None,
        cwd=runtime.cwd,
        project_dir=runtime.cwd,
        permission_mode=permission_mode,
    )


def _attach_session(args: argparse.Namespace, runtime: Runtime, engine: QueryEngine) -> None:
    from cc.session.attach import SessionChoice, attach_session

    choice = SessionChoice(
        continue_latest=args.continue_,
        resume_id=args.resume or None,
        fork=args.fork_session,
        fixed_id=bool(args.session_id),
        persist=not (args.no_session_persistence and args.print_mode),
    )
    runtime.resumed = attach_session(
        engine, choice, cwd=runtime.cwd, config=runtime.config_dir,
        cleanup_days=runtime.settings.get("cleanupPeriodDays"),
    )


def _warn(warnings: Sequence[str]) -> None:
    for warning in warnings:
        print(f"Warning: {warning}", file=sys.stderr)


def _valid_uuid(value: str) -> str:
    import uuid

    try:
        return str(uuid.UUID(value))
    except ValueError:
        raise UsageError(f"--session-id must be a valid UUID, not {value!r}") from None


def main() -> None:
    try:
        code = run()
    except Exception as exc:  # noqa: BLE001 - the one place a surprise is caught
        print(f"cc: unexpected error: {type(exc).__name__}: {exc}", file=sys.stderr)
        code = 1
    # Everything worth keeping is written and flushed by now; skip the interpreter's
    # teardown of the SDK's thousands of modules (about 0.3 s per run).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
