"""`python -m cc -p` end to end, against the fake Messages API, in a temporary project."""

from __future__ import annotations

import json

from tests.conftest import Project
from tests.fakeapi import CutStream, Fault, Reply, text, thinking, tool_use

README = "# Demo\nThis project computes primes.\n"
BASE_TOOLS = ["TaskOutput", "Bash", "Glob", "Grep", "Read", "Edit", "Write", "NotebookEdit",
              "WebFetch", "TodoWrite", "WebSearch", "TaskStop", "TaskCreate", "TaskGet", "TaskList",
              "TaskUpdate", "Skill", "Agent",
              "SendMessage"]


def _read_then_answer(project: Project) -> str:
    readme = project.root / "README.md"
    readme.write_text(README)
    project.api.script(
        Reply([tool_use("Read", {"file_path": str(readme)})]),
        Reply([text("The README says the project computes primes.")]),
    )
    return str(readme)


def test_json_result_after_reading_a_file(project: Project) -> None:
    _read_then_answer(project)
    run = project.run("-p", "what does README.md say?", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    result = run.json()
    assert result["type"] == "result"
    assert result["subtype"] == "success"
    assert result["is_error"] is False
    assert result["num_turns"] == 2
    assert result["result"] == "The README says the project computes primes."
    for key in ("duration_ms", "duration_api_ms", "session_id", "total_cost_usd", "usage",
                "modelUsage", "permission_denials", "uuid", "stop_reason"):
        assert key in result, key
    assert result["permission_denials"] == []
    assert result["total_cost_usd"] > 0
    project.api.assert_clean()
    bodies = project.api.bodies
    assert len(bodies) == 2
    second = bodies[1]["messages"]
    assert [m["role"] for m in second] == ["user", "assistant", "user"]
    tool_result = second[2]["content"][0]
    assert tool_result["type"] == "tool_result"
    assert tool_result["content"] == "1\t# Demo\n2\tThis project computes primes.\n3\t"
    assert [t["name"] for t in bodies[0]["tools"]] == BASE_TOOLS


def test_text_output_and_stdin_prompt(project: Project) -> None:
    _read_then_answer(project)
    run = project.run("-p", stdin="what does README.md say?")
    assert run.returncode == 0, run.stderr
    assert run.stdout == "The README says the project computes primes.\n"
    first = project.api.bodies[0]["messages"][0]["content"][0]["text"]
    assert first == "what does README.md say?"


def test_stdin_comes_before_the_argument(project: Project) -> None:
    project.api.script(Reply([text("ok")]))
    run = project.run("-p", "explain this", stdin="some piped text\n")
    assert run.returncode == 0, run.stderr
    first = project.api.bodies[0]["messages"][0]["content"][0]["text"]
    assert first == "some piped text\n\nexplain this"


def test_stream_json_record_sequence(project: Project) -> None:
    _read_then_answer(project)
    run = project.run("-p", "what does README.md say?", "--output-format", "stream-json",
                      "--verbose")
    assert run.returncode == 0, run.stderr
    records = run.records()
    kinds = [(r["type"], r.get("subtype")) for r in records]
    assert kinds == [
        ("system", "init"),
        ("assistant", None),
        ("user", None),
        ("assistant", None),
        ("result", "success"),
    ]
    init = records[0]
    for key in ("cwd", "session_id", "tools", "model", "permissionMode"):
        assert key in init
    assert init["tools"] == BASE_TOOLS
    assert init["cwd"] == str(project.root)
    user = records[2]
    assert user["message"]["content"][0]["type"] == "tool_result"
    assert user["tool_use_result"]["type"] == "text"
    assert user["tool_use_result"]["file"]["numLines"] == 3
    session_ids = {r["session_id"] for r in records}
    assert len(session_ids) == 1


def test_stream_json_requires_verbose(project: Project) -> None:
    run = project.run("-p", "hi", "--output-format", "stream-json")
    assert run.returncode == 1
    assert "requires --verbose" in run.stderr
    assert project.api.bodies == []


def test_overloaded_once_then_the_same_result(project: Project) -> None:
    project.api.script(Fault(529))
    _read_then_answer(project)
    run = project.run("-p", "what does README.md say?", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    result = run.json()
    assert result["num_turns"] == 2
    assert result["result"] == "The README says the project computes primes."
    assert len(project.api.bodies) == 3
    assert project.api.bodies[0] == project.api.bodies[1]
    project.api.assert_clean()


def test_six_failures_in_a_row_give_exit_1_and_one_line(project: Project) -> None:
    project.api.script(*[Fault(529)] * 6)
    run = project.run("-p", "hello")
    assert run.returncode == 1
    lines = run.stdout.strip().splitlines()
    assert len(lines) == 1
    assert "529" in lines[0] and "6 attempts" in lines[0]
    assert "Traceback" not in run.stderr
    assert len(project.api.bodies) == 6


def test_a_stream_cut_halfway_is_retried_whole(project: Project) -> None:
    project.api.script(
        CutStream(Reply([text("partial answer that will be lost")]), after_events=4),
        Reply([text("complete answer")]),
    )
    run = project.run("-p", "hello", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    assert run.json()["result"] == "complete answer"
    assert run.json()["num_turns"] == 1
    project.api.assert_clean()


def test_authentication_error_is_one_clear_line(project: Project) -> None:
    project.api.script(Fault(401, message="invalid x-api-key"))
    run = project.run("-p", "hello", "--output-format", "json")
    assert run.returncode == 1
    result = run.json()
    assert result["is_error"] is True
    assert "invalid x-api-key" in result["result"]
    assert "Traceback" not in run.stderr
    assert len(project.api.bodies) == 1  # a 401 is not retried


def test_prompt_too_long_ends_with_a_clear_message(project: Project) -> None:
    project.api.script(Fault(400, message="prompt is too long: 210000 tokens > 200000 maximum"))
    run = project.run("-p", "hello", "--output-format", "json")
    assert run.returncode == 1
    result = run.json()
    assert result["terminal_reason"] == "prompt_too_long"
    assert "too long" in result["result"]


def test_max_turns_stops_with_error_subtype(project: Project) -> None:
    readme = project.root / "README.md"
    readme.write_text(README)
    project.api.script(Reply([tool_use("Read", {"file_path": str(readme)})]))
    run = project.run("-p", "read it", "--max-turns", "1", "--output-format", "json")
    assert run.returncode == 1
    result = run.json()
    assert result["subtype"] == "error_max_turns"
    assert result["is_error"] is True
    assert "result" not in result
    assert result["errors"] == ["Reached maximum number of turns (1)"]
    text_run_api = project.api
    text_run_api.script(Reply([tool_use("Read", {"file_path": str(readme)})]))
    text_run = project.run("-p", "read it", "--max-turns", "1")
    assert text_run.returncode == 1
    assert text_run.stdout.strip() == "Error: Reached max turns (1)"


def test_tools_flag_empty_offers_no_tools(project: Project) -> None:
    project.api.script(Reply([text("no tools here")]), Reply([text("two")]), Reply([text("3")]))
    run = project.run("-p", "hi", "--tools", "")
    assert run.returncode == 0, run.stderr
    assert "tools" not in project.api.bodies[0]
    assert project.run("-p", "hi", "--tools", "Read,Bash").returncode == 0
    assert [t["name"] for t in project.api.bodies[1]["tools"]] == ["Bash", "Read"]
    assert project.run("-p", "hi", "--disallowedTools", "Bash", "Write").returncode == 0
    names = [t["name"] for t in project.api.bodies[2]["tools"]]
    assert "Bash" not in names and "Write" not in names and "Read" in names


def test_thinking_blocks_go_back_unchanged(project: Project) -> None:
    readme = project.root / "README.md"
    readme.write_text(README)
    project.env["MAX_THINKING_TOKENS"] = "2048"
    project.api.script(
        Reply([thinking("let me look", signature="sig-abc"),
               tool_use("Read", {"file_path": str(readme)})]),
        Reply([text("done")]),
    )
    # (a model that thinks on a budget; one that paces its own ignores the variable)
    run = project.run("-p", "hi", "--output-format", "json", "--model", "claude-sonnet-4-5")
    assert run.returncode == 0, run.stderr
    first, second = project.api.bodies
    assert first["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    sent_back = second["messages"][1]["content"][0]
    assert sent_back == {"type": "thinking", "thinking": "let me look", "signature": "sig-abc"}
    project.api.assert_clean()


def test_system_prompt_claude_md_and_flags(project: Project) -> None:
    (project.root / "CLAUDE.md").write_text("Always answer in haiku.\n")
    project.api.script(Reply([text("a")]), Reply([text("b")]))
    assert project.run("-p", "hi", "--append-system-prompt", "EXTRA-RULE").returncode == 0
    system = project.api.bodies[0]["system"]
    joined = "\n".join(b["text"] for b in system)
    assert "Always answer in haiku." in joined
    assert system[-1]["text"].endswith("\n\nEXTRA-RULE")  # last, in the dynamic block
    assert str(project.root) in joined
    marks = [b for b in system if "cache_control" in b]
    assert len(marks) == 1
    assert project.run("-p", "hi", "--system-prompt", "You are terse.").returncode == 0
    assert [b["text"] for b in project.api.bodies[1]["system"]] == ["You are terse."]


def test_model_alias_and_env(project: Project) -> None:
    project.api.script(Reply([text("a")]), Reply([text("b")]))
    assert project.run("-p", "hi", "--model", "haiku").returncode == 0
    assert project.api.bodies[0]["model"] == "claude-haiku-5-5"
    project.env["ANTHROPIC_MODEL"] = "claude-custom-1"
    assert project.run("-p", "hi").returncode == 0
    assert project.api.bodies[1]["model"] == "claude-custom-1"


def test_no_prompt_is_a_usage_error(project: Project) -> None:
    run = project.run("-p")
    assert run.returncode == 1
    assert "Input must be provided" in run.stderr
    run = project.run("-p", "   ")
    assert run.returncode == 1
    assert "only whitespace" in run.stderr


def test_malformed_settings_warns_and_runs(project: Project) -> None:
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "settings.json").write_text('{\n  "model": "haiku",\n  oops\n}')
    project.api.script(Reply([text("fine")]))
    run = project.run("-p", "hi")
    assert run.returncode == 0
    assert "settings.json" in run.stderr and "line 3" in run.stderr
    assert run.stdout == "fine\n"


def test_version_and_help_do_not_need_the_api(project: Project) -> None:
    run = project.run("--version")
    assert run.returncode == 0
    assert run.stdout.strip().endswith("(cc)")
    help_run = project.run("--help")
    assert help_run.returncode == 0
    assert "--output-format" in help_run.stdout
    assert project.api.requests == []


def test_json_output_is_a_single_object(project: Project) -> None:
    project.api.script(Reply([text("one")]))
    run = project.run("-p", "hi", "--output-format", "json")
    assert run.returncode == 0
    assert len(run.stdout.strip().splitlines()) == 1
    assert json.loads(run.stdout)["result"] == "one"


def test_version_does_not_import_the_sdk(project: Project) -> None:
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "cc", "--version"],
        cwd=project.root, env=project.base_env(), capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0
    imported = {line.split("|")[-1].strip() for line in proc.stderr.splitlines() if "|" in line}
    assert "cc.main" in imported
    assert not any(name.split(".")[0] == "anthropic" for name in imported)


def test_api_key_helper_supplies_the_key(project: Project) -> None:
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "settings.json").write_text(
        json.dumps({"apiKeyHelper": "echo sk-from-helper"}))
    project.env["ANTHROPIC_API_KEY"] = ""
    project.api.script(Reply([text("hi")]))
    run = project.run("-p", "hi", "--output-format", "stream-json", "--verbose")
    assert run.returncode == 0, run.stderr
    assert run.records()[0]["apiKeySource"] == "apiKeyHelper"
    headers = project.api.requests[0].headers
    assert "sk-from-helper" in (headers.get("x-api-key", "") + headers.get("authorization", ""))


def test_custom_command_expands_in_print_mode(project: Project) -> None:
    commands = project.root / ".claude" / "commands"
    commands.mkdir(parents=True)
    (commands / "greet.md").write_text(
        "---\ndescription: Greet someone\nallowed-tools: Bash(echo *)\n---\n"
        "Say hello to $0 in $1. Date: !`echo today`\n")
    project.api.script(Reply([text("hello")]))
    run = project.run("-p", '/greet "Ada Lovelace" French')
    assert run.returncode == 0, run.stderr
    sent = json.dumps(project.api.bodies[0]["messages"][0])
    assert "Say hello to Ada Lovelace in French." in sent
    assert "Date: today" in sent


def test_include_co_authored_by_setting(project: Project) -> None:
    project.api.script(Reply([text("a")]), Reply([text("b")]))
    assert project.run("-p", "hi").returncode == 0
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "settings.json").write_text('{"includeCoAuthoredBy": false}')
    assert project.run("-p", "hi").returncode == 0
    first, second = (json.dumps(b["system"]) for b in project.api.bodies)
    assert "Co-Authored-By" in first
    assert "Co-Authored-By" not in second
