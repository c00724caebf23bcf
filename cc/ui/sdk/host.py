"""The SDK host: cc driven by a program over stdin/stdout (`--input-format stream-json`),
as the official Agent SDK drives Claude Code. The Session's third front end, beside the
REPL and print mode.

    stdin     one JSON message per line: user messages (each a turn; those arriving
              during a turn wait for the next), control requests (`initialize`,
              `interrupt`, `set_permission_mode`, `set_model`, `mcp_status`…), and
              the answers to ours (`can_use_tool` under `--permission-prompt-tool stdio`)
    stdout    the stream-json records of each turn, a `result` after each; control
              responses and our control requests
    EOF       the turn under way ends, its result is written, the session closes

A line that cannot be read is reported on stderr and skipped; an unknown control
request gets an error response. Records are those of print mode (`cc.ui.print_mode`).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import secrets
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any

from cc.permissions.updates import allow_suggestion, rule_text
from cc.ui.sdk.wire import (
    BadLine,
    ControlCancel,
    ControlRequest,
    ControlResponse,
    UserInput,
    control_request,
    control_response,
    read_line,
)

if TYPE_CHECKING:
    from cc.app.session import Session
    from cc.hooks.lifecycle import HookNote
    from cc.permissions.ask import AskAnswer, PermissionRequest
    from cc.tools.questions import Answers, PlanChoice, Question

#: The longest stdin line read (an image in a message is base64 inside it).
LINE_LIMIT = 256 * 1024 * 1024
_EOF = object()


@dataclass
class Outbox:
    """Where lines go (stdout); one line per record, flushed at once."""

    out: IO[str]

    def send(self, record: dict[str, Any]) -> None:
        self.out.write(json.dumps(record, ensure_ascii=False) + "\n")
        self.out.flush()


@dataclass
class Host:
    session: Session
    outbox: Outbox
    #: `--permission-prompt-tool stdio`: permission asks go to the program.
    asks_program: bool = False
    replay: bool = False
    partial: bool = False
    #: The session has started (its SessionStart hooks ran before the first turn).
    started: bool = False
    inbox: asyncio.Queue[object] = field(default_factory=asyncio.Queue)
    _pending: dict[str, asyncio.Future[ControlResponse]] = field(default_factory=dict)
    _turn: asyncio.Task[bool] | None = None
    _answering: set[asyncio.Task[None]] = field(default_factory=set)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    # -- talking to the program -----------------------------------------------------------

    async def request(self, body: dict[str, Any]) -> ControlResponse:
        """A control request of ours; its answer."""
        request_id = f"req_{next(self._ids)}_{secrets.token_hex(4)}"
        future: asyncio.Future[ControlResponse] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        self.outbox.send(control_request(request_id, body))
        try:
            return await future
        finally:
            self._pending.pop(request_id, None)

    async def read(self, reader: asyncio.StreamReader) -> None:
        """Read stdin until EOF: answers and control requests at once, user messages
        into the inbox."""
        while True:
            try:
                line = await reader.readline()
            except ValueError:  # longer than LINE_LIMIT
                self.report("a stdin line is longer than the limit; skipped")
                continue
            if not line:
                break
            message = read_line(line.decode("utf-8", errors="replace"))
            if message is None:
                continue
            if isinstance(message, BadLine):
                self.report(f"stdin line not understood: {message.why}")
            elif isinstance(message, ControlResponse):
                future = self._pending.get(message.request_id)
                if future is not None and not future.done():
                    future.set_result(message)
            elif isinstance(message, ControlRequest):
                # Answered in its own task: a slow one (a reconnect) must not hold up
                # the lines behind it, such as the answer a turn waits for.
                task = asyncio.ensure_future(self.answer(message))
                self._answering.add(task)
                task.add_done_callback(self._answering.discard)
            elif isinstance(message, ControlCancel):
                future = self._pending.get(message.request_id)
                if future is not None and not future.done():
                    future.cancel()
            elif isinstance(message, UserInput):
                await self.inbox.put(message)
        for future in self._pending.values():  # nobody will answer now
            if not future.done():
                future.set_result(ControlResponse("", False, {}, "stdin closed"))
        await self.inbox.put(_EOF)

    def report(self, problem: str) -> None:
        """A problem of the program's input: on stderr, and as an error record (a
        `system/informational` line of level error) for the program to read."""
        from cc.models.messages import new_uuid

        _warn(problem)
        self.outbox.send({"type": "system", "subtype": "informational", "level": "error",
                          "content": problem, "uuid": new_uuid(),
                          "session_id": self.session.engine.session_id})

    async def answer(self, request: ControlRequest) -> None:
        from cc.ui.sdk.control import handle

        try:
            response = await handle(self, request)
        except ControlError as exc:
            self.outbox.send(control_response(request.request_id, error=str(exc),
                                              code=exc.code))
            return
        self.outbox.send(control_response(request.request_id, response))

    async def mcp_message(self, server: str, message: dict[str, Any]
                          ) -> dict[str, Any] | None:
        """A message for an in-process MCP server of the program; its answer."""
        answer = await self.request({"subtype": "mcp_message", "server_name": server,
                                     "message": message})
        if not answer.ok:
            raise RuntimeError(answer.error or "the program did not answer")
        response = answer.body.get("mcp_response")
        return response if isinstance(response, dict) else None

    def interrupt(self) -> None:
        """End the turn under way, as Esc does."""
        if self._turn is not None and not self._turn.done():
            self._turn.cancel()

    # -- the turns ------------------------------------------------------------------------

    async def run_turns(self) -> int:
        from cc.ui.sdk.turns import run_turn

        failed = False
        while True:
            item = await self.inbox.get()
            if item is _EOF:
                return 1 if failed else 0
            assert isinstance(item, UserInput)
            if self.replay:
                self.outbox.send(_replayed(item, self.session.engine.session_id))
            turn = self._turn = asyncio.ensure_future(run_turn(self, item))
            try:
                failed = not await turn  # an interrupted turn ends itself, with its result
            finally:
                self._turn = None


class ControlError(Exception):
    """A control request that cannot be done; its message goes back as the error."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


def _replayed(item: UserInput, session_id: str) -> dict[str, Any]:
    from cc.models.messages import new_uuid

    return {"type": "user", "message": {"role": "user", "content": item.content},
            "parent_tool_use_id": None, "session_id": session_id,
            "uuid": item.uuid or new_uuid(), "isReplay": True}


def _warn(text: str) -> None:
    print(f"cc: {text}", file=sys.stderr, flush=True)


class ProgramChannel:
    """Who answers the core's questions in an SDK session: the program, through
    `can_use_tool` control requests (AskUserQuestion and ExitPlanMode go the same way,
    as Claude Code sends them)."""

    present = True

    def __init__(self, host: Host) -> None:
        self.host = host

    async def ask_permission(self, request: PermissionRequest) -> AskAnswer:
        from cc.permissions.ask import AskAnswer

        answer = await self.host.request({
            "subtype": "can_use_tool",
            "tool_name": request.tool_name,
            "input": request.tool_input,
            "permission_suggestions": [allow_suggestion(rule) for rule in request.suggestions],
            "blocked_path": None,
            "decision_reason": request.reason,
            "description": request.description,
            "tool_use_id": request.tool_use_id,
        })
        if answer.ok and answer.body.get("behavior") == "allow":
            self._apply(answer.body.get("updatedPermissions"))
            updated = answer.body.get("updatedInput")
            return AskAnswer("allow", updated_input=updated if isinstance(updated, dict)
                             else None)
        message = answer.body.get("message") if answer.ok else answer.error
        if answer.body.get("interrupt"):  # the program ends the turn too
            asyncio.get_running_loop().call_soon(self.host.interrupt)
        return AskAnswer("deny", feedback=str(message) if message else None)

    def _apply(self, updates: Any) -> None:
        """The permission updates a program's answer carries: rules added (kept in the
        settings file they name, or for the session) and mode changes."""
        checker = self.host.session.permissions
        if not isinstance(updates, list) or checker is None:
            return
        for update in updates:
            if not isinstance(update, dict):
                continue
            kind = update.get("type")
            persist = update.get("destination") in ("localSettings", "projectSettings",
                                                    "userSettings")
            if kind == "addRules" and update.get("behavior") in ("allow", "deny", "ask"):
                rules = [rule_text(r) for r in update.get("rules") or [] if isinstance(r, dict)]
                for warning in checker.add_rules(update["behavior"], rules, persist=persist):
                    _warn(warning)
            elif kind == "setMode" and isinstance(update.get("mode"), str):
                try:
                    checker.mode = update["mode"]
                except ValueError as exc:
                    _warn(str(exc))

    async def choose(self, title: str, options: Sequence[str]) -> int | None:
        return None

    async def ask_questions(self, questions: Sequence[Question]) -> Answers:
        """AskUserQuestion, as Claude Code asks a program: a `can_use_tool` for the
        tool, whose allowing answer carries `updatedInput.answers`."""
        tool_input = {"questions": [
            {"question": q.question, "header": q.header, "multiSelect": q.multi_select,
             "options": [{"label": label, "description": description}
                         for label, description in q.options]} for q in questions]}
        answer = await self._ask_for("AskUserQuestion", tool_input)
        if answer is None:
            return None
        answers = answer.get("answers")
        if not isinstance(answers, dict):
            return None
        return {str(k): str(v) for k, v in answers.items()}

    async def approve_plan(self, plan: str, path: str) -> PlanChoice:
        """ExitPlanMode, as Claude Code asks a program: allowed means approved."""
        answer = await self._ask_for("ExitPlanMode", {"plan": plan})
        return "default" if answer is not None else "keep_planning"

    async def _ask_for(self, tool: str, tool_input: dict[str, Any]) -> dict[str, Any] | None:
        """A `can_use_tool` for a tool that asks the user; the (updated) input when the
        program allows it, None when it does not."""
        answer = await self.host.request({
            "subtype": "can_use_tool", "tool_name": tool, "input": tool_input,
            "permission_suggestions": [], "blocked_path": None})
        if not (answer.ok and answer.body.get("behavior") == "allow"):
            return None
        updated = answer.body.get("updatedInput")
        return updated if isinstance(updated, dict) else tool_input


async def run_sdk(session: Session, *, asks_program: bool, replay: bool,
                  partial: bool) -> int:
    """Serve the program on stdin/stdout until stdin ends; the exit status."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=LINE_LIMIT)
    stdin = os.fdopen(os.dup(sys.stdin.fileno()), "rb", buffering=0)
    transport, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), stdin)
    host = Host(session, Outbox(sys.stdout), asks_program=asks_program, replay=replay,
                partial=partial)
    if asks_program:
        session.engine.use_channel(ProgramChannel(host))
    session.hook_watchers.append(_hook_records(session, host.outbox))
    if session.mcp is not None and session.mcp.setup.sdk is not None:
        session.mcp.setup.sdk.bind(host.mcp_message)
    reading = asyncio.ensure_future(host.read(reader))
    try:
        status = await host.run_turns()
    finally:
        from cc.cancelling import cancel_and_wait

        await cancel_and_wait([reading, *host._answering])
        transport.close()
        session.hook_watchers.clear()  # the last result is the last record
        try:
            await session.end("other")
        finally:
            await session.close()
    return status


def _hook_records(session: Session, outbox: Outbox) -> Callable[[HookNote], None]:
    """Hooks' records, as print mode writes them: SessionStart's and Setup's always,
    every event's with `--include-hook-events`."""
    from cc.ui.records import hook_record

    every = session.options.include_hook_events

    def sent(note: HookNote) -> None:
        if every or note.hook_event in ("SessionStart", "Setup"):
            outbox.send(hook_record(note, session.engine.session_id))

    return sent
