"""TaskStore: a task list on disk, safe for several processes at once.

    <config>/tasks/<list id>/
        .lock             empty; every read-modify-write holds an flock on it
        .highwatermark    the highest id ever removed (absent until the first delete)
        1.json, 2.json …  one task each (`Task.to_json()`)

The next id is one more than the larger of the highest file and the high-water mark,
so an id is never given twice, even after its task is deleted (the mark keeps the ids
of removed tasks, which no file holds any more). Each file is written whole: to a temp
file in the folder, fsynced, then renamed over the old one, so a reader sees the old
task or the new one, never a mix. A change that touches several files (a delete that
unlinks its id from the others, a block set on both sides) writes them one by one
under the lock: a crash in between can leave a link on one side only, or one to a task
already removed (`TaskStore.list` leaves out links to tasks that do not exist).

Nothing is created until the first write: reading a list that does not exist yet is
an empty list. The folder is found when it is needed, through `list_id()`, so the
list can follow the session id (which /clear changes) or the team the session leads.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cc.atomic import fsync_dir, write_atomic
from cc.locking import file_lock

__all__ = ["LIST_ID_ENV", "Task", "TaskStore", "UnknownTask", "canonical_id", "chosen_list_id",
           "list_id_for"]

#: Set (in the environment or the settings' `env`), every session uses this list.
LIST_ID_ENV = "CLAUDE_CODE_TASK_LIST_ID"
_LOCK = ".lock"
_HIGH_WATER = ".highwatermark"
_TASK_FILE = re.compile(r"^([1-9][0-9]*)\.json$")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


class UnknownTask(LookupError):
    """A change names a task the list does not have."""

    def __init__(self, task_id: str) -> None:
        super().__init__(task_id)
        self.task_id = task_id


def list_id_for(session_id: str, env: Mapping[str, str] | None = None, *,
                team: str | None = None) -> str:
    """The list a session works on: `CLAUDE_CODE_TASK_LIST_ID` if set, else the team's
    while the session leads one (its name: leader and members share it), else the
    session's own."""
    return chosen_list_id(env) or team or session_id


def chosen_list_id(env: Mapping[str, str] | None = None) -> str | None:
    """`CLAUDE_CODE_TASK_LIST_ID`, if set; characters that could leave the tasks folder
    are replaced by `-`."""
    env = os.environ if env is None else env
    chosen = _UNSAFE.sub("-", env.get(LIST_ID_ENV, "").strip())
    return None if chosen in ("", ".", "..") else chosen


@dataclass
class Task:
    id: str
    subject: str
    description: str
    status: str = "pending"
    blocks: list[str] = field(default_factory=list)
    blocked_by: list[str] = field(default_factory=list)
    metadata: dict[str, Any] | None = None
    owner: str | None = None
    active_form: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The file's shape; `activeForm`, `metadata` and `owner` only when set."""
        out: dict[str, Any] = {"id": self.id, "subject": self.subject,
                               "description": self.description}
        if self.active_form is not None:
            out["activeForm"] = self.active_form
        out |= {"status": self.status, "blocks": self.blocks, "blockedBy": self.blocked_by}
        if self.metadata is not None:
            out["metadata"] = self.metadata
        if self.owner is not None:
            out["owner"] = self.owner
        return out

    @classmethod
    def from_json(cls, data: Any) -> Task | None:
        """A task read from a file; None if it is not one."""
        if not isinstance(data, dict) or not isinstance(data.get("id"), str):
            return None
        meta = data.get("metadata")
        return cls(
            id=data["id"],
            subject=_str(data.get("subject")),
            description=_str(data.get("description")),
            status=_str(data.get("status")) or "pending",
            blocks=_ids(data.get("blocks")),
            blocked_by=_ids(data.get("blockedBy")),
            metadata=meta if isinstance(meta, dict) else None,
            owner=data["owner"] if isinstance(data.get("owner"), str) else None,
            active_form=data["activeForm"] if isinstance(data.get("activeForm"), str) else None,
        )


class TaskStore:
    """One task list, under `root/<list_id()>/`. Blocking calls: run them off the loop."""

    def __init__(self, root: Path, list_id: Callable[[], str]) -> None:
        self.root = root
        self._list_id = list_id

    @property
    def folder(self) -> Path:
        return self.root / self._list_id()

    # -- reading ---------------------------------------------------------------------

    def get(self, task_id: str) -> Task | None:
        folder = self.folder
        with self._locked(folder, write=False):
            return _read(folder, task_id)

    def list(self) -> list[Task]:
        """Every task, by id; links to tasks that no longer exist are left out."""
        folder = self.folder
        with self._locked(folder, write=False):
            tasks = _read_all(folder)
        ids = {t.id for t in tasks}
        for task in tasks:
            task.blocks = [i for i in task.blocks if i in ids]
            task.blocked_by = [i for i in task.blocked_by if i in ids]
        return tasks

    # -- writing ---------------------------------------------------------------------

    def create(self, subject: str, description: str, *, active_form: str | None = None,
               metadata: dict[str, Any] | None = None) -> Task:
        folder = self.folder
        with self._locked(folder, write=True):
            task = Task(_next_id(folder), subject, description, metadata=metadata,
                        active_form=active_form)
            _write(folder, task)
        return task

    def update(self, task_id: str, change: Callable[[Task], None], *,
               add_blocks: Sequence[str] = (),
               add_blocked_by: Sequence[str] = ()) -> tuple[Task, Task] | None:
        """Apply `change` to the task and link it to others, keeping both sides in step
        (A blocks B exactly when B is blocked by A): (before, after), or None if there
        is no such task. A link to a task that does not exist, or to the task itself,
        raises `UnknownTask` and changes nothing."""
        folder = self.folder
        with self._locked(folder, write=True):
            task = _read(folder, task_id)
            if task is None:
                return None
            before = copy.deepcopy(task)
            others: dict[str, Task] = {}
            for given in (*add_blocks, *add_blocked_by):
                other_id = canonical_id(given) or ""
                other = others.get(other_id) or _read(folder, other_id)
                if other is None or other.id == task.id:
                    raise UnknownTask(given)
                others[other.id] = other
            change(task)
            for other_id in map(canonical_id, add_blocks):
                assert other_id is not None
                _add(task.blocks, other_id)
                _add(others[other_id].blocked_by, task.id)
            for other_id in map(canonical_id, add_blocked_by):
                assert other_id is not None
                _add(task.blocked_by, other_id)
                _add(others[other_id].blocks, task.id)
            for other in others.values():
                _write(folder, other)
            _write(folder, task)
        return before, task

    def delete(self, task_id: str) -> Task | None:
        """Remove the task and every link to it; the removed task, or None."""
        folder = self.folder
        with self._locked(folder, write=True):
            task = _read(folder, task_id)
            if task is None:
                return None
            mark = max(_high_water(folder), int(task.id))
            _write_text(folder / _HIGH_WATER, str(mark))
            (folder / f"{task.id}.json").unlink()
            for other in _read_all(folder):
                if task.id in other.blocks or task.id in other.blocked_by:
                    other.blocks = [i for i in other.blocks if i != task.id]
                    other.blocked_by = [i for i in other.blocked_by if i != task.id]
                    _write(folder, other)
            fsync_dir(folder)
        return task

    def release(self, *owners: str) -> list[Task]:
        """Hand back the work of a member that will not finish it: each task owned by one
        of `owners` (a name or an agent id) and not completed goes back to `pending` with
        no owner, for someone else to claim. Nothing else changes. The tasks released,
        as they are now, by id."""
        folder = self.folder
        wanted = {o for o in owners if o}
        if not wanted or not folder.is_dir():
            return []  # no list yet: nothing to release, and nothing to create
        released: list[Task] = []
        with self._locked(folder, write=True):
            for task in _read_all(folder):
                if task.owner in wanted and task.status != "completed":
                    task.status, task.owner = "pending", None
                    _write(folder, task)
                    released.append(task)
        return released

    # -- the lock --------------------------------------------------------------------

    @contextlib.contextmanager
    def _locked(self, folder: Path, *, write: bool) -> Iterator[None]:
        """An exclusive flock on `.lock` to write (making the folder first), a shared
        one to read. Reading a list whose folder or lock file is missing takes none:
        there is nothing to read yet."""
        if write:
            folder.mkdir(parents=True, exist_ok=True)
        with contextlib.ExitStack() as held:
            try:
                held.enter_context(file_lock(folder / _LOCK, shared=not write, create=write,
                                             mode=0o644))
            except FileNotFoundError:
                if write:
                    raise
            yield


# -- files ----------------------------------------------------------------------------


def canonical_id(task_id: str) -> str | None:
    """`task_id` as the list spells it ("3" for "3" or "#3"); None if it is not an id."""
    text = task_id.strip().removeprefix("#")
    return text if _TASK_FILE.match(f"{text}.json") else None


def _path(folder: Path, task_id: str) -> Path | None:
    found = canonical_id(task_id)
    return None if found is None else folder / f"{found}.json"


def _read(folder: Path, task_id: str) -> Task | None:
    path = _path(folder, task_id)
    if path is None:
        return None
    try:
        return Task.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return None


def _read_all(folder: Path) -> list[Task]:
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return []
    ids = sorted(int(m[1]) for n in names if (m := _TASK_FILE.match(n)))
    return [t for i in ids if (t := _read(folder, str(i))) is not None]


def _next_id(folder: Path) -> str:
    existing = (int(m[1]) for n in os.listdir(folder) if (m := _TASK_FILE.match(n)))
    return str(max(_high_water(folder), max(existing, default=0)) + 1)


def _high_water(folder: Path) -> int:
    try:
        text = (folder / _HIGH_WATER).read_text(encoding="ascii").strip()
    except (OSError, ValueError):
        return 0
    return int(text) if text.isdigit() else 0


def _write(folder: Path, task: Task) -> None:
    _write_text(folder / f"{task.id}.json", json.dumps(task.to_json(), ensure_ascii=False))


def _write_text(path: Path, text: str) -> None:
    write_atomic(path, text)


def _add(ids: list[str], task_id: str) -> None:
    if task_id not in ids:
        ids.append(task_id)


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _ids(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
