"""Assembling an engine: one `AgentSpec` says what an agent is; `build_engine` wires it.

    SessionOptions ─ main_spec() ─> AgentSpec ─ build_engine() ─> QueryEngine
                                   (model, system sections, tools, permission mode,
                                    limits, ids)

`build_engine` gives the engine its own tool context (shell session, background
tasks, read-file state), permission checker, hook runner and executor.
`build_session_engine` builds the session's main agent and makes it the runtime's
(`runtime.engine_ref`, the late binding tools use to reach their engine, and
`runtime.permissions`). `fork(parent, spec, runtime)` builds a sub-agent's engine: the
parent's API client and permission rules, everything per conversation its own, and
nobody to ask. Problems come back as warnings, for the caller to show: nothing here
prints.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from cc.app.options import SessionOptions
from cc.app.runtime import Runtime

if TYPE_CHECKING:
    from cc.core.query_engine import QueryEngine
    from cc.hooks.runner import HookRunner
    from cc.permissions.ask import UserChannel
    from cc.permissions.checker import PermissionChecker
    from cc.permissions.context import PermissionContext
    from cc.prompts.builder import PromptSection
    from cc.sandbox.sandbox import Sandbox
    from cc.session.transcript import TranscriptWriter
    from cc.tasks.store import TaskStore
    from cc.tools.base import Tool
    from cc.tools.registry import ToolRegistry


@dataclass(frozen=True)
class AgentSpec:
    """What an agent is, independent of how it is wired."""

    model: str
    system: Sequence[PromptSection]
    permission_mode: str = "default"
    #: Built-in tools offered (None: all of them); a bare deny rule still hides one.
    tools: tuple[str, ...] | None = None
    max_turns: int | None = None
    thinking_budget: int | None = None
    max_output_tokens: int | None = None
    session_id: str | None = None
    #: Rules beyond the settings' (`--allowedTools`, `--disallowedTools`, `--add-dir`).
    allowed_tools: tuple[str, ...] = ()
    disallowed_tools: tuple[str, ...] = ()
    add_dirs: tuple[str, ...] = ()
    #: Set for a sub-agent: its id and the Agent tool call that started it.
    agent_id: str | None = None
    parent_tool_use_id: str | None = None
    #: Who answers the agent's questions (None: nobody, so what would ask is denied).
    channel: UserChannel | None = None
    #: Where its conversation is saved as it happens (None: not saved, or, for the
    #: session's agent, wherever the session is attached later). A sub-agent's lines
    #: are sidechain lines (`isSidechain`, `agentId`).
    transcript: Path | None = None
    #: The harness's own helper (memory extraction): the calls it is refused are not
    #: the session's `permission_denials`.
    internal: bool = False


@dataclass
class Built:
    engine: QueryEngine
    #: The engine's permission checker (the executor's gate).
    checker: PermissionChecker
    warnings: list[str] = field(default_factory=list)


def main_spec(options: SessionOptions, runtime: Runtime, tool_names: Sequence[str]) -> AgentSpec:
    """The spec of the session's main agent: the full system prompt with CLAUDE.md."""
    from cc.memory.auto_memory import load_index
    from cc.memory.claude_md import load_claude_md, render_claude_md
    from cc.prompts.builder import build_system_prompt, environment_for

    claude_md = None if options.system_prompt is not None else render_claude_md(
        load_claude_md(runtime.cwd, runtime.config_dir)
    )
    memory = runtime.memory_dir
    system = build_system_prompt(
        environment_for(runtime.cwd, options.model),
        tool_names=list(tool_names),
        claude_md=claude_md,
        memory_index=(load_index(memory) or "(no memories yet)") if memory else None,
        memory_dir=memory,
        override=options.system_prompt,
        append=options.append_system_prompt,
        commit_trailer=options.commit_trailer,
    )
    if options.coordinator and options.system_prompt is None:
        from cc.prompts import load_text
        from cc.prompts.builder import PromptSection

        at = next((i for i, s in enumerate(system) if not s.cacheable), len(system))
        system.insert(at, PromptSection("coordinator", load_text("coordinator.md").strip(),
                                        cacheable=True))  # with the static sections
    return AgentSpec(
        model=options.model,
        system=system,
        permission_mode=options.permission_mode,
        tools=options.tools,
        max_turns=options.max_turns,
        thinking_budget=options.thinking_budget,
        max_output_tokens=options.max_output_tokens,
        session_id=options.session_id,
        allowed_tools=options.allowed_tools,
        disallowed_tools=options.disallowed_tools,
        add_dirs=options.add_dirs,
    )


async def build_session_engine(options: SessionOptions, runtime: Runtime,
                         extra_tools: Sequence[Tool] = ()) -> Built:
    """The main agent's engine: its tools decide the prompt's tool section, so the
    registry is settled (deny rules applied) before the spec is made. `extra_tools` are
    those of layers above this one (the Agent tool)."""
    warnings: list[str] = []
    permissions = _permission_context(options.permission_mode, options.allowed_tools,
                                      options.disallowed_tools, options.add_dirs, runtime,
                                      warnings)
    runtime.memory_dir = _memory_folder(runtime)
    permissions.memory_dir = runtime.memory_dir  # the main agent writes it unasked
    registry = build_registry(options.tools, permissions, extra_tools)
    if options.coordinator:  # workers get every tool; the coordinator only delegates
        from cc.app.options import COORDINATOR_TOOLS

        runtime.tool_pool = registry
        registry = _offered([t for n in registry.names if (t := registry.get(n))],
                            COORDINATOR_TOOLS, permissions)
    spec = main_spec(options, runtime, registry.names)
    built = await build_engine(spec, runtime, permissions=permissions, registry=registry,
                         warnings=warnings)
    runtime.permissions = built.checker
    runtime.sandbox = built.checker.sandbox
    runtime.engine_ref.bind(built.engine)
    built.engine.executor.ctx.engine_ref = runtime.engine_ref
    return built


async def fork(parent: QueryEngine, spec: AgentSpec, runtime: Runtime,
         registry: ToolRegistry | None = None) -> Built:
    """A sub-agent's engine. It shares the parent's API client, permission rules (an
    "always" answer holds for both), sandbox and hooks configuration; its messages,
    tool context, shell, checker (in the spec's mode, with nobody to ask), hook runner
    and transcript are its own. Closing it leaves what it shares open."""
    import dataclasses

    from cc.permissions.checker import PermissionChecker

    parent_gate = parent.executor.permissions
    if not isinstance(parent_gate, PermissionChecker):
        raise TypeError("fork() needs a parent whose permissions are a PermissionChecker")
    # A sub-agent reads the memory folder like any other, but writing there asks.
    context = dataclasses.replace(parent_gate.context, mode=spec.permission_mode,
                                  rules=parent_gate.context.rules.scoped(), warnings=[],
                                  shell_cwd=None, memory_dir=None)
    if registry is None:  # the session's tools, as the spec filters them
        pool = runtime.tool_pool or parent.registry
        registry = _offered([t for n in pool.names if (t := pool.get(n)) is not None],
                            spec.tools, context)
    return await build_engine(spec, runtime, permissions=context, registry=registry,
                              parent=parent)


async def build_engine(
    spec: AgentSpec,
    runtime: Runtime,
    *,
    permissions: PermissionContext | None = None,
    registry: ToolRegistry | None = None,
    warnings: list[str] | None = None,
    parent: QueryEngine | None = None,
) -> Built:
    """An engine for `spec`. With `parent` (a fork), its API client and sandbox are
    shared; otherwise a new client is made and the settings decide the sandbox."""
    from cc.compact.compactor import Compactor
    from cc.core.client import ModelClient
    from cc.core.pipeline.executor import ToolExecutor
    from cc.core.query_engine import EngineConfig, QueryEngine
    from cc.permissions.checker import PermissionChecker
    from cc.tools.agent_tasks import AgentTasks
    from cc.tools.base import EngineRef, ToolContext
    from cc.tools.shell import BackgroundTasks, ShellSession

    warnings = [] if warnings is None else warnings
    if permissions is None:
        permissions = _permission_context(spec.permission_mode, spec.allowed_tools,
                                          spec.disallowed_tools, spec.add_dirs, runtime,
                                          warnings)
    if registry is None:
        registry = build_registry(spec.tools, permissions)
    shell = ShellSession(runtime.cwd)
    ctx = ToolContext(cwd=runtime.cwd, shell=shell, tasks=BackgroundTasks(shell.tasks_dir),
                      agent_tasks=AgentTasks(), memory_dir=runtime.memory_dir)
    if parent is not None:  # a sub-agent works on its session's list
        ctx.task_list = parent.executor.ctx.task_list
    else:
        ctx.task_list = _task_list(runtime, lambda: engine.session_id)
    permissions.shell_cwd = lambda: shell.cwd
    ctx.read_denied = _read_denied(permissions)
    if parent is not None:
        sandbox = parent.executor.ctx.sandbox
    else:
        sandbox = _sandbox(runtime, permissions, warnings)
    # Nobody to ask yet: print mode keeps it so; the REPL calls `engine.use_channel`.
    gate = PermissionChecker(permissions, sandbox=sandbox)
    ctx.sandbox = sandbox
    config = EngineConfig(
        model=spec.model,
        system=spec.system,
        max_turns=spec.max_turns,
        thinking_budget=spec.thinking_budget,
        max_output_tokens=spec.max_output_tokens,
    )
    if spec.session_id:
        config.session_id = spec.session_id
    hooks = _hooks(runtime, config.session_id, lambda: gate.mode, warnings)
    executor = ToolExecutor(registry, ctx, permissions=gate, hooks=hooks)
    client = parent.client if parent is not None else ModelClient(runtime.credentials)
    # A sub-agent's refusals are its session's: one log, the main agent's.
    denials = parent.denials if parent is not None and not spec.internal else None
    engine = QueryEngine(config, client, registry, executor, hooks=hooks,
                         shares_with_parent=parent is not None, denials=denials)
    ctx.results_dir = lambda: _results_dir(engine)
    ctx.engine_ref = EngineRef(engine)
    engine.runtime = runtime
    engine.compactor = Compactor(engine, settings=runtime.settings.merged)
    if spec.channel is not None:
        engine.use_channel(spec.channel)
    if spec.transcript is not None:
        engine.use_transcript(_transcript(spec, spec.transcript, runtime))
    return Built(engine, gate, warnings)


def build_registry(tools: tuple[str, ...] | None, permissions: PermissionContext,
                   extra: Sequence[Tool] = ()) -> ToolRegistry:
    """Tier 1 tools at once (later tiers are wired in here as they land) and `extra`,
    less those `--tools` leaves out and those a bare deny rule hides from the model."""
    from cc.tools.bash import BashTool
    from cc.tools.edit import EditTool
    from cc.tools.glob import GlobTool
    from cc.tools.grep import GrepTool
    from cc.tools.read import ReadTool
    from cc.tools.task_create import TaskCreateTool
    from cc.tools.task_get import TaskGetTool
    from cc.tools.task_list import TaskListTool
    from cc.tools.task_output import TaskOutputTool
    from cc.tools.task_stop import TaskStopTool
    from cc.tools.task_update import TaskUpdateTool
    from cc.tools.todo_write import TodoWriteTool
    from cc.tools.write import WriteTool

    return _offered([TaskOutputTool(), BashTool(), GlobTool(), GrepTool(), ReadTool(),
                     EditTool(), WriteTool(), TodoWriteTool(), TaskStopTool(), TaskCreateTool(),
                     TaskGetTool(), TaskListTool(), TaskUpdateTool(), *extra],
                    tools, permissions)


def _offered(candidates: Sequence[Tool], only: tuple[str, ...] | None,
             permissions: PermissionContext) -> ToolRegistry:
    """The candidates less those `only` leaves out and those a bare deny rule hides."""
    from cc.permissions.checker import hides
    from cc.tools.registry import ToolRegistry

    registry = ToolRegistry(candidates)
    for name in list(registry.names):
        if (only is not None and name not in only) or hides(permissions, name):
            registry.pop(name)
    return registry


def _permission_context(
    mode: str,
    allowed: Sequence[str],
    disallowed: Sequence[str],
    add_dirs: Sequence[str],
    runtime: Runtime,
    warnings: list[str],
) -> PermissionContext:
    from cc.permissions.context import build_permission_context

    permissions = build_permission_context(
        runtime.settings, cwd=runtime.cwd, config_dir=runtime.config_dir, mode=mode,
        allowed_tools=list(allowed), disallowed_tools=list(disallowed), add_dirs=list(add_dirs),
    )
    warnings += permissions.warnings
    return permissions


def _memory_folder(runtime: Runtime) -> Path | None:
    """The project's memory folder, made if missing (None: memory is off, or the folder
    cannot be made)."""
    from cc.memory.auto_memory import ensure, memory_dir
    from cc.session.paths import project_dir

    folder = memory_dir(project_dir(runtime.cwd, runtime.config_dir), runtime.settings.merged)
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


def _sandbox(runtime: Runtime, permissions: PermissionContext,
             warnings: list[str]) -> Sandbox | None:
    """The Bash sandbox if settings turn it on (nothing of it is imported otherwise)."""
    raw = runtime.settings.get("sandbox")
    if not (isinstance(raw, dict) and raw.get("enabled") is True):
        return None
    from cc.sandbox.config import load_sandbox_config
    from cc.sandbox.sandbox import Sandbox

    config = load_sandbox_config(runtime.settings, permissions)
    warnings += config.warnings
    sandbox = Sandbox(config)
    warning = sandbox.startup_warning()  # looks for bubblewrap, once
    if warning:
        warnings.append(warning)
    return sandbox


def _task_list(runtime: Runtime, session_id: Callable[[], str]) -> TaskStore:
    """The session's task list, `<config>/tasks/<list id>/`: the session id, the team's
    name while the session leads a team (decided at each use: after TeamDelete it is the
    session's again), unless `CLAUDE_CODE_TASK_LIST_ID` names a list to share. Its folder
    is made on the first write, so a session that never uses the task tools leaves
    nothing behind."""
    from cc.tasks.store import TaskStore, list_id_for

    def list_id() -> str:
        team = runtime.team
        return list_id_for(session_id(), team=team.name if team is not None else None)

    return TaskStore(runtime.config_dir / "tasks", list_id)


def _transcript(spec: AgentSpec, path: Path, runtime: Runtime) -> TranscriptWriter:
    from cc import __version__
    from cc.session.transcript import TranscriptWriter

    writer = TranscriptWriter(path, session_id=spec.session_id or "", cwd=runtime.cwd,
                              version=__version__)
    if spec.agent_id is not None:
        writer.extra = {"isSidechain": True, "agentId": spec.agent_id}
    return writer


def _results_dir(engine: QueryEngine) -> Path | None:
    from cc.session.paths import tool_results_dir

    return None if engine.transcript is None else tool_results_dir(engine.transcript.path)


def _hooks(runtime: Runtime, session_id: str, permission_mode: Callable[[], str],
           warnings: list[str]) -> HookRunner:
    from cc.hooks.config import load_hooks
    from cc.hooks.runner import HookRunner

    config, problems = load_hooks(runtime.settings)
    warnings += problems
    return HookRunner(config, session_id=session_id, transcript_path=None, cwd=runtime.cwd,
                      project_dir=runtime.cwd, permission_mode=permission_mode)
