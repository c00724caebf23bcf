"""The task list on disk: ids, links, file shapes, the lock, and the list id."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from cc.tasks.store import Task, TaskStore, UnknownTask, list_id_for
from tests.conftest import REPO_ROOT
from tests.waiting import wait_for


def store_at(tmp_path: Path, list_id: str = "sess-1") -> TaskStore:
    return TaskStore(tmp_path / "tasks", lambda: list_id)


def on_disk(folder: Path) -> dict[str, Any]:
    """Every file of the list folder: task files parsed, the others as text."""
    out: dict[str, Any] = {}
    for path in sorted(folder.iterdir()):
        text = path.read_text()
        out[path.name] = json.loads(text) if path.suffix == ".json" else text
    return out


def status_to(status: str) -> Callable[[Task], None]:
    def change(task: Task) -> None:
        task.status = status
    return change


def test_nothing_is_made_until_the_first_write(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    assert store.list() == [] and store.get("1") is None
    assert not (tmp_path / "tasks").exists()
    store.create("First", "the first task")
    assert sorted(p.name for p in store.folder.iterdir()) == [".lock", "1.json"]
    assert (store.folder / ".lock").read_bytes() == b""


def test_file_shapes(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    store.create("Fix bug", "in parse()", metadata={"prio": "high"})
    store.create("Write tests", "for parse()", active_form="Writing tests")
    store.update("1", lambda t: setattr(t, "owner", "me"))
    assert on_disk(store.folder) == {
        ".lock": "",
        "1.json": {"id": "1", "subject": "Fix bug", "description": "in parse()",
                   "status": "pending", "blocks": [], "blockedBy": [],
                   "metadata": {"prio": "high"}, "owner": "me"},
        "2.json": {"id": "2", "subject": "Write tests", "description": "for parse()",
                   "activeForm": "Writing tests", "status": "pending", "blocks": [],
                   "blockedBy": []},
    }
    # The reference's key order, for a task with metadata and nothing else optional.
    assert list(json.loads((store.folder / "1.json").read_text())) == [
        "id", "subject", "description", "status", "blocks", "blockedBy", "metadata", "owner"]


def test_ids_are_sequential_and_never_reused_after_a_delete(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    assert [store.create(f"t{i}", "").id for i in range(3)] == ["1", "2", "3"]
    assert store.delete("2") is not None
    assert (store.folder / ".highwatermark").read_text() == "2"  # as Claude Code leaves it
    assert store.create("t4", "").id == "4"
    assert store.delete("4") is not None and store.delete("3") is not None
    assert (store.folder / ".highwatermark").read_text() == "4"
    assert [t.id for t in store.list()] == ["1"]
    assert store.create("t5", "").id == "5"  # 3 and 4 are gone, but were given
    assert store.delete("9") is None


def test_blocks_and_blocked_by_are_kept_on_both_sides(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    for name in "ABCD":
        store.create(name, "")
    changed = store.update("1", lambda t: None, add_blocks=["2", "#3"])
    assert changed is not None and changed[0].blocks == [] and changed[1].blocks == ["2", "3"]
    store.update("4", lambda t: None, add_blocked_by=["1"])
    store.update("1", lambda t: None, add_blocks=["2"])  # already there: no duplicate
    by_id = {t.id: t for t in store.list()}
    assert by_id["1"].blocks == ["2", "3", "4"] and by_id["1"].blocked_by == []
    assert [by_id[i].blocked_by for i in "234"] == [["1"], ["1"], ["1"]]

    store.delete("1")
    for path in store.folder.glob("*.json"):
        data = json.loads(path.read_text())
        assert data["blocks"] == [] and data["blockedBy"] == [], path.name


def test_a_link_to_a_missing_task_changes_nothing(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    store.create("A", "")
    store.create("B", "")
    before = on_disk(store.folder)
    for links in (["2", "7"], ["1"], ["x"]):
        with pytest.raises(UnknownTask):
            store.update("1", status_to("in_progress"), add_blocks=links)
    assert on_disk(store.folder) == before
    assert store.update("5", status_to("completed")) is None


def test_list_skips_what_is_not_a_task(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    store.create("A", "")
    (store.folder / "2.json").write_text("{not json")
    (store.folder / "notes.json").write_text("{}")
    (store.folder / ".tmp-x3.json").write_text("{}")
    assert [t.subject for t in store.list()] == ["A"]
    assert store.create("B", "").id == "3"  # a file there holds its id, readable or not
    for bad in ("../1", "0", "-1", "1.5", ""):
        assert store.get(bad) is None


def test_the_list_follows_the_session_id(tmp_path: Path) -> None:
    session = ["one"]
    store = TaskStore(tmp_path / "tasks", lambda: session[0])
    store.create("In one", "")
    session[0] = "two"  # /clear
    assert store.list() == []
    assert store.create("In two", "").id == "1"
    assert sorted(p.name for p in (tmp_path / "tasks").iterdir()) == ["one", "two"]


def test_list_id_env_overrides_the_session_and_stays_inside_the_folder() -> None:
    assert list_id_for("sess") == list_id_for("sess", {}) == "sess"
    assert list_id_for("sess", {"CLAUDE_CODE_TASK_LIST_ID": "team-a"}) == "team-a"
    assert list_id_for("sess", {"CLAUDE_CODE_TASK_LIST_ID": "  "}) == "sess"
    assert list_id_for("sess", {"CLAUDE_CODE_TASK_LIST_ID": "../../etc"}) == "..-..-etc"
    assert list_id_for("sess", {"CLAUDE_CODE_TASK_LIST_ID": ".."}) == "sess"


def test_a_team_s_list_is_named_after_it_unless_the_env_chooses() -> None:
    assert list_id_for("sess", {}, team="docs") == "docs"
    assert list_id_for("sess", {}, team=None) == "sess"
    assert list_id_for("sess", {"CLAUDE_CODE_TASK_LIST_ID": "mine"}, team="docs") == "mine"


# --- releasing a member's work -----------------------------------------------------------


def claim(owner: str | None, status: str) -> Callable[[Task], None]:
    def change(task: Task) -> None:
        task.owner, task.status = owner, status
    return change


def test_release_hands_back_only_the_owner_s_unfinished_tasks(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    for name in "ABCDEFG":
        store.create(name, f"do {name}", active_form=f"Doing {name}")
    store.delete("7")  # a high-water mark to keep
    store.update("1", claim("alpha", "in_progress"), add_blocks=["5"])
    store.update("2", claim("alpha", "completed"))
    store.update("3", claim("beta", "in_progress"))
    store.update("4", claim("alpha", "pending"))
    store.update("6", claim("a1b2c3", "in_progress"))  # owned by alpha's agent id
    before = on_disk(store.folder)

    released = store.release("alpha", "a1b2c3")
    assert [(t.id, t.status, t.owner) for t in released] == [
        ("1", "pending", None), ("4", "pending", None), ("6", "pending", None)]
    after = on_disk(store.folder)
    for name in ("1.json", "4.json", "6.json"):
        expected = {k: v for k, v in before[name].items() if k != "owner"}
        assert after[name] == expected | {"status": "pending"}  # links and the rest kept
    unchanged = {k: v for k, v in before.items() if k not in ("1.json", "4.json", "6.json")}
    assert {k: after[k] for k in unchanged} == unchanged  # the mark, the lock, the others
    assert after[".highwatermark"] == "7" and store.create("H", "").id == "8"
    assert store.release("alpha") == [] and store.release() == []


def test_release_of_a_list_not_made_yet_makes_nothing(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    assert store.release("alpha") == []
    assert not (tmp_path / "tasks").exists()


# --- several writers at once -----------------------------------------------------------


def assert_whole(folder: Path, count: int) -> None:
    """`count` tasks, ids 1..count, each file valid JSON naming its own id."""
    files = sorted(folder.glob("*.json"), key=lambda p: int(p.stem))
    assert [p.stem for p in files] == [str(i) for i in range(1, count + 1)]
    for path in files:
        assert json.loads(path.read_text())["id"] == path.stem
    assert not list(folder.glob(".tmp-*"))


def test_threads_creating_at_once_get_unique_ids(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    workers, each = 8, 10
    barrier = threading.Barrier(workers)

    def work(n: int) -> list[str]:
        barrier.wait()
        return [store.create(f"w{n}-{i}", "").id for i in range(each)]

    with ThreadPoolExecutor(workers) as pool:
        ids = [i for got in pool.map(work, range(workers)) for i in got]
    assert sorted(ids, key=int) == [str(i) for i in range(1, workers * each + 1)]
    assert_whole(store.folder, workers * each)


WRITER = """
import sys, time
from pathlib import Path
from cc.tasks.store import TaskStore
root, name, count, go = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
store = TaskStore(root, lambda: "shared")
(go.parent / f"ready-{name}").touch()
while not go.exists():  # start together
    time.sleep(0.005)
ids = [store.create(f"{name}-{i}", "").id for i in range(count)]
store.update(ids[0], lambda t: setattr(t, "owner", name), add_blocks=[ids[-1]])
print(" ".join(ids))
"""


def test_processes_creating_at_once_get_unique_ids(tmp_path: Path) -> None:
    root, go = tmp_path / "tasks", tmp_path / "go"
    workers, each = 4, 15
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(root), f"p{n}", str(each),
                               str(go)], cwd=REPO_ROOT, stdout=subprocess.PIPE, text=True)
             for n in range(workers)]
    try:
        wait_for(lambda: len(list(tmp_path.glob("ready-*"))) == workers, what="writers ready")
        go.touch()
        outputs = [p.communicate(timeout=60)[0] for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    assert [p.returncode for p in procs] == [0] * workers
    ids = [i for out in outputs for i in out.split()]
    assert sorted(ids, key=int) == [str(i) for i in range(1, workers * each + 1)]
    folder = root / "shared"
    assert_whole(folder, workers * each)
    tasks = {t.id: t for t in TaskStore(root, lambda: "shared").list()}
    for out in outputs:  # each writer's link landed on both sides
        first, *_, last = out.split()
        assert last in tasks[first].blocks and tasks[last].blocked_by == [first]
        assert tasks[first].owner is not None


def test_a_release_racing_other_writers_loses_no_change(tmp_path: Path) -> None:
    """Members writing their own tasks while a crashed one's are released: each
    read-modify-write holds the lock, so no change overwrites another."""
    store = store_at(tmp_path)
    count = 100
    for i in range(count):
        store.create(f"t{i}", "")
        store.update(str(i + 1), claim("alpha" if i % 2 == 0 else "beta", "in_progress"))
    barrier = threading.Barrier(3)
    released: list[str] = []

    def note(task_id: str) -> Callable[[Task], None]:
        def change(task: Task) -> None:
            task.metadata = {"seen": task_id}
        return change

    def touch_every_task() -> None:  # a member annotating every task, one by one
        barrier.wait()
        for i in range(1, count + 1):
            store.update(str(i), note(str(i)))

    def beta_finishes() -> None:
        barrier.wait()
        for i in range(2, count + 1, 2):
            store.update(str(i), status_to("completed"))

    def crash() -> None:
        barrier.wait()
        released.extend(t.id for t in store.release("alpha"))

    with ThreadPoolExecutor(3) as pool:
        for future in [pool.submit(f) for f in (touch_every_task, beta_finishes, crash)]:
            future.result()
    assert sorted(released, key=int) == [str(i) for i in range(1, count + 1, 2)]
    assert_whole(store.folder, count)
    for task in store.list():
        assert task.metadata == {"seen": task.id}, task
        if int(task.id) % 2:
            assert (task.status, task.owner) == ("pending", None), task
        else:
            assert (task.status, task.owner) == ("completed", "beta"), task
