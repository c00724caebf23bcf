"""The slash commands of issue 24 run against a real QueryEngine and real files:
/add-dir /tasks /todos /review /security-review /usage /doctor /rename /release-notes
/vim /terminal-setup /login /logout (and /help listing them)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from cc.commands.registry import dispatch
from cc.commands.terminal_setup import terminal_advice
from cc.config.settings import Settings
from cc.core.query_engine import QueryEngine
from cc.models.content_blocks import TextBlock
from cc.permissions.checker import PermissionChecker
from cc.permissions.context import build_permission_context
from cc.session.transcript import TranscriptWriter
from cc.tools.agent_tasks import AgentTask, AgentTasks
from cc.tools.read import ReadInput, ReadTool
from cc.tools.shell.session import ShellSession
from cc.tools.shell.tasks import BackgroundTasks
from tests.commands.test_builtins import make_ctx, output
from tests.fakeapi import FakeAPI, Reply, text


def said(ctx: object) -> str:
    """What the command said, on one line (long paths wrap on the 100-column console)."""
    return " ".join(output(ctx).split())  # type: ignore[arg-type]


NEW_COMMANDS = ("/add-dir <path>", "/tasks [stop <id>]", "/todos", "/export [file]",
                "/review [pr]", "/security-review", "/usage", "/cost", "/doctor",
                "/rename <name>", "/release-notes", "/vim", "/terminal-setup", "/login",
                "/logout")


async def test_help_lists_the_new_commands(engine: QueryEngine, tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    await dispatch("/help", ctx)
    out = output(ctx)
    for usage in NEW_COMMANDS:
        assert f"  {usage} " in out, usage


async def test_add_dir_opens_a_folder_to_the_tools(engine: QueryEngine, tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("hi\n")
    checker = PermissionChecker(build_permission_context(
        Settings(), cwd=ctx.cwd, config_dir=ctx.config_dir, mode="default", allowed_tools=[],
        disallowed_tools=[], add_dirs=[]))
    ctx.runtime.permissions = checker
    read = ReadInput(file_path=str(other / "notes.txt"))
    assert checker.evaluate(ReadTool(), read)[0].behavior == "ask"

    await dispatch(f"/add-dir {tmp_path / 'missing'}", ctx)
    assert said(ctx) == f"Path {tmp_path / 'missing'} was not found."
    await dispatch(f"/add-dir {other / 'notes.txt'}", ctx)
    assert said(ctx) == f"{other / 'notes.txt'} is not a directory."
    await dispatch("/add-dir ../other", ctx)  # relative to the working folder
    assert said(ctx) == f"Added {other} as a working directory for this session."
    assert checker.evaluate(ReadTool(), read)[0].behavior == "allow"
    await dispatch(f"/add-dir {other}", ctx)
    assert "already a working directory" in said(ctx)


async def test_add_dir_asks_first_in_the_repl(engine: QueryEngine, tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    ctx.runtime.permissions = PermissionChecker(build_permission_context(
        Settings(), cwd=ctx.cwd, config_dir=ctx.config_dir, mode="default", allowed_tools=[],
        disallowed_tools=[], add_dirs=[]))
    asked: list[str] = []

    async def refuse(title: str, options: list[str]) -> int:
        asked.append(title)
        assert options == ["No, leave it out", "Yes, add it"]  # No first, as in Claude Code
        return 0

    ctx.choose = refuse  # type: ignore[assignment]
    await dispatch(f"/add-dir {other}", ctx)
    assert asked and str(other) in asked[0]
    assert said(ctx) == f"Did not add {other} as a working directory."
    assert ctx.runtime.permissions.context.additional_dirs == []


async def _forever() -> None:
    """An agent's work that ends only when it is stopped."""
    await asyncio.Event().wait()


async def test_tasks_lists_and_stops_shells_and_agents(engine: QueryEngine, tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    await dispatch("/tasks", ctx)
    assert output(ctx) == "No background tasks in this session."
    shell = ShellSession(tmp_path)
    shells = BackgroundTasks(shell.tasks_dir, new_id=lambda: "b000001")
    agents = AgentTasks()
    engine.executor.ctx.tasks, engine.executor.ctx.agent_tasks = shells, agents
    try:
        task = await shells.start(shell, "sleep 60", "a long sleep")
        agents.start(AgentTask("a1", "Find the config", "toolu_1", None), _forever())
        await dispatch("/tasks", ctx)
        out = output(ctx)
        assert "b000001  shell  running    a long sleep" in out
        assert "a1       agent  running    Find the config" in out
        assert "/tasks stop <id> stops one." in out
        await dispatch("/bashes stop b000001", ctx)
        assert output(ctx) == "Stopped b000001."
        assert task.status == "killed" and task.process.returncode is not None
        await dispatch("/tasks stop a1", ctx)
        assert output(ctx) == "Stopped a1."
        assert agents.get("a1").status == "killed"  # type: ignore[union-attr]
        await dispatch("/tasks stop nope", ctx)
        assert output(ctx) == "No background task nope."
    finally:
        await shells.close()
        await agents.close()
        shell.close()


async def test_tasks_offers_to_stop_one_in_the_repl(engine: QueryEngine, tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    agents = AgentTasks()
    engine.executor.ctx.agent_tasks = agents
    agents.start(AgentTask("a1", "Find the config", "toolu_1", None), _forever())
    offered: list[list[str]] = []

    async def pick_first(title: str, options: list[str]) -> int:
        offered.append(list(options))
        return 0

    ctx.choose = pick_first  # type: ignore[assignment]
    try:
        await dispatch("/tasks", ctx)
        assert offered == [["Stop a1 · Find the config", "Leave them running"]]
        assert output(ctx).endswith("Stopped a1.")
    finally:
        await agents.close()


async def test_todos_shows_the_checklist_and_the_task_list(engine: QueryEngine,
                                                           tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    await dispatch("/todos", ctx)
    assert output(ctx) == "No todos in this conversation."
    engine.executor.ctx.todos[:] = [
        {"content": "Read the test", "status": "completed", "activeForm": "Reading"},
        {"content": "Fix the bug", "status": "in_progress", "activeForm": "Fixing"},
        {"content": "Run the suite", "status": "pending", "activeForm": "Running"},
    ]
    await dispatch("/todos", ctx)
    assert output(ctx) == ("Todos (1/3 done):\n  ☒ Read the test\n  ◼ Fix the bug\n"
                           "  ☐ Run the suite")


async def test_review_and_security_review_send_our_prompts(engine: QueryEngine,
                                                           tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    result = await dispatch("/review 123", ctx)
    assert result is not None and result.submit is not None
    texts = [b.text for b in result.submit.content if isinstance(b, TextBlock)]
    assert texts[0].startswith("<command-name>/review</command-name>")
    assert "<command-args>123</command-args>" in texts[0]
    assert "gh pr diff" in texts[1] and texts[1].endswith("The user added: 123")
    result = await dispatch("/security-review", ctx)
    assert result is not None and result.submit is not None
    texts = [b.text for b in result.submit.content if isinstance(b, TextBlock)]
    assert "<command-name>/security-review</command-name>" in texts[0]
    assert "injection" in texts[1] and "The user added" not in texts[1]


async def test_usage_shows_the_prompt_cache(engine: QueryEngine, fake_api: FakeAPI,
                                            tmp_path: Path) -> None:
    fake_api.script(Reply([text("Hi.")], usage={"input_tokens": 1000, "output_tokens": 100,
                                                 "cache_read_input_tokens": 3000,
                                                 "cache_creation_input_tokens": 500}))
    _ = [e async for e in engine.submit("hi")]
    ctx = make_ctx(engine, tmp_path)
    await dispatch("/usage", ctx)
    out = output(ctx)
    assert "claude-test-1:  1.0k input, 100 output, 3.0k cache read, 500 cache write" in out
    assert "Prompt cache:          67% of input tokens from cache (3.0k read, 500 written)" in out


async def test_rename_writes_the_title_lines_claude_code_reads(engine: QueryEngine,
                                                               tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    await dispatch("/rename  my   work ", ctx)
    assert "not saved" in output(ctx)
    path = tmp_path / "t.jsonl"
    engine.use_transcript(TranscriptWriter(path, session_id=engine.session_id, cwd=tmp_path,
                                           version="0", fsync=False))
    await dispatch("/rename  my   work ", ctx)
    assert output(ctx) == "Session renamed to: my work"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[-2:] == [
        {"type": "custom-title", "customTitle": "my work", "sessionId": engine.session_id},
        {"type": "agent-name", "agentName": "my work", "sessionId": engine.session_id},
    ]
    await dispatch("/rename", ctx)
    assert output(ctx) == "Usage: /rename <name>"


async def test_vim_toggles_and_is_remembered(engine: QueryEngine, tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    modes: list[str] = []
    ctx.set_editing_mode = modes.append
    state = ctx.config_dir / ".claude.json"
    await dispatch("/vim", ctx)
    assert output(ctx).startswith("Editor mode set to vim")
    assert json.loads(state.read_text())["editorMode"] == "vim"
    await dispatch("/vim", ctx)
    assert output(ctx).startswith("Editor mode set to normal")
    assert json.loads(state.read_text())["editorMode"] == "normal"
    assert modes == ["vim", "normal"]


async def test_doctor_in_a_session(engine: QueryEngine, tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    (ctx.cwd / ".claude").mkdir()
    (ctx.cwd / ".claude" / "settings.json").write_text("[1]")
    await dispatch("/doctor", ctx)
    out = output(ctx)
    assert "✓ API key: ANTHROPIC_API_KEY" in out  # the session's own key (not the env's)
    assert "MCP servers\n  · none in this session" in out
    assert "Sandbox" in out
    out = " ".join(out.split())
    assert "settings.json: the top level must be an object (skipped)" in out
    assert out.endswith("1 issue found.")


async def test_release_notes_login_logout(engine: QueryEngine, tmp_path: Path) -> None:
    from cc import __version__

    ctx = make_ctx(engine, tmp_path)
    await dispatch("/release-notes", ctx)
    assert output(ctx).startswith(f"cc {__version__} · release notes\n\n## {__version__}")
    await dispatch("/login", ctx)
    out = output(ctx)
    assert "ANTHROPIC_AUTH_TOKEN" in out and "This session uses ANTHROPIC_API_KEY." in out
    await dispatch("/logout", ctx)
    assert "unset ANTHROPIC_API_KEY" in output(ctx)


def test_terminal_setup_says_what_works_here() -> None:
    kitty = terminal_advice({"TERM": "xterm-kitty"})
    assert kitty[0] == "Terminal: kitty" and "sends Shift+Enter as its own key" in kitty[2]
    vscode = terminal_advice({"TERM_PROGRAM": "vscode"})
    assert "bind Shift+Enter" in vscode[2]
    tmux = terminal_advice({"TERM": "screen", "TMUX": "/tmp/t"})
    assert any("extended-keys" in line for line in tmux)
    assert all(a[-1] == "cc changed nothing in your terminal's configuration."
               for a in (kitty, vscode, tmux))
