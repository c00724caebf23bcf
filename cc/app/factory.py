"""Assembling engines: an `AgentSpec` says what an agent is; the factory wires it whole.

    Session ─ build_main() ─> the main agent (its tools decide its prompt's tool section)
    fork(session, parent, spec) ─> a sub-agent: the parent's client, rules (its grants
                                   copied, deny and ask rules shared), sandbox and hooks
                                   configuration; its messages, tool context, shell,
                                   checker, hooks view and transcript its own

`build_engine` gives an engine everything its spec asks for (identity, gate, hooks,
compaction, seed messages, news sources, transcript) and binds its tools' late
`engine_ref` to its services; what it returns is finished, and nobody assigns into it
afterwards. Problems come back as warnings, for the caller to show: nothing here prints.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from cc.config.env import simple_mode
from cc.core.spec import AgentSpec

if TYPE_CHECKING:
    from cc.app.session import Session
    from cc.core.news import Source
    from cc.core.query_engine import QueryEngine
    from cc.hooks.runner import HookRunner
    from cc.permissions.checker import PermissionChecker
    from cc.permissions.context import PermissionContext
    from cc.sandbox.sandbox import Sandbox
    from cc.session.transcript import TranscriptWriter
    from cc.tasks.store import TaskStore
    from cc.tools.base import Tool
    from cc.tools.catalog import CatalogEntry
    from cc.tools.registry import ToolRegistry
    from cc.tools.skill import SkillSource

__all__ = ["AgentSpec", "Built", "build_engine", "build_main", "build_registry", "fork",
           "main_spec"]


@dataclass
class Built:
    engine: QueryEngine
    #: The engine's permission checker (the executor's gate, unless the spec gave one).
    checker: PermissionChecker
    warnings: list[str] = field(default_factory=list)


def main_spec(session: Session, tool_names: Sequence[str], *,
              plan_file: Path | None = None, warnings: list[str] | None = None) -> AgentSpec:
    """The spec of the session's main agent: the full system prompt with CLAUDE.md and
    the output style the settings name (and, when the session starts in plan mode, what
    plan mode asks and where the plan goes). Problems go to `warnings`."""
    from cc.core.news import Source
    from cc.memory.auto_memory import load_index
    from cc.memory.claude_md import load_claude_md, render_claude_md
    from cc.prompts.builder import build_system_prompt, environment_for
    from cc.prompts.output_styles import resolve_style

    options = session.options
    style, problems = resolve_style(session.settings.get("outputStyle"), session.cwd,
                                    session.config_dir)
    if warnings is not None:
        warnings += problems
    if options.system_prompt is None:
        session.output_style = style.name
    claude_md = None
    if options.system_prompt is None and not simple_mode():
        session.instruction_files = load_claude_md(session.cwd, session.config_dir,
                                                   session.settings.get("claudeMdExcludes"))
        claude_md = render_claude_md(session.instruction_files)
    memory = session.memory_dir
    system = build_system_prompt(
        environment_for(session.cwd, options.model),
        tool_names=list(tool_names),
        claude_md=claude_md,
        memory_index=(load_index(memory) or "(no memories yet)") if memory else None,
        memory_dir=memory,
        override=options.system_prompt,
        append=options.append_system_prompt,
        commit_trailer=options.commit_trailer,
        pr_trailer=options.pr_trailer,
        language=options.language,
        output_style=style,
    )
    if options.coordinator and options.system_prompt is None:
        from cc.prompts import load_text
        from cc.prompts.builder import PromptSection

        at = next((i for i, s in enumerate(system) if not s.cacheable), len(system))
        system.insert(at, PromptSection("coordinator", load_text("coordinator.md").strip(),
                                        cacheable=True))  # with the static sections
    if options.permission_mode == "plan" and plan_file is not None:
        from cc.prompts import load_text
        from cc.prompts.builder import PromptSection

        system.append(PromptSection("plan_mode", load_text("plan/session.md").strip().format(
            plan_file=plan_file), cacheable=False))
    return AgentSpec(
        model=options.model,
        system=system,
        permission_mode=options.permission_mode,
        tools=options.tools,
        max_turns=options.max_turns,
        thinking_budget=options.thinking_budget,
        max_output_tokens=options.max_output_tokens,
        max_budget_usd=None if options.interactive else options.max_budget_usd,
        fallback_models=options.fallback_models,
        controls=options.controls,
        session_id=options.session_id,
        allowed_tools=options.allowed_tools,
        disallowed_tools=options.disallowed_tools,
        add_dirs=options.add_dirs,
        news=(_team_letters(session), Source(session.take_notes)),
        json_schema=options.json_schema,
        structured_output_retries=options.structured_output_retries,
    )


async def build_main(session: Session, extra_tools: Sequence[Tool] = ()) -> Built:
    """The main agent's engine: its tools decide the prompt's tool section, so the
    registry is settled (deny rules applied) before the spec is made. `extra_tools` are
    those of layers above this one (the Agent tool). The session's shared parts (memory
    folder, sandbox, tool pool) are made here, once."""
    from cc.tools.plan_file import new_plan_file

    options = session.options
    warnings: list[str] = []
    permissions = _permission_context(options.permission_mode, options.allowed_tools,
                                      options.disallowed_tools, options.add_dirs, session,
                                      warnings)
    session.memory_dir = _memory_folder(session)
    permissions.memory_dir = session.memory_dir  # the main agent writes it unasked
    permissions.plan_file = new_plan_file(session.config_dir)
    session.sandbox = _sandbox(session, permissions, warnings)
    warnings += _skill_warnings(session)
    # A coordinator's few tools are its whole purpose: none of them waits to be loaded.
    search = _tool_search(session) and not options.coordinator
    from cc.input.skills import SkillLibrary

    registry = build_registry(options.tools, permissions, extra_tools, search=search,
                              skills=SkillLibrary(session.cwd, session.config_dir),
                              interactive=options.someone_answers)
    _follow_mcp(registry, session, None, permissions)
    session.tool_pool = registry
    if options.coordinator:  # workers get every tool; the coordinator only delegates
        from cc.app.options import COORDINATOR_TOOLS

        registry = _offered(registry.entries(), COORDINATOR_TOOLS, permissions)
    spec = main_spec(session, [e.name for e in registry.entries()
                               if not (search and e.deferred and "ToolSearch" in registry)],
                     plan_file=permissions.plan_file, warnings=warnings)
    return await build_engine(spec, session, permissions=permissions, registry=registry,
                              warnings=warnings)


async def fork(session: Session, parent: QueryEngine, spec: AgentSpec, *,
               inherit_tools: bool = False) -> Built:
    """A sub-agent's engine, finished. It shares the parent's API client, rules (its own
    grants copied, deny and ask rules shared), sandbox and hooks configuration; its
    messages, tool context, shell, checker (in the spec's mode, asking whoever the spec
    names), hooks view and transcript are its own. `inherit_tools`: the parent's very
    tools (a fork, for its cache prefix); else the session's, as the spec filters them.
    Closing it leaves what it shares open."""
    from cc.permissions.checker import PermissionChecker

    parent_gate = parent.executor.permissions
    if not isinstance(parent_gate, PermissionChecker):
        raise TypeError("fork() needs a parent whose permissions are a PermissionChecker")
    # A sub-agent reads the memory folder like any other, but writing there asks.
    context = dataclasses.replace(parent_gate.context, mode=spec.permission_mode,
                                  rules=parent_gate.context.rules.scoped(), warnings=[],
                                  shell_cwd=None, memory_dir=None)
    if inherit_tools:
        registry = parent.registry
    else:
        pool = session.tool_pool or parent.registry
        followed = {e.name for e in session.mcp.entries()} if session.mcp is not None else set()
        registry = _offered([e for e in pool.entries() if not e.name.startswith("mcp__")
                             and e.name not in followed], spec.tools, context)
        _follow_mcp(registry, session, spec.tools, context)  # the MCP tools come and go
    return await build_engine(spec, session, permissions=context, registry=registry,
                              parent=parent)


async def build_engine(
    spec: AgentSpec,
    session: Session,
    *,
    permissions: PermissionContext | None = None,
    registry: ToolRegistry | None = None,
    warnings: list[str] | None = None,
    parent: QueryEngine | None = None,
) -> Built:
    """An engine for `spec`, finished. Its API client (the parent's, which is the
    session's) and sandbox are the session's, which closes them."""
    from cc.agents.control import AgentControl
    from cc.compact.compactor import Compactor
    from cc.core.pipeline.executor import ToolExecutor
    from cc.core.query_engine import EngineConfig, QueryEngine
    from cc.core.services import services_of
    from cc.hooks.gate import NoHooks
    from cc.permissions.checker import PermissionChecker
    from cc.tools.agent_tasks import AgentTasks
    from cc.tools.base import EngineRef, ToolContext
    from cc.tools.shell import BackgroundTasks, ShellSession

    warnings = [] if warnings is None else warnings
    if permissions is None:
        permissions = _permission_context(spec.permission_mode, spec.allowed_tools,
                                          spec.disallowed_tools, spec.add_dirs, session,
                                          warnings)
    if registry is None:
        registry = build_registry(spec.tools, permissions)
    if spec.json_schema is not None:
        # The agent's own tool, not the session's pool's: --tools and a bare deny rule
        # leave it offered, as in Claude Code (the rule still refuses its calls).
        from cc.tools.structured_output import StructuredOutputTool

        registry = registry.with_tools(StructuredOutputTool(spec.json_schema))
    shell = ShellSession(session.cwd)
    ref = EngineRef()
    ctx = ToolContext(cwd=session.cwd, shell=shell, tasks=BackgroundTasks(shell.tasks_dir),
                      agent_tasks=AgentTasks(), memory_dir=session.memory_dir, engine_ref=ref,
                      sandbox=session.sandbox)
    if parent is not None:  # a sub-agent works on its session's list
        ctx.task_list = parent.executor.ctx.task_list
    else:
        ctx.task_list = _task_list(session, lambda: engine.session_id)
    permissions.shell_cwd = lambda: shell.cwd
    ctx.read_denied = _read_denied(permissions)
    # Nobody to ask yet: print mode keeps it so; the REPL calls `engine.use_channel`.
    checker = PermissionChecker(permissions, sandbox=session.sandbox)
    config = EngineConfig(
        model=spec.model,
        system=spec.system,
        max_turns=spec.max_turns,
        thinking_budget=spec.thinking_budget,
        max_output_tokens=spec.max_output_tokens,
        structured_output=spec.structured_output_retries
        if spec.json_schema is not None else None,
        max_budget_usd=spec.max_budget_usd,
        fallback_models=spec.fallback_models,
        controls=spec.controls,
    )
    if spec.session_id:
        config.session_id = spec.session_id
    hooks = _hooks(session, config.session_id, lambda: checker.mode, warnings) \
        if spec.hooks else None
    if hooks is not None:
        checker.request_hooks = hooks.permission_request
    if hooks is not None and spec.identity is not None:
        hooks.agent = spec.identity
        hooks.transcript_path = parent.hooks.transcript_path if parent and parent.hooks \
            else None
        hooks.agent_transcript_path = str(spec.transcript) if spec.transcript else None
    executor = ToolExecutor(registry, ctx, permissions=spec.gate or checker,
                            hooks=hooks if hooks is not None else NoHooks())
    if parent is not None and not spec.internal:  # its edits rewind with its session's
        executor.checkpoints = parent.executor.checkpoints
    client = parent.client if parent is not None else session.client
    # A sub-agent's refusals are its session's: one log, the main agent's.
    denials = parent.denials if parent is not None and not spec.internal else None
    engine = QueryEngine(config, client, registry, executor, hooks=hooks,
                         shares_with_parent=True, denials=denials,
                         agent=spec.identity, is_fork=spec.is_fork, messages=spec.seed,
                         news=spec.news,
                         tool_search=_tool_search(session) and "ToolSearch" in registry)
    ctx.results_dir = lambda: _results_dir(engine)
    if hooks is not None:
        _wire_hooks(hooks, engine)
    if spec.compaction:
        engine.compactor = Compactor(engine, settings=session.settings.merged)
    engine.services = services_of(engine, AgentControl(engine, session))
    ref.bind(engine.services)
    if spec.channel is not None:
        engine.use_channel(spec.channel)
    if spec.transcript is not None:
        engine.use_transcript(_transcript(spec, spec.transcript, session))
    return Built(engine, checker, warnings)


def build_registry(tools: tuple[str, ...] | None, permissions: PermissionContext,
                   extra: Sequence[Tool] = (), *, search: bool = False,
                   skills: SkillSource | None = None,
                   interactive: bool = False) -> ToolRegistry:
    """The catalog's tools (each module imported on first use) and `extra`, plus
    ToolSearch when tool search is on and the tools that ask a person when someone is
    there (`interactive`), less those `--tools` leaves out and those a bare deny rule
    hides from the model. Skill comes with a source of `skills`."""
    from cc.tools.catalog import (
        builtin_entries,
        entry_of,
        interactive_entries,
        tool_search_entry,
    )

    entries = [*builtin_entries(skills), *(interactive_entries() if interactive else ()),
               *map(entry_of, extra)]
    if search:
        entries.append(tool_search_entry())
    return _offered(entries, tools, permissions)


def _offered(candidates: Sequence[CatalogEntry], only: tuple[str, ...] | None,
             permissions: PermissionContext) -> ToolRegistry:
    """The candidates less those `only` leaves out (ToolSearch goes with the deferred
    tools it loads) and those a bare deny rule hides."""
    from cc.permissions.checker import hides
    from cc.tools.registry import ToolRegistry

    registry = ToolRegistry(candidates)
    for name in list(registry.names):
        kept = only is None or name in only or (name == "ToolSearch" and any(
            (e := registry.entry(n)) is not None and e.deferred for n in only))
        if not kept or hides(permissions, name):
            registry.pop(name)
    return registry


def _follow_mcp(registry: ToolRegistry, session: Session, only: tuple[str, ...] | None,
                permissions: PermissionContext) -> None:
    """The session's MCP tools, as they come and go: those `only` names (all when None;
    `mcp__server` names a server's every tool), less those a bare deny rule hides."""
    if session.mcp is None:
        return
    from cc.permissions.checker import hides

    def keep(name: str) -> bool:
        if hides(permissions, name):
            return False
        return only is None or any(name == n or name.startswith(n + "__") for n in only)

    registry.follow(session.mcp, keep)


def _permission_context(
    mode: str,
    allowed: Sequence[str],
    disallowed: Sequence[str],
    add_dirs: Sequence[str],
    session: Session,
    warnings: list[str],
) -> PermissionContext:
    from cc.permissions.context import build_permission_context

    permissions = build_permission_context(
        session.settings, cwd=session.cwd, config_dir=session.config_dir, mode=mode,
        allowed_tools=list(allowed), disallowed_tools=list(disallowed), add_dirs=list(add_dirs),
    )
    warnings += permissions.warnings
    return permissions


def _skill_warnings(session: Session) -> list[str]:
    """One line per skill skipped for its frontmatter (said once, at start-up)."""
    if not any(d.is_dir() for d in (session.cwd / ".claude" / "skills",
                                    session.config_dir / "skills")):
        return []  # nothing to import or read
    from cc.input.skills import load_skills

    return load_skills(session.cwd, session.config_dir).warnings


def _memory_folder(session: Session) -> Path | None:
    """The project's memory folder, made if missing (None: memory is off, or the folder
    cannot be made)."""
    from cc.memory.auto_memory import ensure, memory_dir
    from cc.session.paths import project_dir

    if simple_mode():
        return None
    folder = memory_dir(project_dir(session.cwd, session.config_dir), session.settings.merged)
    if folder is None or not ensure(folder):
        return None
    return folder.resolve()


def _read_denied(permissions: PermissionContext) -> Callable[[str], bool] | None:
    """What Grep and Glob leave out: files a Read deny rule covers (symlinks resolved)."""
    from cc.permissions.path_policy import PathPolicy

    if not any(r.tool == "Read" for r in permissions.rules.deny):
        return None
    return lambda path: PathPolicy(permissions.rules, permissions.scope()).denied(
        path, write=False) is not None


def _sandbox(session: Session, permissions: PermissionContext,
             warnings: list[str]) -> Sandbox | None:
    """The Bash sandbox if settings turn it on (nothing of it is imported otherwise)."""
    raw = session.settings.get("sandbox")
    if not (isinstance(raw, dict) and raw.get("enabled") is True):
        return None
    from cc.sandbox.config import load_sandbox_config
    from cc.sandbox.sandbox import Sandbox

    config = load_sandbox_config(session.settings, permissions)
    warnings += config.warnings
    sandbox = Sandbox(config)
    warning = sandbox.startup_warning()  # looks for bubblewrap, once
    if warning:
        warnings.append(warning)
    return sandbox


def _task_list(session: Session, session_id: Callable[[], str]) -> TaskStore:
    """The session's task list, `<config>/tasks/<list id>/`: the session id, the team's
    name while the session leads a team (decided at each use: after TeamDelete it is the
    session's again), unless `CLAUDE_CODE_TASK_LIST_ID` names a list to share. Its folder
    is made on the first write, so a session that never uses the task tools leaves
    nothing behind."""
    from cc.tasks.store import TaskStore, list_id_for

    def list_id() -> str:
        team = session.team
        return list_id_for(session_id(), team=team.name if team is not None else None)

    return TaskStore(session.config_dir / "tasks", list_id)


def _transcript(spec: AgentSpec, path: Path, session: Session) -> TranscriptWriter:
    from cc import __version__
    from cc.session.transcript import TranscriptWriter, sidechain_fields

    writer = TranscriptWriter(path, session_id=spec.session_id or "", cwd=session.cwd,
                              version=__version__)
    if spec.identity is not None:
        writer.extra = sidechain_fields(spec.identity)
    writer.mirror = session.transcript_mirror
    return writer


def _results_dir(engine: QueryEngine) -> Path | None:
    from cc.session.paths import tool_results_dir

    return None if engine.transcript is None else tool_results_dir(engine.transcript.path)


def _hooks(session: Session, session_id: str, permission_mode: Callable[[], str],
           warnings: list[str]) -> HookRunner:
    from cc.hooks.config import HooksConfig, load_hooks
    from cc.hooks.runner import HookRunner

    if simple_mode():  # --bare: the program's own hooks only
        config, problems = HooksConfig(), []
    else:
        config, problems = load_hooks(session.settings)
    config.add(session.host_hooks)
    warnings += problems
    runner = HookRunner(config, session_id=session_id, transcript_path=None, cwd=session.cwd,
                        project_dir=session.cwd, permission_mode=permission_mode,
                        watcher=session.watch_hook)
    runner.settings_paths = {
        "user_settings": session.config_dir / "settings.json",
        "project_settings": session.cwd / ".claude" / "settings.json",
        "local_settings": session.cwd / ".claude" / "settings.local.json"}
    return runner


def _wire_hooks(hooks: HookRunner, engine: QueryEngine) -> None:
    """The engine answers `prompt` hooks; `async` hooks' output joins its next request,
    and those still running end with it."""
    from cc.core.hook_model import EngineHookModel
    from cc.core.news import Source

    hooks.model = EngineHookModel(engine)
    hooks.effort = lambda: _effort(engine)
    engine.news.add(Source(hooks.take_async_output))
    engine.supervisor.on_close(hooks.cancel_async)


def _effort(engine: QueryEngine) -> str | None:
    """The effort the engine's requests carry (hooks' `effort.level`), if its model takes one."""
    from cc.models.catalog import model_info

    return engine.config.controls.effort_for(model_info(engine.model))


def _tool_search(session: Session) -> bool:
    import os

    from cc.core.toolset import tool_search_enabled

    return tool_search_enabled(os.environ, session.credentials.base_url)


def _team_letters(session: Session) -> Source:
    """The main agent's mailbox while the session leads a team (nothing otherwise)."""
    from cc.core.news import Source

    return Source(lambda: session.team.lead_letters() if session.team is not None else [],
                  lambda: session.team is not None and session.team.lead_has_mail())
