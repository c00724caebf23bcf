"""Loading `hooks` from every settings file: shape, defaults, warnings, matching."""

from __future__ import annotations

import json

import pytest

from cc.config.settings import load_settings
from cc.hooks.config import DEFAULT_TIMEOUT, HooksConfig, load_hooks
from tests.hooks.conftest import HookProject, command, on


def commands(config: HooksConfig, event: str, value: str | None) -> list[str]:
    return [h.command for h in config.matching(event, value)]


def test_hooks_from_all_files_are_combined_not_overridden(hp: HookProject) -> None:
    hp.settings("user", {"Stop": on("from-user")})
    hp.settings("project", {"Stop": on("from-project")})
    hp.settings("local", {"Stop": on("from-local"), "SessionEnd": on("bye")})
    config, warnings = hp.load()
    assert warnings == []
    assert commands(config, "Stop", None) == ["from-user", "from-project", "from-local"]
    assert [(r.event, r.command, r.source) for r in config.summary()] == [
        ("Stop", "from-user", "user"),
        ("Stop", "from-project", "project"),
        ("Stop", "from-local", "local"),
        ("SessionEnd", "bye", "local"),
    ]


def test_flag_settings_hooks_join_too(hp: HookProject) -> None:
    hp.settings("project", {"Stop": on("a")})
    flag = json.dumps({"hooks": {"Stop": on("b")}})
    config, _ = load_hooks(load_settings(hp.root, hp.config, flag_settings=flag))
    assert [(h.command, h.source) for h in config.matching("Stop", None)] == [
        ("a", "project"),
        ("b", "flagSettings"),
    ]


def test_identical_command_in_two_files_is_listed_once(hp: HookProject) -> None:
    hp.settings("user", {"PreToolUse": on("check", matcher="Bash")})
    hp.settings("project", {"PreToolUse": on("check", "other", matcher="*")})
    config, _ = hp.load()
    assert commands(config, "PreToolUse", "Bash") == ["check", "other"]
    assert commands(config, "PreToolUse", "Read") == ["check", "other"]


def test_timeouts_default_per_event(hp: HookProject) -> None:
    hp.settings(
        "project",
        {
            "PreToolUse": on(command("a"), command("b", timeout=5)),
            "UserPromptSubmit": on("c"),
        },
    )
    config, _ = hp.load()
    a, b = config.matching("PreToolUse", "Bash")
    assert (a.timeout, a.timeout_set) == (DEFAULT_TIMEOUT, False)
    assert DEFAULT_TIMEOUT == 600
    assert (b.timeout, b.timeout_set) == (5, True)
    assert config.matching("UserPromptSubmit", None)[0].timeout == 30


@pytest.mark.parametrize(
    ("matcher", "hits", "misses"),
    [
        ("Bash", ["Bash"], ["BashOutput", "bash", "Read"]),
        ("Edit|Write", ["Edit", "Write"], ["NotebookEdit", "MultiEdit", "Read"]),
        ("Edit, Write", ["Edit", "Write"], ["NotebookEdit"]),
        ("Notebook.*", ["NotebookEdit", "NotebookRead"], ["Edit"]),
        ("Edit.*", ["Edit", "NotebookEdit", "EditX"], ["Write"]),
        ("*", ["Bash", "mcp__x__y"], []),
        ("", ["Bash", "Read"], []),
        (None, ["Bash", "Read"], []),
        ("mcp__memory__.*", ["mcp__memory__create_entities"], ["mcp__other__x", "Read"]),
        ("mcp__memory", [], ["mcp__memory__create_entities"]),
    ],
)
def test_matcher_forms(
    hp: HookProject, matcher: str | None, hits: list[str], misses: list[str]
) -> None:
    hp.settings("project", {"PreToolUse": on("hook", matcher=matcher)})
    config, warnings = hp.load()
    assert warnings == []
    for name in hits:
        assert commands(config, "PreToolUse", name) == ["hook"], name
    for name in misses:
        assert commands(config, "PreToolUse", name) == [], name


def test_events_without_matcher_support_ignore_it(hp: HookProject) -> None:
    hp.settings(
        "project",
        {"Stop": on("s", matcher="Bash"), "UserPromptSubmit": on("u", matcher="nothing")},
    )
    config, _ = hp.load()
    assert commands(config, "Stop", None) == ["s"]
    assert commands(config, "UserPromptSubmit", "whatever") == ["u"]


def test_session_start_precompact_notification_match_their_values(hp: HookProject) -> None:
    hp.settings(
        "project",
        {
            "SessionStart": on("fresh", matcher="startup|clear"),
            "PreCompact": on("auto-only", matcher="auto"),
            "Notification": on("perm", matcher="permission_prompt"),
        },
    )
    config, _ = hp.load()
    assert commands(config, "SessionStart", "startup") == ["fresh"]
    assert commands(config, "SessionStart", "resume") == []
    assert commands(config, "PreCompact", "auto") == ["auto-only"]
    assert commands(config, "PreCompact", "manual") == []
    assert commands(config, "Notification", "permission_prompt") == ["perm"]
    assert commands(config, "Notification", "idle_prompt") == []


def test_malformed_entries_warn_and_are_skipped(hp: HookProject) -> None:
    hp.settings(
        "project",
        {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        command("good"),
                        {"type": "command"},
                        command("   "),
                        command("slow", timeout="60"),
                        command("neg", timeout=-1),
                        command("flag", timeout=True),
                        {"type": "agent", "prompt": "Evaluate $ARGUMENTS"},
                        {"command": "untyped"},
                        "not an object",
                        command("cond", **{"if": 3}),
                        {"type": "prompt", "prompt": " "},
                        {"type": "http", "url": "ftp://x"},
                        {"type": "http", "url": "http://x", "headers": {"A": 1}},
                    ],
                },
                {"matcher": 5, "hooks": [command("bad-matcher")]},
                {"matcher": "([", "hooks": [command("bad-regex")]},
                {"matcher": "Bash", "hooks": "not a list"},
                "not a group",
            ],
            "Stop": {"hooks": [command("not-a-list")]},
            "NoSuchEvent": on("x"),
            "PostToolUse": on("fine", matcher="Write"),
        },
    )
    config, warnings = hp.load()
    assert commands(config, "PreToolUse", "Bash") == ["good"]
    assert commands(config, "PostToolUse", "Write") == ["fine"]
    assert commands(config, "Stop", None) == []
    text = "\n".join(warnings)
    assert len(warnings) == 18, text
    assert all(".claude/settings.json" in w for w in warnings)
    for fragment in (
        "hooks.PreToolUse[0].hooks[1] needs a non-empty `command`",
        "hooks.PreToolUse[0].hooks[3] has an invalid timeout '60'",
        "hooks.PreToolUse[0].hooks[4] has an invalid timeout -1",
        "hooks.PreToolUse[0].hooks[5] has an invalid timeout True",
        'hooks.PreToolUse[0].hooks[6] has type "agent", which cc does not run',
        'hooks.PreToolUse[0].hooks[7] needs "type": "command", "prompt" or "http"',
        "hooks.PreToolUse[0].hooks[10] needs a non-empty `prompt`",
        "hooks.PreToolUse[0].hooks[11] needs a `url` starting with http://",
        "hooks.PreToolUse[0].hooks[12] has `headers` that are not an object of strings",
        "hooks.PreToolUse[1] has a `matcher` that is not a string",
        "hooks.PreToolUse[2] has an invalid matcher",
        "hooks.PreToolUse[3] needs a `hooks` list",
        "hooks.PreToolUse[4] must be an object",
        "hooks.Stop must be a list",
        "unknown hook event 'NoSuchEvent'",
    ):
        assert fragment in text, fragment


def test_hooks_that_are_not_an_object_warn(hp: HookProject) -> None:
    hp.settings("user", ["PreToolUse"])
    hp.settings("project", {"Stop": on("ok")})
    config, warnings = hp.load()
    assert len(warnings) == 1 and "`hooks` must be an object" in warnings[0]
    assert commands(config, "Stop", None) == ["ok"]


def test_disable_all_hooks(hp: HookProject) -> None:
    hp.settings("user", {"Stop": on("a")})
    hp.settings("local", {}, disableAllHooks=True)
    config, warnings = hp.load()
    assert not config and warnings == []
    assert commands(config, "Stop", None) == []


def test_exec_form_and_if_are_read(hp: HookProject) -> None:
    hp.settings(
        "project",
        {"PreToolUse": on(command("/bin/echo", args=["a", "b"], **{"if": "Bash(rm *)"}))},
    )
    config, warnings = hp.load()
    assert warnings == []
    (hook,) = config.matching("PreToolUse", "Bash")
    assert (hook.args, hook.condition) == (("a", "b"), "Bash(rm *)")
    assert config.summary()[0].command == "/bin/echo a b"
