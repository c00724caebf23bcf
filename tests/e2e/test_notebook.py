"""Notebooks end to end: a scripted model loads NotebookEdit with ToolSearch, Reads a
notebook (its image output reaches the API as an image block) and edits a cell; the
notebook on disk is valid and changed."""

from __future__ import annotations

import json
from typing import Any

from nbformat import v4

from tests.conftest import Project
from tests.fakeapi import Reply, text, tool_use
from tests.tools.notebooks import PNG_B64, code, load, markdown, write_notebook


def results(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in body["messages"][-1]["content"] if b.get("type") == "tool_result"]


def test_tool_search_read_and_edit_a_notebook(project: Project) -> None:
    project.env["ENABLE_TOOL_SEARCH"] = "true"  # the fake stands for Anthropic's API
    plot = v4.new_output("display_data", data={"image/png": PNG_B64, "text/plain": "<Figure>"})
    nb = write_notebook(project.root / "analysis.ipynb", [
        code("plot()", "c1", [plot], count=1),
        markdown("# Results", "c2"),
    ])
    project.api.script(
        Reply([tool_use("ToolSearch", {"query": "select:NotebookEdit", "max_results": 5})]),
        Reply([tool_use("Read", {"file_path": str(nb)})]),
        Reply([tool_use("NotebookEdit", {"notebook_path": str(nb), "cell_id": "c1",
                                         "new_source": "plot(bins=20)"})]),
        Reply([tool_use("NotebookEdit", {"notebook_path": str(nb), "cell_id": "c2",
                                         "new_source": "Twenty bins.", "cell_type": "markdown",
                                         "edit_mode": "insert"})]),
        Reply([text("Done.")]),
    )
    run = project.run("-p", "use 20 bins", "--permission-mode", "acceptEdits",
                      "--output-format", "stream-json", "--verbose")
    assert run.returncode == 0, run.stderr + run.stdout

    bodies = project.api.bodies
    assert len(bodies) == 5
    first_tools = {t["name"]: t for t in bodies[0]["tools"]}
    assert "NotebookEdit" not in first_tools
    assert "NotebookEdit" in json.dumps(bodies[0]["messages"])  # announced by name
    loaded = next(t for t in bodies[1]["tools"] if t["name"] == "NotebookEdit")
    assert loaded["defer_loading"] is True
    assert loaded["input_schema"]["required"] == ["notebook_path", "new_source"]

    [read] = results(bodies[2])
    assert not read.get("is_error")
    kinds = [b["type"] for b in read["content"]]
    assert kinds == ["text", "image", "text"]
    assert read["content"][0]["text"] == '<cell id="c1">plot()\n<output type="image/png">'
    assert read["content"][1]["source"]["data"] == PNG_B64

    [replaced] = results(bodies[3])
    assert not replaced.get("is_error")
    assert "Updated cell c1 with plot(bins=20)" in json.dumps(replaced["content"])
    [inserted] = results(bodies[4])
    assert "Inserted cell " in json.dumps(inserted["content"])

    cells = load(nb)["cells"]
    assert [(c["cell_type"], c["source"]) for c in cells] == [
        ("code", "plot(bins=20)"), ("markdown", "# Results"), ("markdown", "Twenty bins.")]
    assert cells[0]["outputs"] == []

    edits = [r["tool_use_result"] for r in run.records()
             if r.get("type") == "user" and isinstance(r.get("tool_use_result"), dict)
             and "edit_mode" in r["tool_use_result"]]
    assert [(e["edit_mode"], e["error"]) for e in edits] == [("replace", ""), ("insert", "")]
    assert edits[0]["old_source"] == "plot()" and edits[1]["cell_id"] == cells[2]["id"]
    project.api.assert_clean()


def test_without_permission_the_notebook_is_left_alone(project: Project) -> None:
    nb = write_notebook(project.root / "a.ipynb", [code("x = 1", "c1")])
    before = nb.read_bytes()
    project.api.script(
        Reply([tool_use("Read", {"file_path": str(nb)})]),
        Reply([tool_use("NotebookEdit", {"notebook_path": str(nb), "cell_id": "c1",
                                         "new_source": "x = 2"})]),
        Reply([text("Could not.")]),
    )
    run = project.run("-p", "change x", "--output-format", "json")
    assert run.returncode == 0, run.stderr + run.stdout
    [refused] = results(project.api.bodies[2])
    assert refused["is_error"] and "edit the notebook" in json.dumps(refused["content"])
    assert nb.read_bytes() == before
    assert [d["tool_name"] for d in run.json()["permission_denials"]] == ["NotebookEdit"]
    project.api.assert_clean()
