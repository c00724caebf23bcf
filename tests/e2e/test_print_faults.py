"""Print mode under faults and at its edges, as a script sees it: stdout, stderr, exit status."""

from __future__ import annotations

import json
import socket

from tests.conftest import Project
from tests.e2e.test_sessions import transcripts
from tests.fakeapi import CutStream, Fault, Reply, server_tool_use, text, tool_use


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_each_retry_is_one_stderr_line_in_text_mode(project: Project) -> None:
    project.api.script(Fault(529), Fault(429), Reply("made it"))
    run = project.run("-p", "hi")
    assert run.returncode == 0 and run.stdout == "made it\n"
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 2
    assert "529" in lines[0] and "attempt 1/5" in lines[0] and "retrying" in lines[0]
    assert "429" in lines[1] and "attempt 2/5" in lines[1]


def test_an_unreachable_endpoint_is_named_once(project: Project) -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    project.env["ANTHROPIC_BASE_URL"] = url
    run = project.run("-p", "hi")
    assert run.returncode == 1
    assert run.stdout == f"Connection refused: could not reach {url} after 6 attempts\n"
    assert len(run.stderr.strip().splitlines()) == 5  # one line per retry, no traceback


def test_a_cut_stream_never_becomes_the_answer(project: Project) -> None:
    partial = Reply([text("this partial answer must not be the result")])
    project.api.script(*[CutStream(partial, after_events=5, clean_end=True)] * 6)
    run = project.run("-p", "hi", "--output-format", "json")
    result = run.json()
    assert run.returncode == 1 and result["is_error"] is True
    assert "partial answer" not in result["result"] and project.api.base_url in result["result"]
    assert [b.get("stream") for b in project.api.bodies].count(None) == 1  # one fallback


def test_json_verbose_prints_every_record_as_one_array(project: Project) -> None:
    readme = project.root / "README.md"
    readme.write_text("hello\n")
    project.api.script(Reply([text("Reading."), tool_use("Read", {"file_path": str(readme)})]),
                       Reply("It says hello."))
    run = project.run("-p", "hi", "--output-format", "json", "--verbose")
    assert run.returncode == 0, run.stderr
    assert len(run.stdout.splitlines()) == 1
    records = json.loads(run.stdout)
    assert isinstance(records, list)
    assert [(r["type"], r.get("subtype")) for r in records] == [
        ("system", "init"), ("assistant", None), ("assistant", None), ("user", None),
        ("assistant", None), ("result", "success")]
    assert records[-1]["result"] == "It says hello."
    plain = project.run("-p", "hi", "--output-format", "json")  # without --verbose: the object
    assert plain.returncode == 1 and isinstance(plain.json(), dict)  # (no turn scripted left)


def test_max_turns_zero_means_no_limit(project: Project) -> None:
    project.api.script(Reply([tool_use("Bash", {"command": "echo ran"})]), Reply("after the tool"))
    run = project.run("-p", "hi", "--max-turns", "0", "--output-format", "json",
                      "--permission-mode", "bypassPermissions")
    assert run.returncode == 0, run.stderr
    assert run.json()["result"] == "after the tool" and run.json()["num_turns"] == 2


def test_continue_with_nothing_to_continue_starts_afresh(project: Project) -> None:
    project.api.script(Reply("a fresh start"))
    run = project.run("-c", "-p", "hi")
    assert (run.returncode, run.stdout) == (0, "a fresh start\n"), run.stderr
    assert len(project.api.bodies[0]["messages"]) == 1


def test_settings_env_overrides_the_process_environment(project: Project) -> None:
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "settings.json").write_text(
        json.dumps({"env": {"CC_PROBE": "from-settings"}}))
    hook_out = project.root / "hook-saw"
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": f'printf %s "$CC_PROBE" > {hook_out}'}]}]}
    (project.config / "settings.json").write_text(json.dumps({"hooks": hooks}))
    project.env["CC_PROBE"] = "from-process"
    project.api.script(Reply([tool_use("Bash", {"command": "echo $CC_PROBE"})]), Reply("ok"))
    run = project.run("-p", "hi", "--permission-mode", "bypassPermissions")
    assert run.returncode == 0, run.stderr
    result = project.api.bodies[1]["messages"][-1]["content"][0]["content"]
    assert "from-settings" in result
    assert hook_out.read_text() == "from-settings"


def test_a_run_that_never_reached_the_model_leaves_no_transcript(project: Project) -> None:
    project.env["ANTHROPIC_API_KEY"] = ""
    run = project.run("-p", "hi", "--output-format", "json")
    assert run.returncode == 1 and run.json()["is_error"] is True
    assert "Not logged in" in run.json()["result"]
    bad = project.run("-p", "hi", "--max-turns", "lots")
    assert bad.returncode != 0
    assert transcripts(project) == [] and project.api.bodies == []
    # ...so a later -c starts afresh instead of picking up a question never asked.
    project.env.pop("ANTHROPIC_API_KEY")
    project.api.script(Reply("fresh"))
    assert project.run("-c", "-p", "again").stdout == "fresh\n"
    assert len(project.api.bodies[0]["messages"]) == 1


def test_two_refusals_report_the_refusal_in_the_result(project: Project) -> None:
    project.api.script(Reply("No.", stop_reason="refusal"), Reply("No.", stop_reason="refusal"))
    run = project.run("-p", "hi", "--output-format", "json")
    result = run.json()
    assert run.returncode == 1 and result["is_error"] is True
    assert result["stop_reason"] == "refusal" and result["safety_stops"] == 2
    assert "refusal" in result["result"]
    project.api.script(Reply("a new question is fine"))
    again = project.run("-c", "-p", "something else", "--output-format", "json")
    assert again.json()["result"] == "a new question is fine"
    project.api.assert_clean()


def test_server_blocks_in_stream_json_and_a_warning_for_unknown_ones(project: Project) -> None:
    search = server_tool_use("weather", id="srvtoolu_1")
    future = {"type": "future_block", "data": 1}
    project.api.script(Reply([search, future, text("Sunny.")]))
    run = project.run("-p", "hi", "--output-format", "stream-json", "--verbose")
    assert run.returncode == 0, run.stderr
    blocks = [r["message"]["content"][0] for r in run.records() if r["type"] == "assistant"]
    assert blocks == [search, future, {"type": "text", "text": "Sunny."}]
    assert run.stderr.count("future_block") == 1 and "server_tool_use" not in run.stderr
