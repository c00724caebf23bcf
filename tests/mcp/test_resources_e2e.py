"""MCP resources end to end in print mode, against the FastMCP server of
`tests/servers/mcp_server.py`: the resource tools, and `@server:uri` mentions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import Project
from tests.fakeapi import Reply, text, tool_use
from tests.mcp.test_print_e2e import config, demo, results


def by_id(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["tool_use_id"]: r for r in results(body)}


def test_the_model_lists_then_reads_resources_without_asking(project: Project) -> None:
    project.api.script(
        Reply([tool_use("ListMcpResourcesTool", {}, id="t_list")]),
        Reply([tool_use("ReadMcpResourceTool", {"server": "demo", "uri": "note://readme"},
                        id="t_read"),
               tool_use("ReadMcpResourceTool", {"server": "demo", "uri": "note://topic/cats"},
                        id="t_tpl")]),
        Reply([text("read it")]),
    )
    run = project.run("-p", "what notes are there?", "--mcp-config",
                      config(project, {"demo": demo()}), "--output-format", "stream-json",
                      "--verbose")
    assert run.returncode == 0, run.stderr
    records = run.records()
    assert {"ListMcpResourcesTool", "ReadMcpResourceTool", "ReadMcpResourceDirTool"} <= set(
        records[0]["tools"])
    [listed] = results(project.api.bodies[1])
    assert not listed.get("is_error")
    rows = json.loads(listed["content"])
    assert rows[0] == {"name": "readme", "uri": "note://readme",
                       "description": "The read-me note.", "mimeType": "text/plain",
                       "server": "demo"}
    assert [r["uri"] for r in rows] == ["note://readme", "note://picture", "note://archive"]
    read = by_id(project.api.bodies[2])
    assert json.loads(read["t_read"]["content"]) == {"contents": [
        {"uri": "note://readme", "mimeType": "text/plain", "text": "the note's text"}]}
    assert json.loads(read["t_tpl"]["content"])["contents"][0]["text"] == "a note on cats"
    structured = [r["tool_use_result"] for r in records
                  if r.get("type") == "user" and "tool_use_result" in r]
    assert structured[0] == rows
    assert records[-1]["permission_denials"] == []
    project.api.assert_clean()


def test_binary_resources_are_saved_and_errors_are_told(project: Project) -> None:
    project.api.script(
        Reply([tool_use("ReadMcpResourceTool", {"server": "demo", "uri": "note://picture"},
                        id="t_pic"),
               tool_use("ReadMcpResourceTool", {"server": "demo", "uri": "note://archive"},
                        id="t_bin"),
               tool_use("ReadMcpResourceTool", {"server": "demo", "uri": "note://nope"},
                        id="t_nouri"),
               tool_use("ReadMcpResourceTool", {"server": "nobody", "uri": "note://readme"},
                        id="t_nosrv"),
               tool_use("ListMcpResourcesTool", {"server": "tools"}, id="t_nores"),
               tool_use("ReadMcpResourceDirTool", {"server": "demo", "uri": "note://"},
                        id="t_dir")]),
        Reply([text("done")]),
    )
    servers = {"demo": demo(), "tools": demo("--no-resources", name="tools")}
    run = project.run("-p", "read", "--mcp-config", config(project, servers))
    assert run.returncode == 0, run.stderr
    got = by_id(project.api.bodies[1])
    from tests.servers.mcp_server import PNG

    [picture] = json.loads(got["t_pic"]["content"])["contents"]
    assert picture["mimeType"] == "image/png" and picture["blobSavedTo"].endswith(".png")
    saved = Path(picture["blobSavedTo"])
    assert saved.read_bytes() == PNG and "tool-results" in saved.parts
    assert str(saved) in picture["text"] and "70 bytes" in picture["text"]
    [archive] = json.loads(got["t_bin"]["content"])["contents"]
    assert Path(archive["blobSavedTo"]).read_bytes() == bytes(range(256))
    assert archive["blobSavedTo"].endswith(".bin")
    # an unknown uri is an answer (the model lists again), the rest are errors
    assert not got["t_nouri"].get("is_error")
    assert "note://nope" in got["t_nouri"]["content"]
    assert "Unknown resource" in got["t_nouri"]["content"]
    assert got["t_nosrv"]["is_error"] and '"nobody"' in got["t_nosrv"]["content"]
    assert "demo, tools" in got["t_nosrv"]["content"]
    assert got["t_nores"]["is_error"] and "offers no resources" in got["t_nores"]["content"]
    assert got["t_dir"]["is_error"] and "not available" in got["t_dir"]["content"]
    project.api.assert_clean()


def user_texts(body: dict[str, Any]) -> list[str]:
    return [b["text"] for b in body["messages"][0]["content"] if b.get("type") == "text"]


def test_a_mention_attaches_the_resource_and_a_failed_one_stays_text(project: Project) -> None:
    project.api.script(Reply([text("summarised")]))
    prompt = ("summarise @demo:note://readme, then @demo:note://picture and @demo:note://nope "
              "and @nobody:note://x")
    run = project.run("-p", prompt, "--mcp-config", config(project, {"demo": demo()}))
    assert run.returncode == 0, run.stderr
    [body] = project.api.bodies
    texts = user_texts(body)
    assert prompt in texts
    [note] = [t for t in texts if "note://readme" in t and t.startswith("<system-reminder>")]
    assert "the note's text" in note and "demo" in note
    images = [b for b in body["messages"][0]["content"] if b.get("type") == "image"]
    assert [i["source"]["media_type"] for i in images] == ["image/png"]
    assert "@demo:note://nope was not attached" in run.stderr
    assert "Unknown resource" in run.stderr
    assert '@nobody:note://x was not attached: no MCP server named "nobody"' in run.stderr
    project.api.assert_clean()


def test_with_tool_search_the_resource_tools_wait_to_be_loaded(project: Project) -> None:
    project.env["ENABLE_TOOL_SEARCH"] = "true"  # the fake stands for Anthropic's API
    project.api.script(
        Reply([tool_use("ToolSearch", {"query": "select:ListMcpResourcesTool,ReadMcpResourceTool",
                                       "max_results": 5})]),
        Reply([tool_use("ReadMcpResourceTool", {"server": "demo", "uri": "note://readme"})]),
        Reply([text("read")]),
    )
    run = project.run("-p", "read the note", "--mcp-config", config(project, {"demo": demo()}))
    assert run.returncode == 0, run.stderr
    first, second, third = project.api.bodies
    names = {t["name"] for t in first["tools"]}
    assert not names & {"ListMcpResourcesTool", "ReadMcpResourceTool", "ReadMcpResourceDirTool"}
    announced = json.dumps(first["messages"])
    for name in ("ListMcpResourcesTool", "ReadMcpResourceTool", "ReadMcpResourceDirTool"):
        assert name in announced
    loaded = {t["name"]: t for t in second["tools"] if t.get("defer_loading")}
    assert {"ListMcpResourcesTool", "ReadMcpResourceTool"} <= set(loaded)
    assert loaded["ReadMcpResourceTool"]["input_schema"] == {
        "type": "object", "properties": {"server": {"type": "string"}, "uri": {"type": "string"}},
        "required": ["server", "uri"], "additionalProperties": False}
    assert loaded["ListMcpResourcesTool"]["input_schema"] == {
        "type": "object", "properties": {"server": {"type": "string"}},
        "additionalProperties": False}
    [result] = results(third)
    assert "the note's text" in result["content"] and not result.get("is_error")
    project.api.assert_clean()
