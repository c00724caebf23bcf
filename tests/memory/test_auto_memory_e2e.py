"""Memory end to end: the scripted model saves, the next session sees the index."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from cc.session.paths import project_dir
from tests.conftest import Project
from tests.fakeapi import FakeAPI, Reply, system_text, tool_use

MEMORY = """---
name: prefers-tabs
description: The user indents with tabs, never spaces
type: feedback
---
Indent with tabs in every file of this project (said on 2026-12-01).
"""
INDEX_LINE = "- [prefers-tabs](prefers-tabs.md) — The user indents with tabs, never spaces"


def memory_folder(project: Project) -> Path:
    return project_dir(project.root, project.config) / "memory"


def remembering(api: FakeAPI, folder: Path, *, body: str = MEMORY) -> None:
    api.script(
        Reply([tool_use("Write", {"file_path": str(folder / "prefers-tabs.md"), "content": body}),
               tool_use("Write", {"file_path": str(folder / "MEMORY.md"),
                                  "content": INDEX_LINE + "\n"})]),
        Reply("I will remember that."),
    )


def test_remember_writes_a_memory_and_the_index_without_asking(project: Project) -> None:
    folder = memory_folder(project)
    remembering(project.api, folder)
    run = project.run("-p", "remember that I prefer tabs", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    assert run.json()["permission_denials"] == []
    saved = folder / "prefers-tabs.md"
    assert saved.read_text() == MEMORY and (folder / "MEMORY.md").read_text() == INDEX_LINE + "\n"
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    assert not list(folder.glob(".*.tmp"))
    first = project.api.bodies[0]
    assert str(folder) in system_text(first)  # the prompt names the folder

    # The next session's requests carry the index, never the memory's body.
    project.api.script(Reply("Tabs it is."))
    again = project.run("-p", "how should I indent?")
    assert again.returncode == 0, again.stderr
    system = system_text(project.api.bodies[-1])
    assert INDEX_LINE in system
    assert "said on 2026-12-01" not in json.dumps(project.api.bodies[-1])
    project.api.assert_clean()


def test_a_write_elsewhere_still_asks(project: Project) -> None:
    outside = project.root / "notes.md"
    project.api.script(Reply([tool_use("Write", {"file_path": str(outside), "content": "x"})]),
                       Reply("Could not write it."))
    run = project.run("-p", "write a note", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    assert not outside.exists()
    assert [d["tool_name"] for d in run.json()["permission_denials"]] == ["Write"]


def test_a_memory_with_a_secret_is_refused(project: Project) -> None:
    folder = memory_folder(project)
    key = "sk-ant-api03-" + "A" * 40
    remembering(project.api, folder, body=MEMORY + f"The API key is {key}\n")
    run = project.run("-p", "remember my key")
    assert run.returncode == 0, run.stderr
    assert not (folder / "prefers-tabs.md").exists()
    result = project.api.bodies[1]["messages"][-1]["content"][0]
    assert result["is_error"] is True and "Anthropic API key" in result["content"]
    assert key not in "".join(p.read_text() for p in folder.glob("*") if p.is_file())


def test_a_long_index_is_cut_at_200_lines_with_a_note(project: Project) -> None:
    folder = memory_folder(project)
    folder.mkdir(parents=True)
    lines = [f"- [m{i}](m{i}.md) — memory number {i}" for i in range(1, 251)]
    (folder / "MEMORY.md").write_text("\n".join(lines) + "\n")
    project.api.script(Reply("ok"))
    assert project.run("-p", "hi").returncode == 0
    system = system_text(project.api.bodies[0])
    assert "memory number 200\n" in system and "memory number 201\n" not in system
    assert "MEMORY.md has 250 lines" in system and "50 were left out, from line 201" in system


def test_two_projects_never_see_each_others_memories(project: Project) -> None:
    folder = memory_folder(project)
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text(INDEX_LINE + "\n")
    other = project.root.parent / "other-project"
    other.mkdir()
    project.api.script(Reply("ok"))
    other_project = Project(other, project.config, project.home, project.api)
    assert other_project.run("-p", "hi").returncode == 0
    assert "indents with tabs, never spaces" not in json.dumps(project.api.bodies[-1])


def test_memory_can_be_turned_off(project: Project) -> None:
    project.env["CLAUDE_CODE_DISABLE_AUTO_MEMORY"] = "1"
    project.api.script(Reply("ok"))
    assert project.run("-p", "hi").returncode == 0
    assert "# Memory" not in system_text(project.api.bodies[0])
    assert not memory_folder(project).exists()


def test_a_subagent_reads_the_index_and_may_not_write_memory_unasked(project: Project) -> None:
    folder = memory_folder(project)
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text(INDEX_LINE + "\n")
    api = project.api
    api.script(Reply([tool_use("Agent", {"description": "Remember", "prompt": "MEM-TASK: save"})]),
               Reply("done"))
    sub = api.route("MEM-TASK",
                    Reply([tool_use("Write", {"file_path": str(folder / "x.md"),
                                              "content": MEMORY})]),
                    Reply("I could not."))
    assert project.run("-p", "go").returncode == 0
    assert not (folder / "x.md").exists()
    system = system_text(sub.requests[0].body)
    assert INDEX_LINE in system and "not yours to change" in system
    api.assert_clean()
