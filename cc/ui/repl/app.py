"""The interactive REPL: a prompt that stays up while turns run.

The screen (`cc.ui.repl.screen`) comes first: the banner and the prompt are drawn from
start-up's facts, and the session is built once they show (`run_repl`'s `opening`),
while the user can type. Then one prompt_toolkit PromptSession runs for the whole
session. Enter queues the input; a worker task takes inputs one at a time: `!` shell
lines, slash commands, prompts. A turn runs as a task the worker awaits, so the prompt
keeps accepting input (shown as queued) and Esc / Ctrl-C cancel the turn at once. When
nothing is typed and news waits for the model (a teammate's letter, a background agent's
end), the worker runs a turn for it by itself, as print mode does. Output is printed
above the prompt; the live area (streaming text, running tools, spinner, the team's
lines, dialogs) sits just above the input line. All logic below the UI lives in
`cc.commands` / the engine.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cc.cancelling import cancel_and_wait
from cc.commands.context import MODE_CYCLE, CommandContext, Services, maybe_await
from cc.ui.repl.mcp_watch import McpWatch
from cc.ui.repl.printer import Draw
from cc.ui.repl.screen import Screen
from cc.ui.repl.team_view import TeamWatch

if TYPE_CHECKING:
    from cc.app.session import Session
    from cc.models.messages import UserMessage
    from cc.tools.agent_tasks import AgentTask
    from cc.ui.repl.turn_view import TurnView
    from cc.ui.status_line import StatusLine

TICK_S = 0.1


@dataclass
class Opened:
    """A session ready for the REPL, with what its control plane lends the commands, and
    what opening it had to say."""

    session: Session
    services: Services
    notes: list[str] = field(default_factory=list)


#: Builds the session once the prompt shows.
Opening = Callable[[], Awaitable[Opened]]


async def run_repl(screen: Screen, session: Opened | Opening, first: str | None = None) -> int:
    """Run the REPL on `screen` until /exit, Ctrl-D or Ctrl-C twice; 0 on a normal exit.
    `session` is open already (a resumed conversation, shown before the prompt) or opens
    once the prompt shows."""
    screen.print_header()
    if isinstance(session, Opened) and session.session.engine.messages:
        from cc.ui.repl.replay import render_conversation

        messages, cwd = list(session.session.engine.messages), screen.cwd
        await screen.printer.print(lambda c: render_conversation(c, messages, cwd))
    prompt = screen.make_session()
    if first and first.strip():
        screen.live.queued.append(first)
    start = _Start(screen, session, first)
    worker = asyncio.create_task(start.run())
    try:
        with contextlib.suppress(EOFError, KeyboardInterrupt):
            await prompt.prompt_async()
    finally:
        screen.exiting = True
        await start.close(worker)
    return start.status


class _Start:
    """From the first draw to the REPL: the session opens, then the REPL runs it."""

    def __init__(self, screen: Screen, session: Opened | Opening, first: str | None) -> None:
        self.screen, self.session, self.first = screen, session, first
        self.repl: Repl | None = None
        self.status = 0

    async def run(self) -> None:
        await self.screen.drawn()
        try:
            opened = self.session if isinstance(self.session, Opened) else await self.session()
        except Exception as exc:  # noqa: BLE001 - shown, then the REPL ends
            await self._failed(exc)
            return
        repl = self.repl = Repl(self.screen, opened.session, opened.services)
        self.screen.attach(repl)
        if self.first and self.first.strip() and self.screen.history is not None:
            self.screen.history.store_string(self.first)  # (it was not typed in the box)
        await repl.work(opened.notes)

    async def _failed(self, exc: Exception) -> None:
        from cc.errors import UsageError
        from cc.ui.render import render_error

        message = f"Error: {exc}" if isinstance(exc, UsageError) else (
            f"The session could not start: {type(exc).__name__}: {exc}")
        await self.screen.printer.print(lambda c: render_error(c, message))
        self.status = 1
        self.screen.request_exit()

    async def close(self, worker: asyncio.Task[None]) -> None:
        await cancel_and_wait([worker])  # (bounded: a turn that will not end is left)
        if self.repl is not None:
            await self.repl.close()
            return
        if self.screen.history is not None:  # (sent before the session opened, if ever)
            self.screen.history.flush()
        if isinstance(self.session, Opened):
            await self.session.session.close()


def _warm_imports() -> None:
    """Import rich, our renderer and the tools the first request describes, in the
    background once the prompt is up."""
    import rich.markdown  # noqa: F401
    import rich.panel  # noqa: F401
    import rich.syntax  # noqa: F401

    import cc.ui.render  # noqa: F401
    import cc.ui.repl.turn_view  # noqa: F401
    from cc.tools.catalog import prepare_sent_tools

    prepare_sent_tools()


class Repl:
    """The session at the terminal: what the keys, the worker and the footer ask of it.
    Built whole once the session is open; the screen was up before."""

    def __init__(self, screen: Screen, runtime: Session, services: Services) -> None:
        self.screen = screen
        self.engine, self.runtime = runtime.engine, runtime
        self.cwd: Path = runtime.cwd
        self.services = services
        self.dialogs, self.live, self.printer = screen.dialogs, screen.live, screen.printer
        self.dialogs.on_change = self._dialogs_changed
        self.dialogs.on_accept_edits = lambda: self.set_mode("acceptEdits")
        hooks = self.engine.hooks
        if hooks is not None:
            self.dialogs.on_permission_prompt = lambda r: hooks.permission_prompt(r.tool_name)
        from cc.commands.registry import CommandRegistry

        self.commands = CommandRegistry.default(runtime.cwd, runtime.config_dir,
                                                prompts=runtime.mcp)
        self.busy = False
        self.started = time.monotonic()
        self.gate = getattr(runtime, "permissions", None)  # the permission checker, if any
        if not self.engine.channel.present:
            self.engine.use_channel(self.dialogs)  # someone to ask: the person at this terminal
        extractor = runtime.extractor
        if extractor is not None:  # what the background extraction saves gets a line too
            extractor.on_saved.append(self._memory_saved)
        listen = getattr(self.gate, "on_mode_change", None)
        if listen is not None:
            listen(lambda _mode: self.invalidate())  # the footer shows it
        self._initial_mode = self.mode
        self._offer_bypass = runtime.options.offer_bypass
        self._wakeup = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._view: TurnView | None = None
        self._warned = 0
        #: Lines printed from background work (kept until printed).
        self._background: set[asyncio.Future[None]] = set()
        #: After an interrupt, news that was waiting starts no turn until more arrives
        #: (or the user types): Esc stops the leader, it does not hand it the next letter.
        self._news_held = False
        self.team = TeamWatch(runtime, self.live, self.cwd, self._show_lines)
        self.mcp = McpWatch(runtime, self.dialogs, self._show_warnings)
        agents = self.engine.executor.ctx.agent_tasks
        if agents is not None:
            agents.watchers.append(self._agents_changed)
        self.status_line, self._status_problem = self._status_line()

    @property
    def exiting(self) -> bool:
        return self.screen.exiting

    def session_id(self) -> str:
        return self.engine.session_id

    def _status_line(self) -> tuple[StatusLine | None, str | None]:
        """Settings `statusLine`, when set: its command's line shows under the prompt."""
        from cc.ui.status_line import status_line_config

        config, problem = status_line_config(self.runtime.settings.get("statusLine"))
        if config is None:
            return None, problem
        from cc.ui.status_input import status_input
        from cc.ui.status_line import StatusLine

        line = StatusLine(config, self.cwd,
                          lambda: status_input(self.runtime, self.engine, self.started),
                          self.invalidate)
        return line, problem

    def _memory_saved(self, path: Path) -> None:
        from cc.ui.render import render_notice
        from cc.ui.repl.turn_view import memory_line

        text = memory_line(path)
        self._print_later(lambda c: render_notice(c, text))

    def _print_later(self, draw: Draw) -> None:
        """Print from a callback (not awaited; kept until printed)."""
        if self.exiting:
            return
        printed = asyncio.ensure_future(self.printer.print(draw))
        self._background.add(printed)
        printed.add_done_callback(self._background.discard)

    def _show_lines(self, lines: list[str]) -> None:
        def draw(console: Any) -> None:
            for line in lines:
                console.print(line, style="cyan", markup=False, highlight=False,
                              overflow="fold")

        self._print_later(draw)

    def _show_warnings(self, lines: list[str]) -> None:
        from cc.ui.render import render_notice

        for line in lines:
            self._print_later(lambda c, line=line: render_notice(c, line, style="yellow"))

    def _agents_changed(self, change: str, entry: AgentTask | None) -> None:
        """The session's agents changed (see `AgentTasks.watchers`): the team's lines
        follow (they redraw when they change); an end or a letter may start a turn."""
        if self.exiting:
            return
        self.team.changed(change, entry)
        if change == "ended" and entry is not None and entry.announce and entry.name is None:
            from cc.ui.render import render_notice

            text = f'Background agent "{entry.description}" {entry.status}'
            self._print_later(lambda c: render_notice(c, text))
        if change in ("ended", "news"):
            self._news_held = False
            self._wakeup.set()
            self.invalidate()

    # --- the session --------------------------------------------------------------

    async def work(self, notes: list[str]) -> None:
        """The worker: once the background work is started and the session's opening
        notes shown, one input (or news) at a time until the REPL exits."""
        self._warm_up()
        await self._notes([f"Warning: {note}" for note in notes])
        await self._worker()

    async def close(self) -> None:
        """The session's end, once the prompt is gone."""
        try:
            if self.status_line is not None:
                await self.status_line.close()
            await self._look_back()
            await self.runtime.end("prompt_input_exit", look_back=True)
            await self._new_warnings()
            if self.services.on_exit is not None:
                await maybe_await(self.services.on_exit())
        finally:  # (also when Ctrl-C cuts the last look for memories short)
            await self.runtime.close()

    async def _look_back(self) -> None:
        """Say so when the session's end waits for a last look for memories."""
        extractor = self.runtime.extractor
        if extractor is not None and (extractor.waiting or not extractor.settled):
            from cc.ui.render import render_notice

            await self.printer.print(lambda c: render_notice(
                c, "Looking for anything worth remembering before exit…", style="dim"))

    def _warm_up(self) -> None:
        """With the prompt up and the session open: import the SDK and rich in the
        background, and connect the MCP servers."""
        from cc.core.client import prefetch_sdk

        prefetch_sdk(warm=True)
        self.mcp.start()
        if self.status_line is not None:
            self.status_line.refresh()
        threading.Thread(target=_warm_imports, name="warm-rich", daemon=True).start()

    def invalidate(self) -> None:
        self.screen.invalidate()

    def flash(self, text: str) -> None:
        self.screen.flash(text)

    def _dialogs_changed(self) -> None:
        """The spinner waits while a dialog waits for the user, and goes on after."""
        if self.dialogs.current is not None:
            self.live.pause()
        else:
            self.live.resume()
            self._wakeup.set()  # news held back by the dialog may go now
        self.invalidate()

    # --- what the key bindings call ------------------------------------------------

    def submit(self, text: str) -> None:
        self.live.queued.append(text)
        self._wakeup.set()
        self.invalidate()

    def interrupt(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self.screen.take_back_queued()

    def refuse(self) -> None:
        """Esc on a permission dialog: No, and the turn stops there, back at the prompt so
        the user can say what to do instead. The turn's task is cancelled (as Esc does
        during a turn), which takes its dialogs away; no further request is sent."""
        if self._task is None or self._task.done():
            self.dialogs.cancel()  # nothing running to stop: just No
            return
        self.interrupt()

    def request_exit(self) -> None:
        self.screen.request_exit()

    def cycle_mode(self) -> None:
        cycle = list(MODE_CYCLE)
        # (offered only when started in it, or with --allow-dangerously-skip-permissions)
        if self._initial_mode == "bypassPermissions" or self._offer_bypass:
            cycle.append("bypassPermissions")
        index = cycle.index(self.mode) if self.mode in cycle else -1
        self.set_mode(cycle[(index + 1) % len(cycle)])

    def set_mode(self, mode: str) -> None:
        try:
            (self.services.set_mode or self._set_mode)(mode)
        except ValueError as exc:  # e.g. bypassPermissions disabled by settings
            self.flash(str(exc))
            return
        self.invalidate()

    @property
    def mode(self) -> str:
        """The permission mode, as its owner (the permission checker) has it."""
        return self.engine.permission_mode

    def _set_mode(self, mode: str) -> None:
        gate = self.gate if self.gate is not None else self.engine.executor.permissions
        if hasattr(gate, "mode"):
            gate.mode = mode

    # --- the worker ----------------------------------------------------------------

    async def _start_session(self) -> None:
        """Before the first input is taken (the prompt is up already): the question about
        the project's new MCP servers, then the SessionStart hooks."""
        if self._status_problem is not None:
            await self._notes([self._status_problem])
        await self._notes(await self.mcp.ask())
        await self._notes(await self.runtime.start())

    async def _notes(self, notes: list[str]) -> None:
        from cc.ui.render import render_notice

        for note in notes:
            await self.printer.print(lambda c, note=note: render_notice(c, note, style="yellow"))

    async def _new_warnings(self) -> None:
        """Problems the engine reported (e.g. saving the transcript), each shown once."""
        warnings = getattr(self.engine, "warnings", [])
        fresh, self._warned = warnings[self._warned :], len(warnings)
        await self._notes(list(fresh))

    async def _worker(self) -> None:
        await self._guarded(self._start_session())
        while not self.exiting:
            text = await self._next_input()
            self.busy = True
            self.invalidate()
            try:
                if text is None:
                    await self._guarded(self._turn(None))
                else:
                    self._news_held = False
                    await self._run_input(text)
                await self._new_warnings()
            finally:
                self.busy, self._view = False, None
                self.team.changed()
                if self.status_line is not None:
                    self.status_line.refresh()  # the turn or command may have changed it
                self.invalidate()

    async def _next_input(self) -> str | None:
        """What typed input comes next (it goes first); None when nothing is typed and
        news waits for the model: a turn runs for it with no prompt."""
        while True:
            if self.live.queued:
                return self.live.queued.pop(0)
            if self._news_ready():
                return None
            self._wakeup.clear()
            await self._wakeup.wait()

    def _news_ready(self) -> bool:
        if self._news_held or self.dialogs.current is not None:
            return False
        return self.runtime.credentials.present and self.engine.has_news()

    async def _run_input(self, text: str) -> None:
        await self._guarded(self._process(text))

    async def _guarded(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` as the interruptible task; report what went wrong, never die of it."""
        task = asyncio.create_task(work)
        self._task = task
        try:
            await asyncio.wait({task})
        except asyncio.CancelledError:
            task.cancel()
            await asyncio.wait({task})
            raise
        finally:
            self._task = None
        if task.cancelled():
            if not self.exiting:
                await self._interrupted()
        elif task.exception() is not None:
            await self._error(task.exception())

    async def _interrupted(self) -> None:
        self._news_held = True
        if self._view is not None:
            await self._view.interrupted()
        else:
            from cc.ui.render import render_error

            await self.printer.print(lambda c: render_error(c, "Interrupted by user"))

    async def _error(self, exc: BaseException | None) -> None:
        from cc.ui.render import render_error

        if self._view is not None:
            await self._view.flush()  # what streamed before the failure stays on screen
        message = f"Internal error: {type(exc).__name__}: {exc}"
        await self.printer.print(lambda c: render_error(c, message), gap=True)

    async def _process(self, text: str) -> None:
        from cc.commands.registry import resolve_input
        from cc.ui.render import render_user_prompt

        await self.printer.print(lambda c: render_user_prompt(c, text), gap=True)
        stripped = text.strip()
        if stripped.startswith("!"):
            await self._shell(stripped[1:].strip())
            return
        ctx = self._command_context()
        result = await resolve_input(text, ctx)
        if result.clear_screen:  # a fresh screen for a fresh conversation, header on top
            await self.printer.clear()
            await self.printer.write(self.screen.header(self.engine.model, self.printer.width()))
        await self._flush(ctx)
        if result.prefill is not None:
            self.screen.prefill(result.prefill)
        if result.exit:
            self.request_exit()
        elif result.submit is not None:
            await self._turn(result.submit, model=result.model, tools=result.allowed_tools)

    async def _shell(self, command: str) -> None:
        if not command:
            return
        from cc.input.inline_bash import run_shell, shell_messages
        from cc.ui.render import render_shell

        result = await run_shell(command, self.cwd)
        await self.printer.print(
            lambda c: render_shell(c, command, result.stdout, result.stderr, result.exit_code)
        )
        self.engine.append(*shell_messages(result))  # saved now, not with the next turn

    def _command_context(self) -> CommandContext:
        ctx = CommandContext(self.engine, self.runtime, self.printer.console(), self.commands,
                             self.services, self.started)

        async def choose(title: str, options: Any) -> int | None:
            await self._flush(ctx)
            return await self.dialogs.choose(title, options)

        async def edit_file(path: Path) -> int:
            from prompt_toolkit.application import in_terminal

            from cc.commands.sessions import open_in_editor

            await self._flush(ctx)
            async with in_terminal():
                return await open_in_editor(path)

        def replay(messages: Any) -> None:
            from cc.ui.repl.replay import render_conversation

            render_conversation(ctx.console, messages, self.cwd)

        ctx.choose, ctx.edit_file, ctx.replay = choose, edit_file, replay
        ctx.set_editing_mode = self.screen.set_editing_mode
        return ctx

    async def _flush(self, ctx: CommandContext) -> None:
        text = ctx.console.file.getvalue()  # type: ignore[attr-defined]
        ctx.console.file.truncate(0)  # type: ignore[attr-defined]
        ctx.console.file.seek(0)  # type: ignore[attr-defined]
        await self.printer.write(text)

    async def _turn(
        self, message: UserMessage | None, *, model: str | None = None,
        tools: tuple[str, ...] = ()
    ) -> None:
        """A turn for `message`, or (None) for the news that waits for the model."""
        from cc.ui.repl.turn_view import TurnView

        view = self._view = TurnView(self.printer, self.live, self.cwd,
                                     self.runtime.memory_dir)
        if not self.runtime.credentials.present:
            # Nothing is sent, so nothing is saved: a later -c does not find this prompt.
            from cc.core.client import NOT_LOGGED_IN
            from cc.core.events import Terminal

            await view.handle(Terminal("api_error", error=NOT_LOGGED_IN))
            return
        self.live.begin()
        ticker = asyncio.create_task(self._tick())
        try:
            turn = self.runtime.submit(message, model=model, tools=tools)
            async with contextlib.aclosing(turn) as events:
                async for event in events:
                    await view.handle(event)
        finally:
            ticker.cancel()
            self.live.end()

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(TICK_S)
            if self.live.paused_at is None:
                self.invalidate()
