"""MCP servers end to end in print mode, against real servers: the `mcp-server-time`
package and the FastMCP server of `tests/mcp_server.py`, over stdio and HTTP."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Project
from tests.fakeapi import Dynamic, Reply, text, tool_use
from tests.processes import alive
from tests.waiting import wait_for

SERVER = str(Path(__file__).resolve().parent.parent / "servers" / "mcp_server.py")


def demo(*extra: str, name: str = "demo") -> dict[str, Any]:
    return {"command": sys.executable, "args": [SERVER, "--name", name, *extra]}


def config(project: Project, servers: dict[str, Any]) -> str:
    path = project.root.parent / "mcp-config.json"
    path.write_text(json.dumps({"mcpServers": servers}))
    return str(path)


def results(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in body["messages"][-1]["content"] if b.get("type") == "tool_result"]


def tool_names(body: dict[str, Any]) -> list[str]:
    return [t["name"] for t in body["tools"]]


def test_the_time_server_answers_under_a_server_rule(project: Project) -> None:
    servers = {"time": {"command": sys.executable,
                        "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]}}
    project.api.script(
        Reply([tool_use("mcp__time__get_current_time", {"timezone": "Europe/Paris"})]),
        Reply([text("it is late")]),
    )
    run = project.run("-p", "what time is it?", "--mcp-config", config(project, servers),
                      "--allowedTools", "mcp__time", "--output-format", "stream-json",
                      "--verbose")
    assert run.returncode == 0, run.stderr
    init = run.records()[0]
    assert init["mcp_servers"] == [{"name": "time", "status": "connected", "source": "dynamic"}]
    assert "mcp__time__get_current_time" in init["tools"]
    first, second = project.api.bodies
    definition = next(t for t in first["tools"] if t["name"] == "mcp__time__get_current_time")
    assert "timezone" in definition["input_schema"]["properties"]
    [result] = results(second)
    assert not result.get("is_error")
    answer = json.loads(result["content"][0]["text"] if isinstance(result["content"], list)
                        else result["content"])
    assert answer["timezone"] == "Europe/Paris" and "datetime" in answer
    project.api.assert_clean()


def test_without_a_rule_the_call_is_denied_and_recorded(project: Project) -> None:
    project.api.script(
        Reply([tool_use("mcp__demo__shout", {"text": "hi"})]),
        Reply([text("denied")]),
    )
    run = project.run("-p", "shout", "--mcp-config", config(project, {"demo": demo()}),
                      "--output-format", "json")
    assert run.returncode == 0, run.stderr
    [result] = results(project.api.bodies[1])
    assert result["is_error"] is True and "HI" not in json.dumps(result)
    denials = run.json()["permission_denials"]
    assert [d["tool_name"] for d in denials] == ["mcp__demo__shout"]
    project.api.assert_clean()


def test_results_map_as_claude_code_maps_them(project: Project) -> None:
    # long enough for the quick tools on a busy machine; the slow one sleeps far longer
    project.env.update(MCP_TOOL_TIMEOUT="8000", MAX_MCP_OUTPUT_TOKENS="200")
    project.api.script(
        Reply([tool_use("mcp__demo__add", {"a": 2, "b": 3}, id="t_add"),
               tool_use("mcp__demo__picture", {}, id="t_pic"),
               tool_use("mcp__demo__fail", {}, id="t_fail"),
               tool_use("mcp__demo__slow", {"seconds": 60}, id="t_slow"),
               tool_use("mcp__demo__flood", {"lines": 500}, id="t_flood"),
               tool_use("mcp__demo__shout", {"text": "hello"}, id="t_shout")]),
        Reply([text("done")]),
    )
    run = project.run("-p", "use them", "--mcp-config", config(project, {"demo": demo()}),
                      "--allowedTools", "mcp__demo__*")
    assert run.returncode == 0, run.stderr
    by_id = {r["tool_use_id"]: r for r in results(project.api.bodies[1])}

    def body(result: dict[str, Any]) -> str:
        content = result["content"]
        return content if isinstance(content, str) else "".join(
            b.get("text", "") for b in content)

    assert body(by_id["t_add"]) == '{"sum":5}'
    image, source = by_id["t_pic"]["content"]
    assert image["type"] == "image" and image["source"]["media_type"] == "image/png"
    saved = Path(source["text"].removeprefix("[Image: source: ").removesuffix("]"))
    assert saved.suffix == ".png" and saved.read_bytes().startswith(b"\x89PNG")
    assert by_id["t_fail"]["is_error"] is True
    assert by_id["t_slow"]["is_error"] is True and "timed out" in body(by_id["t_slow"])
    flood = body(by_id["t_flood"])
    assert "MAX_MCP_OUTPUT_TOKENS" in flood and len(flood) < 200 * 4 + 400
    assert by_id["t_shout"]["content"] == [{"type": "text", "text": "HELLO"}]
    assert by_id["t_fail"]["content"] == "Error executing tool fail"
    project.api.assert_clean()


def test_a_server_that_crashes_at_start_up_leaves_the_run_working(project: Project) -> None:
    project.api.script(Reply([text("fine")]))
    servers = {"broken": demo("--crash", name="broken"), "demo": demo()}
    run = project.run("-p", "hello", "--mcp-config", config(project, servers),
                      "--output-format", "stream-json", "--verbose")
    assert run.returncode == 0, run.stderr
    statuses = {s["name"]: s["status"] for s in run.records()[0]["mcp_servers"]}
    assert statuses == {"broken": "failed", "demo": "connected"}
    assert 'MCP server "broken"' in run.stderr and "crashed on purpose" in run.stderr
    assert run.records()[-1]["result"] == "fine"
    project.api.assert_clean()


def test_a_killed_server_is_restarted_and_answers_the_next_call(project: Project) -> None:
    pids = project.root.parent / "pids.txt"

    def kill_then_call(body: dict[str, Any]) -> Reply:
        [result] = results(body)
        first = int(result["content"] if isinstance(result["content"], str)
                    else result["content"][0]["text"])
        os.kill(first, signal.SIGKILL)
        wait_for(lambda: len(pids.read_text().split()) >= 2, what="the server's restart")
        return Reply([tool_use("mcp__demo__pid", {})])

    project.api.script(
        Reply([tool_use("mcp__demo__pid", {})]),
        Dynamic(kill_then_call),
        Reply([text("back")]),
    )
    run = project.run("-p", "go", "--mcp-config",
                      config(project, {"demo": demo("--pid-file", str(pids))}),
                      "--allowedTools", "mcp__demo")
    assert run.returncode == 0, run.stderr
    first, second = (int(p) for p in pids.read_text().split())
    [result] = results(project.api.bodies[2])
    assert not result.get("is_error"), result
    assert str(second) in json.dumps(result)
    for pid in (first, second):
        wait_for(lambda pid=pid: not alive(pid), what=f"server {pid} ending")
    project.api.assert_clean()


@pytest.mark.cache_prefix_exempt("the MCP server adds a tool mid-session (tools/list_changed); "
                                  "with tool search off it joins the tool list in full")
def test_a_new_tool_of_the_server_is_offered_after_it_says_so(project: Project) -> None:
    project.api.script(
        Reply([tool_use("mcp__demo__add_tool", {})]),
        Reply([tool_use("mcp__demo__extra", {})]),
        Reply([text("used it")]),
    )
    run = project.run("-p", "grow", "--mcp-config", config(project, {"demo": demo()}),
                      "--allowedTools", "mcp__demo")
    assert run.returncode == 0, run.stderr
    first, second, third = project.api.bodies
    assert "mcp__demo__extra" not in tool_names(first)
    assert "mcp__demo__extra" in tool_names(second)
    [result] = results(third)
    assert result["content"] == "the extra tool answers" or "the extra tool answers" in json.dumps(
        result)
    project.api.assert_clean()


@pytest.fixture(params=["http", "sse"])
def remote(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    ready = tmp_path / "ready.txt"
    proc = subprocess.Popen([sys.executable, SERVER, f"--{request.param}", str(ready)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: ready.exists() or proc.poll() is not None, what="the server")
        assert proc.poll() is None, "the HTTP server did not start"
        yield request.param, ready.read_text()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_remote_servers_over_http_and_sse(project: Project, remote: tuple[str, str]) -> None:
    kind, url = remote
    project.api.script(
        Reply([tool_use("mcp__web__shout", {"text": "far"}, id="t1"),
               tool_use("mcp__web__header", {"name": "X-Test"}, id="t2"),
               tool_use("mcp__web__header", {"name": "X-Token"}, id="t3")]),
        Reply([text("heard")]),
    )
    helper = "echo '{\"X-Token\": \"tok-'\"$CC_TEST_TOKEN\"'\"}'"
    project.env["CC_TEST_TOKEN"] = "42"
    servers = {"web": {"type": kind, "url": url, "headersHelper": helper,
                       "headers": {"X-Test": "${CC_TEST_HEADER:-fallback}"}}}
    run = project.run("-p", "shout far", "--mcp-config", config(project, servers),
                      "--allowedTools", "mcp__web")
    assert run.returncode == 0, run.stderr
    by_id = {r["tool_use_id"]: json.dumps(r) for r in results(project.api.bodies[1])}
    assert "FAR" in by_id["t1"] and '"is_error": true' not in by_id["t1"]
    assert "fallback" in by_id["t2"] and "tok-42" in by_id["t3"]
    project.api.assert_clean()


def test_bad_configuration_is_reported_and_the_rest_still_connects(project: Project) -> None:
    (project.root / ".mcp.json").write_text('{"mcpServers": {"x": ')
    servers = {"nocmd": {"type": "stdio"}, "odd": {"type": "carrier-pigeon", "url": "x"},
               "unset": {**demo(name="unset"), "env": {"K": "${CC_SURELY_UNSET_VAR}"}},
               "demo": demo()}
    project.api.script(Reply([text("ok")]))
    run = project.run("-p", "hi", "--mcp-config", config(project, servers),
                      "--output-format", "stream-json", "--verbose")
    assert run.returncode == 0, run.stderr
    err = run.stderr
    assert ".mcp.json" in err and "not valid JSON" in err
    assert '"nocmd"' in err and "command" in err
    assert '"odd"' in err and "carrier-pigeon" in err
    assert "CC_SURELY_UNSET_VAR" in err and '"unset"' in err
    statuses = {s["name"]: s["status"] for s in run.records()[0]["mcp_servers"]}
    assert statuses == {"unset": "connected", "demo": "connected"}
    project.api.assert_clean()


def test_project_servers_load_in_print_mode_and_no_process_outlives_the_run(
        project: Project) -> None:
    pids = project.root.parent / "pids.txt"
    (project.root / ".mcp.json").write_text(json.dumps(
        {"mcpServers": {"proj": demo("--pid-file", str(pids), name="proj")}}))
    project.api.script(Reply([text("ok")]))
    run = project.run("-p", "hi", "--output-format", "stream-json", "--verbose")
    assert run.returncode == 0, run.stderr
    assert run.records()[0]["mcp_servers"] == [
        {"name": "proj", "status": "connected", "source": "project"}]
    for pid in map(int, pids.read_text().split()):
        wait_for(lambda pid=pid: not alive(pid), what=f"server {pid} ending")
    # --strict-mcp-config: the project's server is not started
    pids.unlink()
    project.api.script(Reply([text("ok")]))
    run = project.run("-p", "hi", "--strict-mcp-config", "--output-format", "stream-json",
                      "--verbose")
    assert run.records()[0]["mcp_servers"] == [] and not pids.exists()
    project.api.assert_clean()


def test_a_name_clash_is_reported_and_the_other_tools_still_work(project: Project) -> None:
    project.api.script(
        Reply([tool_use("mcp__demo__shout", {"text": "still"})]),
        Reply([text("ok")]),
    )
    run = project.run("-p", "hi", "--mcp-config", config(project, {"demo": demo("--odd-tools")}),
                      "--allowedTools", "mcp__demo")
    assert run.returncode == 0, run.stderr
    names = tool_names(project.api.bodies[0])
    assert names.count("mcp__demo__dot_name") == 1
    assert "mcp__demo__dot_name" in run.stderr  # the clash, named once
    [result] = results(project.api.bodies[1])
    assert "STILL" in json.dumps(result)
    project.api.assert_clean()


def test_a_server_of_the_older_protocol_with_a_bad_tool_keeps_its_good_ones(
        project: Project) -> None:
    legacy = {"command": sys.executable,
              "args": [str(Path(SERVER).parent / "legacy_mcp_server.py")]}
    project.api.script(
        Reply([tool_use("mcp__old__echo", {"text": "aged"})]),
        Reply([text("ok")]),
    )
    run = project.run("-p", "hi", "--mcp-config", config(project, {"old": legacy}),
                      "--allowedTools", "mcp__old")
    assert run.returncode == 0, run.stderr
    names = tool_names(project.api.bodies[0])
    assert {"mcp__old__echo", "mcp__old__ping_tool"} <= set(names)
    assert "mcp__old__broken" not in names
    assert '"broken"' in run.stderr and "not offered" in run.stderr
    [result] = results(project.api.bodies[1])
    assert result["content"] == "AGED" or "AGED" in json.dumps(result)
    project.api.assert_clean()
