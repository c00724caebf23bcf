"""One session: what start-up found (frozen), one owner for each thing its agents share,
and the turn driver its front ends (the REPL, print mode, the SDK host) all call.

    facts        cwd, config folder, settings, credentials, resolved options (frozen)
    shared       the API client, the permission rules (grants scoped to whoever got
                 them), the tool pool, the MCP servers (their connections and tools),
                 the team and its task list, the memory folder, the sandbox, a
                 supervisor for what outlives one agent
    main         the session's main agent (`open()` builds it); sub-agents are forks of
                 it (`fork`, the one way an engine is derived from another)
    turns        start() · prepare(text) · submit(message, model=, tools=) ·
                 wait_for_news() · end(reason) · close()

Late binding as the seeds have it: each engine's tools reach their agent through the
context's `engine_ref`, bound to the agent's services once the engine exists.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cc.app.options import SessionOptions
from cc.config.env import simple_mode

if TYPE_CHECKING:
    from cc.agents.extractor import ExtractionCoordinator
    from cc.config.settings import Settings
    from cc.core.client import ModelClient
    from cc.core.credentials import Credentials
    from cc.core.events import Event
    from cc.core.query_engine import QueryEngine
    from cc.core.spec import AgentSpec
    from cc.hooks.config import HookMatcher
    from cc.hooks.lifecycle import HookNote, HookWatcher
    from cc.input.prepare import PreparedInput
    from cc.mcp.approval import ServerAnswer
    from cc.mcp.hub import McpHub
    from cc.memory.claude_md import MemoryFile
    from cc.models.messages import UserMessage
    from cc.permissions.checker import PermissionChecker
    from cc.sandbox.sandbox import Sandbox
    from cc.session.transcript import TranscriptMirror
    from cc.team.session import TeamSession
    from cc.tools.base import Tool
    from cc.tools.registry import ToolRegistry


@dataclass(frozen=True)
class StartFacts:
    """What start-up found: the same for every agent, fixed for the session."""

    cwd: Path
    config_dir: Path
    settings: Settings
    credentials: Credentials
    options: SessionOptions


class Session:
    def __init__(self, facts: StartFacts) -> None:
        from cc.core.supervisor import Supervisor

        self.facts = facts
        #: The main agent's engine (`open()` builds it).
        self._main: QueryEngine | None = None
        #: The permission checker of the main agent; its context holds the session's
        #: rules (the REPL gives it someone to ask and cycles its mode).
        self.permissions: PermissionChecker | None = None
        #: The Bash sandbox, when settings turn it on (`sandbox.enabled`).
        self.sandbox: Sandbox | None = None
        #: The project's memory folder (None: memory is off).
        self.memory_dir: Path | None = None
        #: Every tool of the session, where its agents take theirs from.
        self.tool_pool: ToolRegistry | None = None
        #: The team this session leads (TeamCreate makes it, TeamDelete ends it).
        self.team: TeamSession | None = None
        #: The conversation continues an earlier one (-c / -r).
        self.resumed = False
        #: The background memory extraction, when memory and extraction are on.
        self.extractor: ExtractionCoordinator | None = None
        #: What outlives one agent (the connection, the sandbox, MCP servers), closed last.
        self.supervisor = Supervisor()
        #: The configured MCP servers (None: there are none); `open()` starts them.
        self.mcp: McpHub | None = None
        self._mcp_started = False
        #: The MCP servers whose failure `mcp_ready` has told.
        self._mcp_told: set[str] = set()
        #: Hooks a program driving the session registered (an SDK host's callbacks);
        #: every agent's hook runner has them.
        self.host_hooks: list[HookMatcher] = []
        self._client: ModelClient | None = None
        self._notes: list[str] = []
        #: Told of every hook command's start and end, in any of the session's agents
        #: (print mode's hook records).
        self.hook_watchers: list[HookWatcher] = []
        #: `--session-mirror`: told of every line the session's transcripts get (set
        #: before `open()`).
        self.transcript_mirror: TranscriptMirror | None = None
        #: The output style of the main agent's prompt (`main_spec` sets it, /clear
        #: may change it).
        self.output_style = "default"
        #: The CLAUDE.md files in the main agent's prompt (`main_spec` sets them).
        self.instruction_files: list[MemoryFile] = []

    # -- the facts -----------------------------------------------------------------------

    @property
    def cwd(self) -> Path:
        return self.facts.cwd

    @property
    def config_dir(self) -> Path:
        return self.facts.config_dir

    @property
    def settings(self) -> Settings:
        return self.facts.settings

    @property
    def credentials(self) -> Credentials:
        return self.facts.credentials

    @property
    def options(self) -> SessionOptions:
        return self.facts.options

    @property
    def client(self) -> ModelClient:
        """The API client every agent of the session talks through (made on first need,
        closed when the session closes)."""
        if self._client is None:
            from cc.core.client import ModelClient

            self._client = ModelClient(self.credentials, config_dir=self.config_dir)
            self.supervisor.on_close(self._client.close)
        return self._client

    @property
    def engine(self) -> QueryEngine:
        if self._main is None:
            raise RuntimeError("the session has no main agent yet (open() builds it)")
        return self._main

    # -- building ------------------------------------------------------------------------

    async def open(self, extra_tools: Sequence[Tool] = ()) -> list[str]:
        """Build the main agent (with `extra_tools` from the layers above: Agent,
        SendMessage, TeamCreate) and its memory extraction; the warnings to show."""
        from cc.agents.extractor import extraction_for
        from cc.app.factory import build_main

        self.mcp, problems = _mcp_hub(self)
        if not self.options.interactive:
            self.start_mcp()  # first: the servers start while the agent is built
        built = await build_main(self, extra_tools)
        built.warnings[:0] = problems
        if self.sandbox is not None:
            self.supervisor.on_close(self.sandbox.close)
        self._main = built.engine
        self.permissions = built.checker
        built.checker.on_mode_change(self._mode_changed)
        self.extractor = extraction_for(
            self, lasting=self.options.interactive or self.options.sdk_host)
        return built.warnings

    def add_host_hooks(self, matchers: Sequence[HookMatcher]) -> None:
        """Hooks of the program driving the session, from now on (the main agent's and
        every sub-agent's started later)."""
        self.host_hooks.extend(matchers)
        if self._main is not None and self._main.hooks is not None:
            self._main.hooks.config.add(matchers)

    def start_mcp(self) -> None:
        """Connect the MCP servers in the background (`open()` does it in print mode; the
        REPL once its prompt is drawn, so their SDK's import does not delay it)."""
        if self.mcp is not None and not self._mcp_started:
            self._mcp_started = True
            self.mcp.start(self.supervisor.spawn)

    def answer_mcp(self, answer: ServerAnswer) -> list[str]:
        """The user's answer about the project's new MCP servers: the approved ones
        connect now; the answer is kept in `.claude/settings.local.json`. Warnings."""
        if self.mcp is None:
            return []
        from cc.config.settings import settings_paths
        from cc.mcp.approval import apply

        return apply(self.mcp, answer, settings_paths(self.cwd, self.config_dir)["local"])

    def _mode_changed(self, mode: str) -> None:
        """Plan mode turned on (Shift+Tab, EnterPlanMode): the model's next request says
        where the plan goes."""
        plan_file = self.permissions.context.plan_file if self.permissions else None
        if mode == "plan" and plan_file is not None:
            from cc.tools.plan_mode import entered_message

            self._notes.append(entered_message(plan_file))

    def watch_hook(self, note: HookNote) -> None:
        """A hook command started or ended (the hook runners of every agent call this)."""
        for watcher in self.hook_watchers:
            watcher(note)

    def take_notes(self) -> list[str]:
        """What the session has to tell the main agent with its next request (it starts
        no turn by itself)."""
        notes, self._notes = self._notes, []
        return notes

    async def fork(self, parent: QueryEngine, spec: AgentSpec, *,
                   inherit_tools: bool = False) -> QueryEngine:
        """A finished engine for a sub-agent of `parent` (see `cc.app.factory.fork`)."""
        from cc.app.factory import fork

        return (await fork(self, parent, spec, inherit_tools=inherit_tools)).engine

    # -- the turn driver -----------------------------------------------------------------

    async def start(self) -> list[str]:
        """Setup hooks (`--init`, `--maintenance`), SessionStart hooks (startup or
        resume), then InstructionsLoaded for each CLAUDE.md in the context; notices for
        the user."""
        notices = []
        if self.options.setup_trigger is not None:
            notices += await self.engine.start_session(self.options.setup_trigger, setup=True)
        notices += await self.engine.start_session("resume" if self.resumed else "startup")
        hooks = self.engine.hooks
        if hooks is not None and hooks.listens("InstructionsLoaded"):
            for file in self.instruction_files:  # (those the prompt holds)
                await hooks.instructions_loaded(str(file.path), file.scope.capitalize(),
                                                "session_start")
        return notices

    async def prepare(self, text: str) -> PreparedInput:
        """The message for a prompt as typed: a custom `/command` expanded (its model and
        allowed tools kept for the turn) or an MCP server's `/mcp__server__prompt`,
        `@files` and `@server:uri` resources attached, `` !`cmd` `` run."""
        from cc.input.prepare import prepare_prompt
        from cc.permissions.grants import command_permit

        permit = command_permit(self.permissions, self.engine.registry.get("Bash"))
        return await prepare_prompt(text, self.cwd, self.config_dir,
                                    session_id=self.engine.session_id, permit=permit,
                                    mcp=self.mcp, hooks=self.engine.hooks)

    async def submit(self, message: UserMessage | None, *, model: str | None = None,
                     tools: Sequence[str] = ()) -> AsyncIterator[Event]:
        """A turn for `message` (None: for the news waiting for the model). `model` and
        `tools` (allow rules) hold for this turn only, as a custom command's do."""
        from cc.models.catalog import resolve_model
        from cc.permissions.grants import grant_rules

        engine = self.engine
        saved = engine.model
        if model:
            engine.set_model(resolve_model(model))
        from cc.core.events import Notice

        undo: Callable[[], None] | None = None
        if tools and self.permissions is not None:
            undo, problems = grant_rules(self.permissions, tools)
            for problem in problems:
                yield Notice(problem, level="warning")
        try:
            turn = engine.submit(message) if message is not None else engine.run_turn()
            async with contextlib.aclosing(turn) as events:
                async for event in events:
                    yield event
        finally:
            if model:
                engine.set_model(saved)
            if undo is not None:
                undo()

    async def mcp_ready(self) -> list[str]:
        """Wait (MCP_TIMEOUT at most) until every MCP server has connected or failed; what
        to tell the user: failures and problems found meanwhile."""
        hub = self.mcp
        if hub is None:
            return []
        await hub.settled(hub.setup.connect_timeout)
        failed = [c for c in hub.connections.values()
                  if c.status == "failed" and c.error and c.name not in self._mcp_told]
        self._mcp_told.update(c.name for c in failed)  # an SDK host asks before each turn
        return [f'MCP server "{c.name}" failed to connect: {c.error}'
                for c in failed] + hub.take_problems()

    async def wait_for_news(self) -> bool:
        """Wait while background agents run and nothing waits for the model; whether
        news waits now (print mode then runs another turn, as Claude Code does)."""
        return await self.engine.wait_for_background()

    async def end(self, reason: str, *, look_back: bool = False) -> None:
        """SessionEnd hooks; with `look_back` (the REPL's user leaving), the turns the
        memory extraction has not looked at yet are looked at first (briefly)."""
        if look_back and self.extractor is not None:
            await self.extractor.finish()
        await self.engine.end_session(reason)

    async def close(self) -> None:
        """The main agent (and what it started), then what the session keeps."""
        try:
            if self._main is not None:
                await self._main.aclose()
        finally:
            await self.supervisor.aclose()


def _mcp_hub(session: Session) -> tuple[McpHub | None, list[str]]:
    """The session's MCP servers, as configuration names them (None: there are none);
    the configuration's problems. A project server refused in settings stays off; in the
    REPL one not yet approved waits until the user says (`McpHub.enable`), and the
    problems stay with the hub for the REPL to tell."""
    from cc.mcp.config import load_servers

    options = session.options
    found = load_servers(session.cwd, session.config_dir, flag_configs=options.mcp_configs,
                         strict=options.strict_mcp_config or simple_mode())
    if not found.servers and not (found.problems and options.interactive):
        return None, list(found.problems)
    import os

    from cc.mcp.client import ClientSetup, timeout_from_env
    from cc.mcp.hub import McpHub
    from cc.mcp.sdk_link import SdkLink
    from cc.mcp.standing import project_choices
    from cc.session.paths import project_dir

    choices, _ = project_choices(session.cwd, session.config_dir)
    held, asking = [], []
    for name, entry in found.servers.items():
        standing = choices.standing(entry)
        # Print mode loads project servers without asking, as Claude Code does.
        if standing == "pending" and options.interactive:
            asking.append(name)
        if standing in ("rejected", "disabled") or name in asking:
            held.append(name)
    setup = ClientSetup(
        session.cwd, roots=[Path(d).resolve() for d in options.add_dirs],
        log_dir=session.config_dir / "mcp-logs" / project_dir(session.cwd,
                                                              session.config_dir).name,
        connect_timeout=timeout_from_env(), environ=dict(os.environ),
        sdk=SdkLink() if options.sdk_host else None)
    hub = McpHub(found, setup, held=held, asking=asking)
    # The REPL tells the problems once its prompt is up; print mode before its run.
    return hub, [] if options.interactive else hub.take_problems()
