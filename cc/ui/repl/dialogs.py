"""Questions for the person at the keyboard: permission requests, pickers, a tool's
questions (AskUserQuestion) and a plan to approve (ExitPlanMode).

`Dialogs` is the REPL's `UserChannel`: the permission checker awaits it; it queues the
request, the live area shows it, and keys answer it (arrows + Enter, or 1-9).
Choosing "No" lets the user type what to do instead, returned as `AskAnswer.feedback`.
Esc on a permission stops the whole turn (the REPL cancels it, see `Repl.refuse`);
`cancel()` is the plain "No" used when no turn runs. Pickers (/resume, /memory) use the
same queue, and so do AskUserQuestion's questions (one at a time; the last option lets
the user type an answer; a multiSelect question ticks options with Space or a number
and takes them with Enter), ExitPlanMode's plan, and the question about a project's
new MCP servers (one: three choices; several: ticked with Space or a number, taken
with Enter; Esc refuses them all). Requests are shown one at a time,
oldest first (an Edit/Write once its diff is ready); a cancelled waiter leaves the queue
at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cc.mcp.approval import ServerAnswer
from cc.permissions.ask import Answers, AskAnswer, PermissionRequest, PlanChoice, Question

#: The last option of every question: an answer of the user's own, typed.
OTHER = "Type something else"
PLAN_CHOICES = (("acceptEdits", "Yes, and accept edits"),
                ("default", "Yes, and ask before each edit"),
                ("keep_planning", "No, keep planning"))
#: The choices about one new MCP server (the last, refusing it, is selected first).
SERVER_CHOICES = (("yes", "Use this server"),
                  ("all", "Use this server and any other this project adds later"),
                  ("no", "Don't use this server"))


@dataclass
class Pending:
    title: str
    options: list[str]
    future: asyncio.Future[Any]
    request: PermissionRequest | None = None
    #: "choice" (a picker), "permission", "question" (AskUserQuestion), "plan" or
    #: "servers" (a project's new MCP servers).
    kind: str = "choice"
    question: Question | None = None
    #: A multiSelect question's ticked options.
    checked: set[int] = field(default_factory=set)
    #: The plan to approve, and its file.
    plan: str | None = None
    plan_path: str | None = None
    #: The MCP servers asked about: (name, what starting it does).
    servers: list[tuple[str, str]] = field(default_factory=list)
    #: For a permission: what each option means ("yes", "always", "accept_edits", "no").
    kinds: list[str] = field(default_factory=list)
    hunks: list[dict[str, Any]] | None = None
    selected: int = 0
    #: True once "No" was chosen and the reason is being typed.
    typing_feedback: bool = False
    saved_input: Any = field(default=None, repr=False)


class Dialogs:
    def __init__(self, cwd: Path, on_change: Callable[[], None] | None = None) -> None:
        self.cwd = cwd
        self.on_change = on_change or (lambda: None)
        #: Called when "allow all edits during this session" is chosen (switch to acceptEdits).
        self.on_accept_edits: Callable[[], None] = lambda: None
        #: Told of each permission dialog as it opens (Notification hooks hear of it).
        self.on_permission_prompt: Callable[[PermissionRequest], None] = lambda _request: None
        self.queue: list[Pending] = []

    @property
    def current(self) -> Pending | None:
        return self.queue[0] if self.queue else None

    #: Someone is at the terminal to answer.
    present = True

    async def ask_permission(self, request: PermissionRequest) -> AskAnswer:
        """Show `request` and wait for the answer."""
        from cc.ui.render import permission_choices

        self.on_permission_prompt(request)
        choices = permission_choices(request)
        labels, kinds = [label for _, label in choices], [kind for kind, _ in choices]
        pending = Pending("permission", labels, _future(), request, kind="permission",
                          kinds=kinds)
        return await self._wait(pending, preview=True)  # type: ignore[no-any-return]

    async def choose(self, title: str, options: Sequence[str]) -> int | None:
        """A picker: the chosen index, or None if cancelled."""
        return await self._wait(Pending(title, list(options), _future()))  # type: ignore[no-any-return]

    async def ask_questions(self, questions: Sequence[Question]) -> Answers:
        """AskUserQuestion: each question in turn; None if the user backs out of one."""
        answers: dict[str, str] = {}
        for q in questions:
            labels = [label for label, _ in q.options] + [OTHER]
            answer = await self._wait(Pending(q.header or "Question", labels, _future(),
                                              kind="question", question=q))
            if answer is None:
                return None
            answers[q.question] = answer
        return answers

    async def approve_plan(self, plan: str, path: str) -> PlanChoice:
        """ExitPlanMode: the plan, and three choices (Esc: keep planning)."""
        pending = Pending("plan", [label for _, label in PLAN_CHOICES], _future(),
                          kinds=[kind for kind, _ in PLAN_CHOICES], kind="plan", plan=plan,
                          plan_path=path)
        return await self._wait(pending)  # type: ignore[no-any-return]

    async def approve_servers(self, servers: Sequence[tuple[str, str]], origin: str
                              ) -> ServerAnswer:
        """A project's new MCP servers, (name, what starting it does): which to use."""
        if len(servers) == 1:
            pending = Pending(origin, [label for _, label in SERVER_CHOICES], _future(),
                              kind="servers", kinds=[kind for kind, _ in SERVER_CHOICES],
                              servers=list(servers), selected=len(SERVER_CHOICES) - 1)
        else:
            pending = Pending(origin, [name for name, _ in servers], _future(),
                              kind="servers", servers=list(servers),
                              checked=set(range(len(servers))))
        return await self._wait(pending)  # type: ignore[no-any-return]

    async def _wait(self, pending: Pending, preview: bool = False) -> Any:
        request = pending.request
        if preview and request is not None and request.tool_name in ("Edit", "Write"):
            # The change is worked out before the dialog is shown, never drawn after it.
            pending.hunks = await asyncio.to_thread(preview_hunks, request, self.cwd)
        self.queue.append(pending)
        self.on_change()
        try:
            return await pending.future
        finally:
            if pending in self.queue:
                self.queue.remove(pending)
            self.on_change()

    # --- keys -----------------------------------------------------------------------

    def move(self, delta: int) -> None:
        p = self.current
        if p is not None and not p.typing_feedback:
            p.selected = (p.selected + delta) % len(p.options)
            self.on_change()

    def pick(self, index: int | None = None) -> bool:
        """Choose option `index` (a number key; default: the selected one, Enter). True if
        text is to be typed next (a reason for "No", a question's own answer)."""
        p = self.current
        if p is None or p.typing_feedback:
            return False
        by_number = index is not None
        index = p.selected if index is None else index
        if not 0 <= index < len(p.options):
            return False
        p.selected = index
        if p.kind == "question":
            return self._answer(p, index, toggle=by_number)
        if p.kind == "plan":
            self._resolve(p, p.kinds[index])
            return False
        if p.kind == "servers":
            self._servers(p, index, toggle=by_number)
            return False
        if p.request is None:
            self._resolve(p, index)
            return False
        kind = p.kinds[index]
        if kind == "no":  # ask what to do instead
            p.typing_feedback = True
            self.on_change()
            return True
        if kind == "accept_edits":
            self.on_accept_edits()
        self._resolve(p, AskAnswer("allow", always=kind == "always"))
        return False

    def toggle(self) -> None:
        """Space on a multiSelect question (or on servers to tick): tick or untick the
        selected option."""
        p = self.current
        if p is not None and p.kind == "question" and not p.typing_feedback:
            self._answer(p, p.selected, toggle=True)
        elif p is not None and p.kind == "servers" and not p.kinds:
            self._servers(p, p.selected, toggle=True)

    def _servers(self, p: Pending, index: int, *, toggle: bool) -> None:
        names = [name for name, _ in p.servers]
        if p.kinds:  # one server, three choices
            kind = p.kinds[index]
            answer = ServerAnswer(refused=tuple(names)) if kind == "no" else ServerAnswer(
                approved=tuple(names), all_later=kind == "all")
            self._resolve(p, answer)
        elif toggle:
            p.checked ^= {index}
            self.on_change()
        else:  # Enter: the ticked ones are used, the others refused
            self._resolve(p, ServerAnswer(
                approved=tuple(n for i, n in enumerate(names) if i in p.checked),
                refused=tuple(n for i, n in enumerate(names) if i not in p.checked)))

    def _answer(self, p: Pending, index: int, *, toggle: bool) -> bool:
        assert p.question is not None
        if index == len(p.options) - 1:  # their own answer, typed
            p.typing_feedback = True
            self.on_change()
            return True
        if not p.question.multi_select:
            self._resolve(p, p.options[index])
        elif toggle:
            p.checked ^= {index}
            self.on_change()
        else:  # Enter: the ticked options (or, with none ticked, the selected one)
            chosen = sorted(p.checked) or [index]
            self._resolve(p, ", ".join(p.options[i] for i in chosen))
        return False

    def give_feedback(self, text: str) -> None:
        p = self.current
        if p is None or not p.typing_feedback:
            return
        if p.kind != "question":
            self._resolve(p, AskAnswer("deny", feedback=text.strip() or None))
        elif text.strip():
            self._resolve(p, text.strip())
        else:  # nothing typed: back to the options
            p.typing_feedback = False
            self.on_change()

    def cancel(self) -> None:
        """Esc: No (without feedback) for a permission, nothing chosen for a picker, no
        server used."""
        p = self.current
        if p is None:
            return
        if p.kind == "servers":
            self._resolve(p, ServerAnswer.refuse_all([name for name, _ in p.servers]))
        else:
            self._resolve(p, AskAnswer("deny") if p.request is not None
                          else "keep_planning" if p.kind == "plan" else None)

    def cancel_all(self) -> None:
        while self.current is not None:
            self.cancel()

    def _resolve(self, p: Pending, value: Any) -> None:
        if p in self.queue:
            self.queue.remove(p)
        if not p.future.done():
            p.future.set_result(value)
        self.on_change()


def _future() -> asyncio.Future[Any]:
    return asyncio.get_running_loop().create_future()


def make_ask_user(cwd: Path) -> Dialogs:
    """The REPL's UserChannel; pass the same object to `run_repl(..., dialogs=)`."""
    return Dialogs(cwd)


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace").replace("\r\n", "\n")
    except OSError:
        return None


def preview_hunks(request: PermissionRequest, cwd: Path) -> list[dict[str, Any]] | None:
    """The change an Edit or Write would make, from its input and the file on disk."""
    from cc.tools.diff import structured_patch

    inp = request.tool_input
    path_text = inp.get("file_path")
    if request.tool_name not in ("Edit", "Write") or not isinstance(path_text, str):
        return None
    path = Path(path_text).expanduser()
    old = _read(path if path.is_absolute() else cwd / path) or ""
    if request.tool_name == "Write":
        new = str(inp.get("content", ""))
        return structured_patch(old, new) if old else None
    old_string, new_string = str(inp.get("old_string", "")), str(inp.get("new_string", ""))
    if not old_string:
        new = new_string
    elif old_string in old:
        new = old.replace(old_string, new_string, -1 if inp.get("replace_all") else 1)
    else:  # not applicable as given: show the strings themselves
        return structured_patch(old_string, new_string)
    return structured_patch(old, new)
