"""The control plane: parse flags, pick a mode, build the engine, run it.

    run(argv) ── print mode (-p) ──> run_print()   one turn, then exit
             └─ interactive ──────> the REPL       slash commands, many turns

Start-up finds the runtime facts (`cc.app.runtime.Runtime`: folders, settings,
credentials), resolves the flags against settings and environment once
(`cc.app.options.SessionOptions`), and has the factory (`cc.app.factory`) assemble
the engine. Tools that need the engine get it through the context's `engine_ref`,
bound once the engine exists (late binding).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cc.cli_args import build_parser
from cc.errors import UsageError

__all__ = ["main", "run"]

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from cc.app.runtime import Runtime
    from cc.commands.context import Services
    from cc.core.query_engine import QueryEngine

#: Piped stdin is capped, as in Claude Code.
MAX_STDIN_BYTES = 10 * 1024 * 1024


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
    import asyncio

    async def session() -> int:
        from cc.ui.print_mode import run_print

        engine = await _build_engine(args, runtime)
        _attach_session(args, runtime, engine)
        return await run_print(engine, prompt, args.output_format, runtime,
                               verbose=args.verbose, partial=args.include_partial_messages)

    return asyncio.run(session())


def _run_interactive(args: argparse.Namespace) -> int:
    if not _trust_folder():
        return 1
    runtime = _startup(args)
    import asyncio

    first = " ".join(args.prompt).strip() or None
    if args.resume == "":  # -r with no id: pick one
        first = "/resume"
    if first:  # it goes out at once; otherwise the REPL starts the import once it is drawn
        from cc.core.client import prefetch_sdk

        prefetch_sdk()

    async def session() -> int:
        from cc.ui.repl import run_repl

        engine = await _build_engine(args, runtime)
        _attach_session(args, runtime, engine)
        return await run_repl(engine, runtime, first, services=_repl_services(runtime, engine))

    return asyncio.run(session())


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
    from cc.app.runtime import Runtime
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


async def _build_engine(args: argparse.Namespace, runtime: Runtime) -> QueryEngine:
    from cc.agents.definitions import load_agents
    from cc.agents.send_message import SendMessageTool
    from cc.agents.tool import AgentTool
    from cc.app.factory import build_session_engine
    from cc.app.options import resolve_options

    runtime.options = resolve_options(args, runtime.settings)
    agent_tool = AgentTool(load_agents(runtime.cwd, runtime.config_dir,
                                       runtime.options.agents_json))
    agent_tool.background_only = runtime.options.coordinator  # workers run in the background
    extra: list[Any] = [agent_tool, SendMessageTool()]  # continues the session's agents
    # Agent teams are on with CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS=1, as in Claude Code.
    if os.environ.get("CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS", "").strip() == "1":
        from cc.team.teammate import spawn_teammate
        from cc.team.tools import TeamCreateTool

        agent_tool.teammates = spawn_teammate
        extra.append(TeamCreateTool())
    built = await build_session_engine(runtime.options, runtime, extra_tools=extra)
    agent_tool.available = (runtime.tool_pool or built.engine.registry).names
    from cc.agents.extractor import attach

    attach(built.engine)
    _warn(built.warnings)
    return built.engine


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
