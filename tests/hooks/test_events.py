"""Every event hands its hooks Claude Code's stdin JSON, environment and working folder."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from cc.hooks.runner import HookRunner
from cc.identity import AgentInfo
from cc.tools.base import ToolResult
from tests.hooks.conftest import HookProject, on

COMMON = ("session_id", "transcript_path", "cwd", "permission_mode", "hook_event_name")

NO_MODE = ("SessionStart", "SessionEnd")

Fire = Callable[[HookRunner], Awaitable[Any]]

CASES: list[tuple[str, str | None, Fire, dict[str, Any]]] = [
    (
        "PreToolUse",
        "Bash",
        lambda r: r.pre_tool_use("Bash", {"command": "npm test"}, "toolu_1"),
        {"tool_name": "Bash", "tool_input": {"command": "npm test"}, "tool_use_id": "toolu_1"},
    ),
    (
        "PostToolUse",
        "Write",
        lambda r: r.post_tool_use(
            "Write",
            {"file_path": "/p/a.txt", "content": "x"},
            "toolu_2",
            ToolResult("File created", data={"filePath": "/p/a.txt", "type": "create"}),
        ),
        {
            "tool_name": "Write",
            "tool_input": {"file_path": "/p/a.txt", "content": "x"},
            "tool_response": {"filePath": "/p/a.txt", "type": "create"},
            "tool_use_id": "toolu_2",
        },
    ),
    (
        "PostToolUseFailure",
        "Bash",
        lambda r: r.post_tool_use(
            "Bash", {"command": "false"}, "toolu_3", ToolResult.error("Exit code 1")
        ),
        {
            "tool_name": "Bash",
            "tool_input": {"command": "false"},
            "error": "Exit code 1",
            "tool_use_id": "toolu_3",
            "is_interrupt": False,
        },
    ),
    (
        "UserPromptSubmit",
        None,
        lambda r: r.user_prompt_submit("fix the bug"),
        {"prompt": "fix the bug"},
    ),
    (
        "Notification",
        "idle_prompt",
        lambda r: r.notification(
            "Claude is waiting for your input", notification_type="idle_prompt", title="cc"
        ),
        {
            "message": "Claude is waiting for your input",
            "notification_type": "idle_prompt",
            "title": "cc",
        },
    ),
    ("Stop", None, lambda r: r.stop(False),
     {"stop_hook_active": False, "background_tasks": [], "session_crons": []}),
    (
        "SubagentStop",
        "Explore",
        lambda r: r.subagent_stop(True, agent_id="a1", agent_type="Explore"),
        {"stop_hook_active": True, "agent_id": "a1", "agent_type": "Explore"},
    ),
    (
        "PreCompact",
        "manual",
        lambda r: r.pre_compact("manual", "keep the API notes"),
        {"trigger": "manual", "custom_instructions": "keep the API notes"},
    ),
    (
        "PreCompact",
        "auto",
        lambda r: r.pre_compact("auto"),
        {"trigger": "auto", "custom_instructions": None},  # null, as Claude Code sends it
    ),
    (
        "PostCompact",
        "auto",
        lambda r: r.post_compact("auto", "<summary>done</summary>"),
        {"trigger": "auto", "compact_summary": "<summary>done</summary>"},
    ),
    ("SessionStart", "resume", lambda r: r.session_start("resume"), {"source": "resume"}),
    ("SessionEnd", "clear", lambda r: r.session_end("clear"), {"reason": "clear"}),
]


@pytest.mark.parametrize(("event", "matcher", "fire", "fields"), CASES, ids=[c[0] for c in CASES])
async def test_stdin_json(
    hp: HookProject, event: str, matcher: str | None, fire: Fire, fields: dict[str, Any]
) -> None:
    hp.settings("project", {event: on(hp.dump_stdin(), matcher=matcher)})
    hp.mode = "acceptEdits"
    await fire(hp.runner())
    got = hp.dumped()
    # As Claude Code sends them: the session's start and end say no permission mode.
    common = [k for k in COMMON if k != "permission_mode" or event not in NO_MODE]
    prompt_id = got.pop("prompt_id", None)
    assert (prompt_id is not None) == (event == "UserPromptSubmit")
    assert list(got)[: len(common)] == common
    assert got == {
        "session_id": "sess-1",
        "transcript_path": str(hp.root / "t.jsonl"),
        "cwd": str(hp.root),
        **({} if event in NO_MODE else {"permission_mode": "acceptEdits"}),
        "hook_event_name": event,
        **fields,
    }


async def test_a_prompt_id_is_carried_by_the_events_after_its_prompt(hp: HookProject) -> None:
    hp.settings("project", {"UserPromptSubmit": on(hp.dump_stdin("prompt")),
                            "PreToolUse": on(hp.dump_stdin("pre")),
                            "SessionStart": on(hp.dump_stdin("start"))})
    runner = hp.runner()
    await runner.session_start("startup")
    assert "prompt_id" not in hp.dumped("start")
    await runner.user_prompt_submit("one")
    first = hp.dumped("prompt")["prompt_id"]
    await runner.pre_tool_use("Bash", {"command": "ls"}, "t1")
    assert list(hp.dumped("pre"))[3:5] == ["prompt_id", "permission_mode"]
    assert hp.dumped("pre")["prompt_id"] == first
    await runner.user_prompt_submit("two")
    assert hp.dumped("prompt")["prompt_id"] != first
    runner.effort = lambda: "high"
    await runner.pre_tool_use("Bash", {"command": "ls"}, "t1")
    assert hp.dumped("pre")["effort"] == {"level": "high"}
    await runner.user_prompt_submit("three")  # not an event of the request's work
    assert "effort" not in hp.dumped("prompt")


async def test_session_id_and_mode_are_read_at_each_event(hp: HookProject) -> None:
    hp.settings("project", {"Stop": on(hp.dump_stdin())})
    runner = hp.runner()
    runner.session_id = "after-clear"
    hp.mode = "manual"
    await runner.stop(True)
    got = hp.dumped()
    assert (got["session_id"], got["permission_mode"], got["stop_hook_active"]) == (
        "after-clear",
        "default",
        True,
    )


async def test_relative_file_paths_are_made_absolute(hp: HookProject) -> None:
    hp.settings("project", {"PreToolUse": on(hp.dump_stdin())})
    await hp.runner(cwd=hp.root / "sub").pre_tool_use(
        "Read", {"file_path": "a.txt", "limit": 5}, "t"
    )
    assert hp.dumped()["tool_input"] == {"file_path": str(hp.root / "sub" / "a.txt"), "limit": 5}


async def test_environment_and_working_folder(hp: HookProject, tmp_path: Path) -> None:
    script = hp.sh(
        "env",
        'printf "%s\\n%s\\n%s\\n" "$CLAUDE_PROJECT_DIR" "$CLAUDECODE" "$PWD" > "$CLAUDE_PROJECT_DIR/env.txt"\n',
    )
    hp.settings("project", {"SessionStart": on(script)})
    other = tmp_path / "elsewhere"
    other.mkdir()
    await hp.runner(cwd=other).session_start("startup")
    assert (hp.root / "env.txt").read_text().splitlines() == [str(hp.root), "1", str(hp.root)]


async def test_project_dir_in_the_command_line_is_expanded(hp: HookProject) -> None:
    hp.dump_stdin("via-var")
    hp.settings("project", {"Stop": on('"$CLAUDE_PROJECT_DIR"/hooks/via-var.sh')})
    await hp.runner().stop(False)
    assert hp.dumped("via-var")["hook_event_name"] == "Stop"


async def test_python_hook_reads_stdin(hp: HookProject) -> None:
    script = hp.py(
        "echo",
        "data = json.load(sys.stdin)\n"
        "print(f\"tool={data['tool_name']} cmd={data['tool_input']['command']}\")\n",
    )
    hp.settings("project", {"PreToolUse": on(script)})
    out = await hp.runner().run(
        "PreToolUse",
        {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t"},
        "Bash",
    )
    assert out.results[0].stdout == "tool=Bash cmd=ls\n"
    assert out.additional_context is None  # PreToolUse stdout is for verbose mode only


async def test_exec_form_runs_without_a_shell(hp: HookProject) -> None:
    script = hp.py("argv", "print(json.dumps(sys.argv[1:]))\n")
    exe, path = script.split(" ", 1)
    hp.settings(
        "project",
        {
            "SessionStart": on(
                {
                    "type": "command",
                    "command": exe,
                    "args": [path, "$HOME", "${CLAUDE_PROJECT_DIR}"],
                }
            )
        },
    )
    out = await hp.runner().session_start("startup")
    assert out.results[0].stdout.strip() == f'["$HOME", "{hp.root}"]'


async def test_no_matching_hook_runs_nothing(hp: HookProject) -> None:
    hp.settings("project", {"PreToolUse": on(hp.dump_stdin(), matcher="Write")})
    runner = hp.runner()
    out = await runner.run("PreToolUse", {"tool_name": "Read"}, "Read")
    assert out.results == [] and not (hp.root / "stdin.json").exists()


async def test_if_condition_filters_tool_hooks(hp: HookProject) -> None:
    guarded = {"type": "command", "command": hp.dump_stdin(), "if": "Bash(rm *)"}
    hp.settings("project", {"PreToolUse": on(guarded, matcher="Bash")})
    runner = hp.runner()
    await runner.pre_tool_use("Bash", {"command": "ls -la"}, "t1")
    assert not (hp.root / "stdin.json").exists()
    await runner.pre_tool_use("Bash", {"command": "rm -rf build"}, "t2")
    assert hp.dumped()["tool_use_id"] == "t2"


async def test_an_injected_rule_matcher_replaces_the_builtin(hp: HookProject) -> None:
    guarded = {"type": "command", "command": hp.dump_stdin(), "if": "anything"}
    hp.settings("project", {"PreToolUse": on(guarded)})
    seen: list[tuple[str, str, dict[str, Any]]] = []

    def matcher(rule: str, tool: str, inp: dict[str, Any]) -> bool:
        seen.append((rule, tool, inp))
        return True

    await hp.runner(rule_matcher=matcher).pre_tool_use("Read", {"file_path": "/x"}, "t")
    assert seen == [("anything", "Read", {"file_path": "/x"})]
    assert hp.dumped()["tool_name"] == "Read"


async def test_each_agents_runner_says_who_it_is(hp: HookProject) -> None:
    """Each agent's engine has a runner of its own, with its identity: two teammates'
    hooks, fired at once, each name their own; the leader's name none."""
    script = hp.py("who", "data = json.load(sys.stdin)\n"
                          "print(json.dumps([data.get('team_name'), data.get('teammate_name')]))\n")
    hp.settings("project", {"PreToolUse": on(script)})

    def runner_of(name: str | None) -> Any:
        runner = hp.runner()
        if name is not None:
            runner.agent = AgentInfo(f"a-{name}", "general-purpose", "work", "toolu_1",
                                     name=name, team="docs")
        return runner

    async def fire(runner: Any) -> list[str | None]:
        payload = {"tool_name": "Bash", "tool_input": {"command": "true"}, "tool_use_id": "t"}
        out = await runner.run("PreToolUse", payload, "Bash")
        return json.loads(out.results[0].stdout)

    async with asyncio.TaskGroup() as group:
        alpha = group.create_task(fire(runner_of("alpha")))
        beta = group.create_task(fire(runner_of("beta")))
    assert alpha.result() == ["docs", "alpha"] and beta.result() == ["docs", "beta"]
    assert await fire(runner_of(None)) == [None, None]  # the leader: no team fields at all


async def test_setup_says_its_trigger(hp: HookProject) -> None:
    hp.settings("project", {"Setup": on(hp.dump_stdin(), matcher="init")})
    runner = hp.runner()
    await runner.setup("maintenance")
    assert not (hp.root / "stdin.json").exists()
    await runner.setup("init")
    got = hp.dumped()
    assert (got["hook_event_name"], got["trigger"]) == ("Setup", "init")
    assert "permission_mode" not in got and "prompt_id" not in got
