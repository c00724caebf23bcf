"""The control plane: parse flags, pick a mode, build the engine, run it.

    run(argv) ── a subcommand ─────> cc.app.subcommands   `mcp list` and the like
             ├─ print mode (-p) ──> run_print()   one turn, then exit
             └─ interactive ──────> the REPL       slash commands, many turns

Start-up finds the session's facts (folders, settings, credentials) and resolves the
flags against settings and environment once (`cc.app.options.SessionOptions`); the
`cc.app.session.Session` built on them owns what its agents share, builds the main
agent's QueryEngine (`cc.app.factory`) and drives its turns for both front ends. Tools
reach their agent through the context's `engine_ref`, bound once the engine exists
(late binding).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cc.cli_args import build_parser
from cc.errors import UsageError

__all__ = ["main", "run"]

if TYPE_CHECKING:
    from collections.abc import Sequence

    from cc.app.session import Session, StartFacts
    from cc.commands.context import Services
    from cc.ui.repl.app import Opened

#: Piped stdin is capped, as in Claude Code.
MAX_STDIN_BYTES = 10 * 1024 * 1024


def run(argv: list[str] | None = None) -> int:
    from cc.app.subcommands import find_subcommand, run_subcommand

    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    subcommand = find_subcommand(argv, parser)
    if subcommand is not None:  # `mcp list` and the like: handled here, not by the model
        gc.enable()  # (no model client comes to end start-up; `mcp serve` runs on and on)
        _cache_dataclasses()
        return run_subcommand(*subcommand)
    args = parser.parse_args(argv)
    _cache_dataclasses()  # (after --version and --help, which make none)
    if problem := _resume_flags_problem(args):
        print(f"Error: {problem}", file=sys.stderr)
        return 1
    _debug_log(args)
    _switches(args)
    _watch_children_by_pidfd()
    try:
        if args.init_only:
            return _run_init_only(args)
        if args.print_mode or not sys.stdin.isatty():
            return _run_print(args)
        return _run_interactive(args)
    except UsageError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def _cache_dataclasses() -> None:
    from cc import dataclass_cache

    dataclass_cache.install()


def _debug_log(args: argparse.Namespace) -> None:
    """`--debug [filter]`, `--debug-file path` (and cc's `--debug-to-stderr`): cc's log at
    debug level, of the categories asked for (`hooks,mcp`; `!hooks` for all but hooks;
    a category is a package of cc: hooks, mcp, core, agents…)."""
    if args.debug is None and args.debug_file is None and not args.debug_to_stderr:
        return
    import logging

    handler: logging.Handler = (logging.FileHandler(args.debug_file, encoding="utf-8")
                                if args.debug_file else logging.StreamHandler(sys.stderr))
    handler.setFormatter(logging.Formatter("%(asctime)s [%(levelname)s] %(name)s: %(message)s"))
    names = [n.strip() for n in (args.debug or "").split(",") if n.strip()]
    shown = [n for n in names if not n.startswith("!")]
    hidden = [n[1:] for n in names if n.startswith("!")]
    handler.addFilter(lambda record: _category_shown(record.name, shown, hidden))
    logging.getLogger().addHandler(handler)
    logging.getLogger("cc").setLevel(logging.DEBUG)


def _category_shown(logger: str, shown: list[str], hidden: list[str]) -> bool:
    parts = logger.split(".")
    category = parts[1] if len(parts) > 1 and parts[0] == "cc" else parts[0]
    if category in hidden:
        return False
    return not shown or category in shown


def _switches(args: argparse.Namespace) -> None:
    """Flags that Claude Code passes on as environment switches (its subprocesses, hooks
    and MCP servers see them too)."""
    from cc.config.env import NO_COMMANDS_ENV, SIMPLE_ENV

    if args.bare:
        os.environ[SIMPLE_ENV] = "1"
    if args.disable_slash_commands:
        os.environ[NO_COMMANDS_ENV] = "1"
    if args.autocompact is not None:
        os.environ["CLAUDE_CODE_AUTO_COMPACT_WINDOW"] = str(args.autocompact)


def _watch_children_by_pidfd() -> None:
    """On Python 3.11, asyncio learns that a child process ended from a thread started
    for each child, blocked in `waitpid` (its ThreadedChildWatcher): a thread made and
    woken per Bash or Grep call, which a busy machine schedules late. A pidfd the event
    loop watches says the same with no thread, as Python 3.12 does by itself."""
    if sys.version_info >= (3, 12) or not hasattr(os, "pidfd_open"):
        return
    try:
        os.close(os.pidfd_open(os.getpid()))
    except OSError:  # a kernel before 5.3, or a seccomp filter that refuses it
        return
    import asyncio

    asyncio.get_event_loop_policy().set_child_watcher(asyncio.PidfdChildWatcher())


def _resume_flags_problem(args: argparse.Namespace) -> str | None:
    if args.resume_session_at is not None and not args.resume:
        return "--resume-session-at goes with --resume"
    if args.resume_drops_turn is not None and not args.resume_session_at:
        return "--resume-drops-turn goes with --resume-session-at"
    if args.resume_drops_turn == "":
        return "--resume-drops-turn needs the uuid of the prompt of the turn left out"
    return None


def _run_init_only(args: argparse.Namespace) -> int:
    """`--init-only`: the Setup hooks (trigger init) and the session's start, no prompt."""
    import asyncio

    session = _startup(args)

    async def run() -> int:
        try:
            _warn(await _open(args, session))
            for note in await session.start():
                print(note, file=sys.stderr)
            await session.end("other")
        finally:
            await session.close()
        return 0

    return asyncio.run(run())


def _run_print(args: argparse.Namespace) -> int:
    from cc.core.client import prefetch_sdk

    prefetch_sdk(warm=False)  # overlaps the SDK import with settings, CLAUDE.md and prompts
    if args.output_format == "stream-json" and not args.verbose:
        raise UsageError("When using --print, --output-format=stream-json requires --verbose")
    if args.resume == "":
        raise UsageError("--resume needs a session id in print mode")
    if args.input_format == "stream-json":
        return _run_sdk(args)
    prompt = _print_prompt(args)
    session = _startup(args)
    if args.session_mirror and args.output_format == "stream-json":
        from cc.ui.print_mode import mirror_frames

        session.transcript_mirror = mirror_frames(sys.stdout)
    import asyncio

    async def run() -> int:
        from cc.ui.print_mode import run_print, startup_failed

        try:
            _warn(await _open(args, session))
        except UsageError as exc:  # the session it continues is missing, or refused
            await session.close()
            return startup_failed(session, str(exc), args.output_format)
        return await run_print(session, prompt, args.output_format,
                               verbose=args.verbose, partial=args.include_partial_messages)

    return asyncio.run(run())


def _run_sdk(args: argparse.Namespace) -> int:
    """A program drives the session over stdin/stdout (the Agent SDK's way)."""
    if args.output_format != "stream-json":
        raise UsageError("--input-format=stream-json requires --output-format=stream-json")
    if args.permission_prompt_tool not in (None, "stdio"):
        raise UsageError("--permission-prompt-tool: only \"stdio\" is supported (the "
                         "program answers over the control protocol); MCP permission "
                         "tools are not yet")
    session = _startup(args)
    import asyncio

    async def run() -> int:
        from cc.ui.sdk.host import run_sdk

        _warn(await _open(args, session))
        return await run_sdk(session, asks_program=args.permission_prompt_tool == "stdio",
                             replay=args.replay_user_messages,
                             partial=args.include_partial_messages)

    return asyncio.run(run())


def _run_interactive(args: argparse.Namespace) -> int:
    if not _trust_folder():
        return 1
    facts = _start_facts(args, interactive=True)
    import asyncio

    first = " ".join(args.prompt).strip() or None
    if args.resume == "":  # -r with no id: pick one
        first = "/resume"
    if first:  # it goes out at once; otherwise the REPL starts the import once it is drawn
        from cc.core.client import prefetch_sdk

        prefetch_sdk(warm=False)

    async def opening() -> Opened:
        """The session, built while the prompt shows (its modules imported off the event
        loop, so what the user types shows meanwhile)."""
        from cc.app.session import Session
        from cc.ui.repl.app import Opened

        await asyncio.to_thread(_import_session_modules)
        session = Session(facts)
        try:
            notes = await _open(args, session)
        except BaseException:  # (also the REPL closed before the session was open)
            await session.close()
            raise
        return Opened(session, _repl_services(session), notes)

    async def run() -> int:
        from cc.ui.repl import Dialogs, Screen, run_repl

        screen = Screen(facts, Dialogs(facts.cwd))
        if _continues(args):  # the conversation it continues shows before the prompt
            opened = await opening()  # (no such session: said before anything is drawn)
            return await run_repl(screen, opened, first)
        return await run_repl(screen, opening, first)

    return asyncio.run(run())


def _continues(args: argparse.Namespace) -> bool:
    return bool(args.continue_ or args.resume or args.resume_session_at)


def _import_session_modules() -> None:
    """What opening a session imports (`Session.open`, `_open`), imported ahead."""
    import cc.agents.definitions  # noqa: F401
    import cc.agents.extractor  # noqa: F401
    import cc.agents.send_message  # noqa: F401
    import cc.agents.tool  # noqa: F401
    import cc.app.factory  # noqa: F401
    import cc.compact.auto  # noqa: F401
    import cc.compact.compactor  # noqa: F401
    import cc.core.query_engine  # noqa: F401
    import cc.hooks.runner  # noqa: F401
    import cc.input.skills  # noqa: F401
    import cc.mcp.config  # noqa: F401
    import cc.memory.auto_memory  # noqa: F401
    import cc.memory.claude_md  # noqa: F401
    import cc.memory.worth  # noqa: F401 - (the extractor imports it only when it is made)
    import cc.permissions.checker  # noqa: F401
    import cc.prompts.builder  # noqa: F401
    import cc.prompts.output_styles  # noqa: F401
    import cc.session.attach  # noqa: F401
    import cc.session.entry  # noqa: F401
    import cc.session.file_history.store  # noqa: F401
    import cc.session.file_history.wiring  # noqa: F401
    import cc.tasks.store  # noqa: F401
    import cc.tools.agent_tasks  # noqa: F401
    import cc.tools.catalog  # noqa: F401
    import cc.tools.registry  # noqa: F401
    import cc.tools.shell.session  # noqa: F401
    import cc.ui.repl.app  # noqa: F401


def _repl_services(session: Session) -> Services:
    """What the REPL's commands need of the parts it does not own."""
    from cc.commands.context import Services, SessionSummary
    from cc.permissions.grants import command_permit

    def sessions() -> list[SessionSummary]:
        from cc.session.loader import list_sessions

        return [
            SessionSummary(s.session_id, s.summary or s.first_prompt, s.modified.timestamp(),
                           s.message_count)
            for s in list_sessions(session.cwd, session.config_dir, limit=20)
            if s.session_id != session.engine.session_id
        ]

    def resume(session_id: str) -> None:
        from cc.session.attach import resume_into
        from cc.session.loader import find_session_by_id

        path = find_session_by_id(session.config_dir, session_id, session.cwd)
        if path is None:
            raise UsageError(f"No conversation found with session ID: {session_id}")
        resume_into(session.engine, path, cwd=session.cwd)

    return Services(
        list_sessions=sessions,
        resume_session=resume,
        permit_shell=command_permit(session.permissions, session.engine.registry.get("Bash")),
    )


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


def _startup(args: argparse.Namespace) -> Session:
    from cc.app.session import Session

    return Session(_start_facts(args))


def _start_facts(args: argparse.Namespace, *, interactive: bool = False) -> StartFacts:
    """Folders, settings (their `env` applied), credentials and the resolved options."""
    from cc.app.options import resolve_options
    from cc.app.session import StartFacts
    from cc.config.paths import config_dir
    from cc.config.settings import SOURCES, load_settings
    from cc.core.credentials import Credentials

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
        from cc.core.credentials import run_api_key_helper

        key, problem = run_api_key_helper(helper)
        if problem:
            _warn([problem])
        credentials.api_key, credentials.from_helper = key, key is not None
    options = resolve_options(args, settings)
    _warn(options.warnings)
    if interactive:
        import dataclasses

        # --json-schema is for print mode: the REPL's answers stay text.
        options = dataclasses.replace(options, interactive=True, json_schema=None)
    return StartFacts(cwd, config, settings, credentials, options)


async def _open(args: argparse.Namespace, session: Session) -> list[str]:
    """The session's main agent, with the tools of the layers above the factory, then
    the conversation it continues (or starts); what it had to warn of."""
    from cc.agents.definitions import load_agents
    from cc.agents.send_message import SendMessageTool
    from cc.agents.tool import AgentTool
    from cc.session.attach import SessionChoice, attach_session
    from cc.session.file_history.wiring import checkpointing_enabled

    options = session.options
    agent_tool = AgentTool(load_agents(session.cwd, session.config_dir, options.agents_json))
    agent_tool.background_only = options.coordinator  # workers run in the background
    extra: list[Any] = [agent_tool, SendMessageTool()]  # continues the session's agents
    # Agent teams are on with CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS=1, as in Claude Code.
    if os.environ.get("CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS", "").strip() == "1":
        from cc.team.teammate import spawn_teammate
        from cc.team.tools import TeamCreateTool

        agent_tool.teammates = spawn_teammate
        extra.append(TeamCreateTool())
    notes = list(await session.open(extra))
    agent_tool.available = (session.tool_pool or session.engine.registry).names
    choice = SessionChoice(
        continue_latest=args.continue_,
        resume_id=args.resume or None,
        fork=args.fork_session,
        fixed_id=bool(args.session_id),
        persist=not (args.no_session_persistence and args.print_mode),
        resume_at=args.resume_session_at,
        drops_turn=args.resume_drops_turn,
        mirror=session.transcript_mirror,
        checkpoints=checkpointing_enabled(options.interactive),
    )
    session.resumed = attach_session(
        session.engine, choice, cwd=session.cwd, config=session.config_dir,
        cleanup_days=session.settings.get("cleanupPeriodDays"),
    )
    return notes + _name_session(session)


def _name_session(session: Session) -> list[str]:
    """`--name`: the session's title from the start, as /rename would write it."""
    from cc.session.transcript import TranscriptWriter

    writer = session.engine.transcript
    if session.options.name and isinstance(writer, TranscriptWriter):
        try:
            writer.record_title(session.options.name)
        except OSError as exc:
            return [f"--name: the session's name could not be saved ({exc.strerror or exc})"]
    return []


def _warn(warnings: Sequence[str]) -> None:
    for warning in warnings:
        print(f"Warning: {warning}", file=sys.stderr)


def main() -> None:
    # Start-up allocates much and frees little: the collector's passes meanwhile are
    # wasted work. It runs again once the SDK is loaded (cc.core.client.start_up_over).
    gc.disable()
    try:
        code = run()
    except Exception as exc:  # noqa: BLE001 - the one place a surprise is caught
        print(f"cc: unexpected error: {type(exc).__name__}: {exc}", file=sys.stderr)
        code = 1
    # Everything worth keeping is written and flushed by now; skip the interpreter's
    # teardown of the SDK's thousands of modules (about 0.3 s per run).
    sys.stdout.flush()
    sys.stderr.flush()
    _keep_caches()
    os._exit(code)


def _keep_caches() -> None:
    """What this run made that later runs can reuse (written only when something is new;
    `cc.precompile` makes it all at once)."""
    from cc import dataclass_cache
    from cc.tools import definition_cache

    dataclass_cache.save()
    definition_cache.SHARED.save()
