"""The command line the official Agent SDK builds parses, every flag of it (but those of
the stream-json host: --input-format, --permission-prompt-tool, --json-schema)."""

from __future__ import annotations

import pytest

from cc.app.options import resolve_options
from cc.cli_args import build_parser
from cc.config.settings import Settings

#: Flags the SDK may pass that the stream-json host reads (not this parser's to check).
HOST_FLAGS = {"--input-format", "--permission-prompt-tool", "--json-schema"}
SID, AT, TURN = ("5b9a3c1e-0f4d-4a7b-8c2d-1e3f5a7b9c0d", "6b9a3c1e-0f4d-4a7b-8c2d-1e3f5a7b9c0d",
                 "7b9a3c1e-0f4d-4a7b-8c2d-1e3f5a7b9c0d")


def sdk_argv(**options: object) -> list[str]:
    """The argv the installed SDK would start Claude Code with, host flags left out."""
    sdk = pytest.importorskip("claude_agent_sdk", reason="the Agent SDK is not installed")
    try:
        from claude_agent_sdk._internal.transport.subprocess_cli import SubprocessCLITransport
    except ImportError:
        pytest.skip("this version of the Agent SDK builds its command line elsewhere")
    transport = SubprocessCLITransport("", sdk.ClaudeAgentOptions(**options))
    transport._cli_path = "claude"  # noqa: SLF001 - the SDK's own seam
    argv = transport._build_command()[1:]  # noqa: SLF001
    out, skip = [], False
    for word in argv:
        if skip:
            skip = False
        elif word in HOST_FLAGS:
            skip = True
        else:
            out.append(word)
    return out


def test_every_flag_the_sdk_writes_parses(tmp_path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir(), two.mkdir()
    argv = sdk_argv(
        system_prompt="be brief", tools=["Read", "Bash"], allowed_tools=["Read"], max_turns=3,
        max_budget_usd=1.5, disallowed_tools=["Write"], task_budget={"total": 5000},
        model="sonnet", fallback_model="haiku", betas=["context-1m-2025-08-07"],
        permission_mode="acceptEdits", continue_conversation=True, resume=SID, session_id=AT,
        settings='{"model": "opus"}', add_dirs=[one, two], strict_mcp_config=True,
        mcp_servers={"x": {"command": "true"}}, include_partial_messages=True,
        include_hook_events=True, fork_session=True, resume_session_at=AT,
        resume_drops_turn=TURN, setting_sources=["user", "project"],
        plugins=[{"type": "local", "path": str(one)}], extra_args={"debug-to-stderr": None},
        thinking={"type": "adaptive", "display": "summarized"}, effort="high")
    args = build_parser().parse_args([*argv, "-p", "hi"])
    assert (args.max_budget_usd, args.task_budget, args.fallback_model) == (1.5, 5000, "haiku")
    assert (args.thinking, args.thinking_display, args.effort) == ("adaptive", "summarized",
                                                                   "high")
    assert (args.resume, args.session_id, args.resume_session_at, args.resume_drops_turn) == (
        SID, AT, AT, TURN)
    assert args.add_dir == [str(one), str(two)] and args.plugin_dirs == [str(one)]
    assert args.setting_sources == "user,project" and args.betas == ["context-1m-2025-08-07"]
    assert args.include_hook_events and args.fork_session and args.continue_
    assert args.debug_to_stderr
    options = resolve_options(args, Settings(), {})
    assert options.controls.effort == "high" and options.controls.adaptive_thinking
    assert options.fallback_models == ("claude-haiku-5-5",)


def test_the_other_forms_the_sdk_writes() -> None:
    thinking = build_parser().parse_args([*sdk_argv(max_thinking_tokens=4000), "-p", "hi"])
    assert thinking.max_thinking_tokens == 4000
    off = build_parser().parse_args([*sdk_argv(thinking={"type": "disabled"}), "-p", "hi"])
    assert off.thinking == "disabled"
    # A value that starts with a dash is bound with `=` (the SDK's guard against injection).
    extra = build_parser().parse_args([*sdk_argv(extra_args={"fallback-model": "-x"}), "-p"])
    assert extra.fallback_model == "-x"
    from claude_agent_sdk import InMemorySessionStore

    mirrored = build_parser().parse_args(
        [*sdk_argv(session_store=InMemorySessionStore()), "-p", "hi"])
    assert mirrored.session_mirror
