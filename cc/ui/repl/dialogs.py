"""Questions for the person at the keyboard: permission requests and pickers.

`Dialogs` is the REPL's `UserChannel`: the permission checker awaits it; it queues the
request, the live area shows it, and keys answer it (arrows + Enter, or 1-9).
Choosing "No" lets the user type what to do instead, returned as `AskAnswer.feedback`.
Esc on a permission stops the whole turn (the REPL cancels it, see `Repl.refuse`);
`cancel()` is the plain "No" used when no turn runs. Pickers (/resume, /memory) use the
same queue. Requests are shown one at a time, oldest first (an Edit/Write once its diff
is ready); a cancelled waiter leaves the queue at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cc.permissions.ask import AskAnswer, PermissionRequest


@dataclass
class Pending:
    title: str
    options: list[str]
    future: asyncio.Future[Any]
    request: PermissionRequest | None = None
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
        self.queue: list[Pending] = []

    @property
    def current(self) -> Pending | None:
        return self.queue[0] if self.queue else None

    #: Someone is at the terminal to answer.
    present = True

    async def ask_permission(self, request: PermissionRequest) -> AskAnswer:
        """Show `request` and wait for the answer."""
        from cc.ui.render import permission_choices

        choices = permission_choices(request)
        labels, kinds = [label for _, label in choices], [kind for kind, _ in choices]
        pending = Pending("permission", labels, _future(), request, kinds)
        return await self._wait(pending, preview=True)  # type: ignore[no-any-return]

    async def choose(self, title: str, options: Sequence[str]) -> int | None:
        """A picker: the chosen index, or None if cancelled."""
        return await self._wait(Pending(title, list(options), _future()))  # type: ignore[no-any-return]

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
        """Choose option `index` (default: the selected one). True if it needs feedback typed."""
        p = self.current
        if p is None or p.typing_feedback:
            return False
        index = p.selected if index is None else index
        if not 0 <= index < len(p.options):
            return False
        p.selected = index
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

    def give_feedback(self, text: str) -> None:
        p = self.current
        if p is not None and p.typing_feedback:
            self._resolve(p, AskAnswer("deny", feedback=text.strip() or None))

    def cancel(self) -> None:
        """Esc: No (without feedback) for a permission, nothing chosen for a picker."""
        p = self.current
        if p is not None:
            self._resolve(p, AskAnswer("deny") if p.request is not None else None)

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
