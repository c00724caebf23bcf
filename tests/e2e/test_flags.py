"""Claude Code's flags: those cc implements work, the others are refused by name
(issue 24, item 8)."""

from __future__ import annotations

import json

import pytest

from cc.cli_args import UNSUPPORTED
from tests.conftest import Project
from tests.fakeapi import Reply, text


@pytest.mark.parametrize("flags", [entry[0] for entry in UNSUPPORTED],
                         ids=[entry[0][-1] for entry in UNSUPPORTED])
def test_a_flag_cc_lacks_is_refused_by_name(project: Project, flags: tuple[str, ...]) -> None:
    for flag in flags:
        for given in ((flag,), (flag, "value")):
            run = project.run("-p", "hi", *given)
            assert run.returncode == 1
            assert f"{flag} is a Claude Code flag that cc does not support" in run.stderr
    assert project.api.bodies == []


def test_bare_leaves_out_what_the_project_would_add(project: Project) -> None:
    claude = project.root / ".claude"
    (claude / "commands").mkdir(parents=True)
    (project.root / "CLAUDE.md").write_text("PROJECT-RULE-XYZZY\n")
    hook = project.root / "hook-ran"
    (claude / "settings.json").write_text(json.dumps({"hooks": {"UserPromptSubmit": [
        {"hooks": [{"type": "command", "command": f"touch {hook}"}]}]}}))
    (claude / "commands" / "greet.md").write_text("Say GREETING-PLUGH\n")
    project.api.script(Reply([text("plain")]), Reply([text("full")]))
    assert project.run("-p", "/greet", "--bare").returncode == 0
    bare = project.api.bodies[-1]
    assert not hook.exists()
    assert project.run("-p", "/greet").returncode == 0
    full = project.api.bodies[-1]
    assert hook.exists()  # (the hook is real: it runs without --bare)
    for body, present in ((bare, False), (full, True)):
        sent = json.dumps(body)
        assert ("PROJECT-RULE-XYZZY" in sent) is present
        assert ("GREETING-PLUGH" in sent) is present
        assert ("Co-Authored-By" in sent) is present


def test_disable_slash_commands_sends_a_command_as_text(project: Project) -> None:
    commands = project.root / ".claude" / "commands"
    commands.mkdir(parents=True)
    (commands / "greet.md").write_text("Say GREETING-PLUGH\n")
    project.api.script(Reply([text("ok")]))
    assert project.run("-p", "/greet", "--disable-slash-commands").returncode == 0
    sent = json.dumps(project.api.bodies[-1]["messages"])
    assert "GREETING-PLUGH" not in sent and "/greet" in sent


def test_debug_file_and_filter(project: Project) -> None:
    log = project.root / "debug.txt"
    project.api.script(Reply([text("ok")]), Reply([text("ok")]))
    assert project.run("-p", "hi", "--debug-file", str(log)).returncode == 0
    assert "cc.core.client" in log.read_text() and "claude-opus-5-5" in log.read_text()
    run = project.run("-p", "hi", "--debug=!core")
    assert run.returncode == 0 and "cc.core.client" not in run.stderr


def test_autocompact_and_the_bypass_offer_reach_the_session() -> None:
    from cc.cli_args import build_parser
    from cc.compact.auto import threshold

    args = build_parser().parse_args(["--autocompact", "150k",
                                      "--allow-dangerously-skip-permissions"])
    assert args.autocompact == 150_000 and args.allow_dangerously_skip_permissions
    small = threshold(1_000_000, {"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "150000"}, {})
    assert small is not None and small <= 150_000
    assert build_parser().parse_args(["--autocompact", "auto"]).autocompact is None


def test_manual_is_the_default_mode_by_flag_and_by_settings(project: Project) -> None:
    project.api.script(Reply([text("a")]), Reply([text("b")]))
    stream = ("--output-format", "stream-json", "--verbose")
    run = project.run("-p", "hi", "--permission-mode", "manual", *stream)
    assert run.returncode == 0, run.stderr
    assert run.records()[0]["permissionMode"] == "default"
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"defaultMode": "manual"}}))
    run = project.run("-p", "hi", *stream)
    assert run.returncode == 0, run.stderr
    assert run.records()[0]["permissionMode"] == "default" and "Warning" not in run.stderr


def test_help_is_laid_out_as_claude_code_s(project: Project) -> None:
    run = project.run("--help")
    assert run.returncode == 0
    lines = run.stdout.splitlines()
    assert lines[0] == "Usage: python -m cc [options] [command] [prompt]"
    assert "Arguments:" in lines and "Options:" in lines
    for shown in ("-c, --continue", "--output-format <format>", "-r, --resume [value]",
                  "--add-dir <directories...>", "-h, --help", "--bare"):
        assert any(line.strip().startswith(shown) for line in lines), shown
    assert "--chrome" not in run.stdout  # refused flags are not offered


def test_name_titles_the_session_as_rename_does(project: Project) -> None:
    project.api.script(Reply([text("ok")]))
    run = project.run("-p", "hi", "--name", "release prep", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    (path,) = project.config.glob("projects/*/*.jsonl")
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    titles = [line["customTitle"] for line in lines if line["type"] == "custom-title"]
    assert titles == ["release prep"]
    assert {line["sessionId"] for line in lines if "sessionId" in line} == {
        run.json()["session_id"]}


def test_init_init_only_and_maintenance_run_the_setup_hooks(project: Project) -> None:
    log = project.root / "hooks.log"
    record = [{"hooks": [{"type": "command", "command": f"cat >> {log}; echo >> {log}"}]}]
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "settings.json").write_text(
        json.dumps({"hooks": {"Setup": record, "SessionStart": record}}))

    def events() -> list[tuple[str, str]]:
        found = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
        log.unlink()
        return [(e["hook_event_name"], e.get("trigger") or e.get("source")) for e in found]

    run = project.run("--init-only")  # no prompt, no request: the hooks, then exit
    assert (run.returncode, run.stdout) == (0, "")
    assert events() == [("Setup", "init"), ("SessionStart", "startup")]
    assert project.api.bodies == []
    project.api.script(Reply([text("a")]), Reply([text("b")]), Reply([text("c")]))
    assert project.run("-p", "hi", "--init").returncode == 0
    assert events() == [("Setup", "init"), ("SessionStart", "startup")]
    assert project.run("-p", "hi", "--maintenance").returncode == 0
    assert events() == [("Setup", "maintenance"), ("SessionStart", "startup")]
    assert project.run("-p", "hi").returncode == 0
    assert events() == [("SessionStart", "startup")]
