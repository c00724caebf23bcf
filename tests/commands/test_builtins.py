"""Built-in slash commands and custom-command dispatch against a real QueryEngine."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Sequence
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console

from cc.commands.context import CommandContext, Services, SessionSummary
from cc.commands.registry import (
    CommandRegistry,
    dispatch,
    parse_slash,
    resolve_input,
)
from cc.config.settings import Settings, SettingsFile
from cc.core.client import ModelClient
from cc.core.credentials import Credentials
from cc.core.pipeline.executor import ToolExecutor
from cc.core.query_engine import EngineConfig, QueryEngine
from cc.input.prepare import prepare_prompt
from cc.models.content_blocks import TextBlock
from cc.models.messages import UserMessage
from cc.permissions.gate import ModeGate
from cc.prompts.builder import PromptSection
from cc.tools.base import ToolContext
from cc.tools.read import ReadTool
from cc.tools.registry import ToolRegistry
from tests.fakeapi import FakeAPI, Reply, text
from tests.sessions import make_session


@pytest.fixture
async def engine(fake_api: FakeAPI, tmp_path: Path) -> AsyncIterator[QueryEngine]:
    registry = ToolRegistry([ReadTool()])
    executor = ToolExecutor(registry, ToolContext(cwd=tmp_path), permissions=ModeGate("default"))
    client = ModelClient(Credentials(api_key="test-key", base_url=fake_api.base_url))
    system = [PromptSection("intro", "You are a test agent.", cacheable=True)]
    engine = QueryEngine(EngineConfig(model="claude-test-1", system=system), client, registry, executor)
    yield engine
    await engine.aclose()


def make_ctx(engine: QueryEngine, tmp_path: Path, **services: object) -> CommandContext:
    cwd, config = tmp_path / "proj", tmp_path / "config"
    cwd.mkdir(exist_ok=True)
    config.mkdir(exist_ok=True)
    settings = Settings({"model": "opus"}, [SettingsFile("user", config / "settings.json", {"model": "opus"})])
    runtime = make_session(cwd, config, settings=settings,
                           credentials=Credentials(api_key="k", base_url="http://fake"))
    console = Console(file=StringIO(), width=100, color_system=None)
    from cc.ui.repl.replay import render_conversation

    return CommandContext(engine, runtime, console, CommandRegistry.default(cwd, config),
                          Services(**services),  # type: ignore[arg-type]
                          replay=lambda messages: render_conversation(console, messages, cwd))


def output(ctx: CommandContext) -> str:
    out = ctx.console.file.getvalue()  # type: ignore[attr-defined]
    ctx.console.file = StringIO()
    return "\n".join(line.rstrip() for line in out.splitlines())


def test_parse_slash() -> None:
    assert parse_slash("/model opus") == ("model", "opus")
    assert parse_slash("  /help  ") == ("help", "")
    assert parse_slash("/review first\nsecond") == ("review", "first\nsecond")
    assert parse_slash("/usr/bin/env is broken") is None
    assert parse_slash("fix / this") is None


async def test_help_lists_builtins_and_custom_commands(engine: QueryEngine, tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    (ctx.cwd / ".claude/commands/frontend").mkdir(parents=True)
    (ctx.cwd / ".claude/commands/frontend/component.md").write_text(
        "---\ndescription: Make a component\nargument-hint: <name>\n---\nBody"
    )
    assert await dispatch("/help", ctx) is not None
    out = output(ctx)
    for name in ("/clear", "/compact [instructions]", "/model [name]", "/cost", "/status", "/exit",
                 "/resume [session id]", "/context", "/memory", "/init", "/permissions", "/hooks"):
        assert f"  {name} " in out, name
    assert "Custom commands:" in out
    assert "/component <name>" in out and "Make a component (project:frontend)" in out
    assert "/frontend:component <name>" in out


async def test_cost_shows_dollars_per_model(engine: QueryEngine, fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.script(Reply([text("Hello.")], usage={"input_tokens": 1200, "output_tokens": 300}))
    _ = [e async for e in engine.submit("hi")]
    ctx = make_ctx(engine, tmp_path)
    ctx.clock = lambda: ctx.started + 5  # five seconds into the session, exactly
    await dispatch("/cost", ctx)
    out = output(ctx)
    # claude-test-1 is unknown to the catalog: $3 / $15 per million tokens
    assert "Estimated cost:        $0.0081" in out
    assert "Total duration (wall): 5.0s" in out
    assert "claude-test-1:  1.2k input, 300 output, 0 cache read, 0 cache write ($0.0081)" in out
    fake_api.assert_clean()


async def test_clear_starts_a_new_conversation(engine: QueryEngine, fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.script("one", "two")
    _ = [e async for e in engine.submit("first")]
    old_session = engine.session_id
    ctx = make_ctx(engine, tmp_path)
    result = await dispatch("/clear", ctx)
    assert result is not None and result.clear_screen  # the REPL clears the screen as well
    assert engine.messages == [] and engine.session_id != old_session
    _ = [e async for e in engine.submit("second")]
    assert len(fake_api.bodies[-1]["messages"]) == 1
    fake_api.assert_clean()


async def test_model_shows_and_sets(engine: QueryEngine, tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    await dispatch("/model", ctx)
    assert "Current model: claude-test-1" in output(ctx)
    await dispatch("/model sonnet", ctx)
    assert engine.model == "claude-sonnet-5-5"
    assert output(ctx) == "Set model to sonnet (claude-sonnet-5-5)"
    await dispatch("/model my-local-model", ctx)
    assert engine.model == "my-local-model"


async def test_team_lists_the_members_or_says_there_is_no_team(engine: QueryEngine,
                                                                 tmp_path: Path) -> None:
    from cc.team.config import Member, TeamFiles
    from cc.team.session import TeamSession

    ctx = make_ctx(engine, tmp_path)
    await dispatch("/team", ctx)
    assert output(ctx).startswith("This session leads no team")
    files = TeamFiles(ctx.config_dir, "crew")
    files.create("read the files", "claude-test-1")
    files.upsert(Member("alpha", "general-purpose", "claude-test-1", "idle", "a1"))
    files.upsert(Member("beta", "general-purpose", "claude-test-1", "done", "a2"))
    ctx.runtime.team = TeamSession(files, engine)
    await dispatch("/team", ctx)
    assert output(ctx).splitlines()[:3] == ["Team crew: read the files", "  @alpha · idle · a1",
                                            "  @beta · done · a2"]
    await dispatch("/team gamma", ctx)
    assert output(ctx) == "No member 'gamma' in team crew (members: alpha, beta)."
    await dispatch("/team @alpha", ctx)  # nothing saved in this session, no run of it here
    assert output(ctx) == "@alpha has no conversation to show yet."


async def test_unknown_command_suggests_the_nearest(engine: QueryEngine, tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    result = await dispatch("/hlep", ctx)
    assert result is not None and result.submit is None
    assert output(ctx) == "Unknown command: /hlep. Did you mean /help?"
    await dispatch("/zzzzzz", ctx)
    assert output(ctx) == "Unknown command: /zzzzzz."
    assert await dispatch("/etc/hosts looks wrong", ctx) is None


async def test_exit_and_quit(engine: QueryEngine, tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    for text_ in ("/exit", "/quit"):
        result = await dispatch(text_, ctx)
        assert result is not None and result.exit


async def test_custom_command_reaches_the_model_expanded(
    engine: QueryEngine, fake_api: FakeAPI, tmp_path: Path
) -> None:
    ctx = make_ctx(engine, tmp_path)
    (ctx.cwd / ".claude/commands/git").mkdir(parents=True)
    (ctx.cwd / ".claude/commands/git/fix.md").write_text(
        "---\nmodel: haiku\nallowed-tools: Bash(git status:*)\n---\nFix issue $0 ($1).\n"
    )
    result = await dispatch('/git:fix 42 "very urgent"', ctx)
    assert result is not None and result.submit is not None
    assert result.model == "haiku" and result.allowed_tools == ("Bash(git status:*)",)
    assert (await dispatch("/fix 1 2", ctx)).submit is not None  # type: ignore[union-attr]
    fake_api.script("ok")
    _ = [e async for e in engine.submit(result.submit)]
    sent = fake_api.bodies[-1]["messages"][-1]["content"]
    assert sent[1]["text"] == "Fix issue 42 (very urgent).\n"
    assert "<command-name>/fix</command-name>" in sent[0]["text"]
    fake_api.assert_clean()


async def test_custom_command_failure_is_reported(engine: QueryEngine, tmp_path: Path) -> None:
    seen: list[tuple[str, Sequence[str]]] = []

    def permit(command: str, allowed: Sequence[str]) -> bool:
        seen.append((command, allowed))
        return False

    ctx = make_ctx(engine, tmp_path, permit_shell=permit)
    (ctx.cwd / ".claude/commands").mkdir(parents=True)
    (ctx.cwd / ".claude/commands/st.md").write_text("---\nallowed-tools: Bash(git status:*)\n---\n!`git status`")
    result = await dispatch("/st", ctx)
    assert result is not None and result.submit is None
    assert seen == [("git status", ("Bash(git status:*)",))]
    assert "permission check failed" in output(ctx)


async def test_init_submits_a_prompt(engine: QueryEngine, tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    result = await dispatch("/init", ctx)
    assert result is not None and result.submit is not None
    body = result.submit.content[1]
    assert isinstance(body, TextBlock) and "CLAUDE.md" in body.text


async def test_status_permissions_hooks_context(engine: QueryEngine, tmp_path: Path) -> None:
    ctx = make_ctx(
        engine, tmp_path,
        permission_rules=lambda: {"allow": ["Bash(npm test:*)"], "deny": ["Read(./.env)"], "ask": []},
        hooks_config=lambda: {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"}]}]},
    )
    await dispatch("/status", ctx)
    out = output(ctx)
    assert "Model:            claude-test-1" in out
    assert f"Session ID:       {engine.session_id}" in out
    assert "Permission mode:  default" in out
    assert "API key source:   ANTHROPIC_API_KEY" in out
    await dispatch("/permissions", ctx)
    assert output(ctx) == (
        "Permission mode: default\nAllow:\n  Bash(npm test:*)\nAsk:\n  (none)\nDeny:\n  Read(./.env)"
    )
    await dispatch("/hooks", ctx)
    assert output(ctx) == "PreToolUse\n  Bash  →  command: ./check.sh"
    await dispatch("/context", ctx)
    out = output(ctx)
    assert out.startswith("Context: claude-test-1 · ")
    assert "  System tools " in out and "  Free space " in out and "MCP" not in out


async def test_config_shows_merged_settings(engine: QueryEngine, tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    await dispatch("/config", ctx)
    assert output(ctx).endswith('{\n  "model": "opus"\n}')


async def test_resume_picks_and_resumes(engine: QueryEngine, tmp_path: Path) -> None:
    resumed: list[str] = []
    sessions = [SessionSummary("aaaa-1", "fix the login bug", time.time() - 7200, 12),
                SessionSummary("bbbb-2", "add tests", time.time() - 30, 4)]

    async def resume(session_id: str) -> None:
        resumed.append(session_id)
        engine.messages[:] = [UserMessage.text(f"prompt of {session_id}")]

    ctx = make_ctx(engine, tmp_path, list_sessions=lambda: sessions, resume_session=resume)
    shown: list[Sequence[str]] = []

    async def choose(title: str, options: Sequence[str]) -> int | None:
        shown.append(options)
        return 1

    ctx.choose = choose
    await dispatch("/resume", ctx)
    assert shown[0][0] == "   2h ago    12 msgs  fix the login bug"
    assert resumed == ["bbbb-2"]
    assert output(ctx).endswith("> prompt of bbbb-2\n\nResumed conversation bbbb-2.")
    await dispatch("/resume aaaa", ctx)
    assert resumed == ["bbbb-2", "aaaa-1"]
    no_service = make_ctx(engine, tmp_path)
    await dispatch("/resume", no_service)
    assert "not available" in output(no_service)


async def test_memory_opens_the_chosen_file_in_the_editor(engine: QueryEngine, tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    edited: list[Path] = []

    async def choose(title: str, options: Sequence[str]) -> int | None:
        assert options[0].endswith("CLAUDE.md (new)")
        return 0

    async def edit(path: Path) -> int:
        edited.append(path)
        path.write_text("# Notes\n")
        return 0

    ctx.choose, ctx.edit_file = choose, edit
    await dispatch("/memory", ctx)
    assert edited == [ctx.cwd / "CLAUDE.md"]
    assert (ctx.cwd / "CLAUDE.md").read_text() == "# Notes\n"


async def test_resolve_input_turns_a_prompt_into_a_message_with_mentions(engine: QueryEngine, tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    (ctx.cwd / "notes.txt").write_text("remember me\n")
    result = await resolve_input("read @notes.txt please", ctx)
    assert result.submit is not None and not result.exit
    texts = [b.text for b in result.submit.content if isinstance(b, TextBlock)]
    assert texts[0] == "read @notes.txt please"
    assert "Contents of notes.txt:\n1\tremember me" in texts[1]
    assert (await resolve_input("/exit", ctx)).exit


async def test_prepare_prompt_for_print_mode(tmp_path: Path) -> None:
    cwd, config = tmp_path / "proj", tmp_path / "config"
    (cwd / ".claude/commands").mkdir(parents=True)
    (cwd / ".claude/commands/fix.md").write_text("---\nmodel: haiku\n---\nFix $0 now.")
    (cwd / "a.txt").write_text("A\n")
    result = await prepare_prompt('/fix "the bug"', cwd, config, session_id="sid")
    assert result.model == "haiku"
    assert [b.text for b in result.message.content if isinstance(b, TextBlock)][1] == "Fix the bug now."
    plain = await prepare_prompt("look at @a.txt", cwd, config)
    assert len(plain.message.content) == 2
    builtin = await prepare_prompt("/help", cwd, config)  # sent as typed
    assert [b.text for b in builtin.message.content if isinstance(b, TextBlock)] == ["/help"]


async def test_sandbox_shows_its_state(engine: QueryEngine, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from cc.sandbox.config import SandboxConfig
    from cc.sandbox.sandbox import Sandbox

    monkeypatch.setenv("CC_SANDBOX_BWRAP", str(tmp_path / "no-bwrap"))
    ctx = make_ctx(engine, tmp_path)
    await dispatch("/sandbox", ctx)
    out = output(ctx).replace("\n", " ")
    assert "bubblewrap:   unavailable: bubblewrap" in out and "apt-get install bubblewrap" in out
    assert "Sandbox:      disabled" in out
    ctx.runtime.sandbox = Sandbox(SandboxConfig(
        enabled=True, allowed_domains=["github.com"], writable=[tmp_path / "proj"],
        deny_read=[tmp_path / "keys"], excluded_commands=["docker"]))
    await dispatch("/sandbox", ctx)
    lines = output(ctx).splitlines()
    at = lines.index("Sandbox:      enabled but unavailable: Bash commands run unsandboxed")
    assert lines[at + 1:] == [
        "Auto-allow:   on (autoAllowBashIfSandboxed)",
        "Unsandboxed:  allowed with approval (dangerouslyDisableSandbox)",
        "Network:      only github.com (through a proxy)",
        "Writable folders (plus a private /tmp and the session's temp folder):",
        f"  {tmp_path / 'proj'}",
        "Read-only inside them (denyWrite, Edit deny rules):",
        "  (none)",
        "Denied reads (denyRead, Read deny rules):",
        f"  {tmp_path / 'keys'}",
        "Allowed reads inside denied ones (allowRead):",
        "  (none)",
        "Excluded commands (run outside, with normal permissions):",
        "  docker",
    ]


async def test_memory_lists_the_claude_md_files_and_the_memories(engine: QueryEngine,
                                                                 tmp_path: Path) -> None:
    ctx = make_ctx(engine, tmp_path)
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "MEMORY.md").write_text("- [tabs](tabs.md) — tabs\n")
    (folder / "tabs.md").write_text("---\nname: tabs\n---\nTabs.\n")
    ctx.runtime.memory_dir = folder
    await dispatch("/memory", ctx)
    def squeezed(text: str) -> str:  # long paths wrap wherever the width falls
        return "".join(text.split())

    text = squeezed(output(ctx))
    assert squeezed(f"Project memory: {ctx.cwd / 'CLAUDE.md'} (none yet)") in text
    assert squeezed(f"Auto-memory index: {folder / 'MEMORY.md'} Memory: tabs:") in text
    assert squeezed(f"Memory: tabs: {folder / 'tabs.md'} Open one") in text
