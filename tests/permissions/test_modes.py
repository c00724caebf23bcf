"""Modes × kinds of call; hidden tools; deny > ask > allow across settings files; anchors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

import pytest

from cc.config.settings import load_settings, settings_paths
from cc.permissions.checker import PermissionChecker
from cc.permissions.context import build_permission_context
from cc.tools.base import Tool, ToolInput
from tests.permissions.conftest import DEFAULT_INPUT, TOOLS, Proj, check, make_checker

MODES = ("default", "acceptEdits", "plan", "bypassPermissions", "dontAsk")


def calls(proj: Proj) -> dict[str, tuple[str, dict[str, Any]]]:
    return {
        "read inside": ("Read", {"file_path": str(proj.root / "a")}),
        "read outside": ("Read", {"file_path": str(proj.outside / "secret.txt")}),
        "edit inside": ("Edit", {"file_path": str(proj.root / "a")}),
        "edit outside": ("Edit", {"file_path": str(proj.outside / "secret.txt")}),
        "bash read-only": ("Bash", {"command": "ls -la && git status"}),
        "bash write": ("Bash", {"command": "touch new.txt"}),
        "protected file": ("Write", {"file_path": str(proj.root / ".claude/settings.json")}),
    }


EXPECTED = {  # default, acceptEdits, plan, bypassPermissions, dontAsk (before dontAsk denies)
    "read inside": ("allow", "allow", "allow", "allow", "allow"),
    "read outside": ("ask", "ask", "ask", "allow", "ask"),
    "edit inside": ("ask", "allow", "deny", "allow", "ask"),
    "edit outside": ("ask", "ask", "deny", "allow", "ask"),
    "bash read-only": ("allow", "allow", "allow", "allow", "allow"),
    "bash write": ("ask", "allow", "deny", "allow", "ask"),
    "protected file": ("ask", "ask", "deny", "allow", "ask"),
}


@pytest.mark.parametrize("case", list(EXPECTED))
@pytest.mark.parametrize("mode", MODES)
def test_mode_table(proj: Proj, mode: str, case: str) -> None:
    tool_name, inp = calls(proj)[case]
    tool = TOOLS[tool_name]
    data = {**DEFAULT_INPUT.get(tool_name, {}), **inp}
    verdict, _ = make_checker(proj, mode).evaluate(tool, tool.input_model.model_validate(data))
    assert verdict.behavior == EXPECTED[case][MODES.index(mode)], verdict


async def test_what_would_ask_is_denied_with_a_reason(proj: Proj) -> None:
    edit = {"file_path": str(proj.root / "a")}
    dont = await check(make_checker(proj, "dontAsk"), "Edit", **edit)
    assert dont.behavior == "deny" and "dontAsk" in (dont.message or "")
    alone = await check(make_checker(proj, "default"), "Edit", **edit)
    assert alone.behavior == "deny" and "non-interactive" in (alone.message or "")
    assert alone.message.startswith(f"Permission to edit {proj.root / 'a'} was denied")
    plan = await check(make_checker(proj, "plan"), "Bash", command="rm -rf build")
    assert plan.behavior == "deny" and "plan mode" in (plan.message or "")


def test_manual_is_default_and_unknown_modes_warn(proj: Proj) -> None:
    assert make_checker(proj, "manual").mode == "default"
    checker = make_checker(proj, "auto")
    assert checker.mode == "default" and any("auto" in w for w in checker.context.warnings)
    checker.mode = "acceptEdits"
    assert checker.context.mode == "acceptEdits"
    with pytest.raises(ValueError):
        checker.mode = "yolo"


def test_bypass_can_be_disabled_by_settings(proj: Proj) -> None:
    flag = json.dumps({"permissions": {"disableBypassPermissionsMode": "disable"}})
    settings = load_settings(proj.root, proj.config, flag_settings=flag)
    checker = make_checker(proj, "bypassPermissions", settings=settings)
    assert checker.mode == "default"
    with pytest.raises(ValueError):
        checker.mode = "bypassPermissions"


# --- hidden tools and bare rules ---------------------------------------------------------------


async def test_disallowed_bare_names_hide_tools(proj: Proj) -> None:
    checker = make_checker(proj, deny=("Edit", "mcp__*", "mcp__github", "Bash(rm *)"))
    assert checker.hidden_tools() == {"Edit", "mcp__*", "mcp__github__*"}
    assert checker.hides("mcp__x__y") and checker.hides("Edit") and not checker.hides("Bash")
    decision = await check(checker, "Edit", file_path=str(proj.root / "a"))
    assert decision.message == (f"Permission to edit {proj.root / 'a'} was denied: it matches "
                                "the deny rule Edit.")


async def test_star_deny_hides_everything_and_denies_bash(proj: Proj) -> None:
    checker = make_checker(proj, "bypassPermissions", deny=("*",))
    assert checker.hides("Read") and checker.hides("mcp__a__b")
    assert (await check(checker, "Bash", command="ls")).behavior == "deny"


def test_rules_summary(proj: Proj) -> None:
    checker = make_checker(proj, allow=("Read", "Bash(git *)"), deny=("WebFetch",),
                           ask=("Bash(git push *)",))
    assert checker.rules_summary() == {"allow": ["Read", "Bash(git *)"], "deny": ["WebFetch"],
                                       "ask": ["Bash(git push *)"]}


async def test_param_rules(proj: Proj) -> None:
    checker = make_checker(proj, "bypassPermissions", deny=("Bash(run_in_background:true)",))
    bg = await check(checker, "Bash", command="sleep 1", run_in_background=True)
    assert bg.behavior == "deny"
    assert (await check(checker, "Bash", command="sleep 1")).behavior == "allow"


class FetchInput(ToolInput):
    url: str
    prompt: str = ""


class FakeWebFetch(Tool):
    name: ClassVar[str] = "WebFetch"
    input_model: ClassVar[type[ToolInput]] = FetchInput

    def is_read_only(self, inp: ToolInput) -> bool:
        return True


class McpInput(ToolInput):
    q: str = ""


class McpTool(Tool):
    name: ClassVar[str] = "mcp__github__get_issue"
    input_model: ClassVar[type[ToolInput]] = McpInput


@pytest.mark.parametrize(("rules", "url", "expected"), [
    ((), "https://example.com/x", "ask"),
    (("WebFetch(domain:example.com)",), "https://EXAMPLE.com/x", "allow"),
    (("WebFetch(domain:example.com)",), "https://docs.example.com/x", "ask"),
    (("WebFetch(domain:*.example.com)",), "https://a.docs.example.com/x", "allow"),
    (("WebFetch(domain:*.example.com)",), "https://example.com/x", "ask"),
    (("WebFetch",), "https://anything.org", "allow"),
])
def test_webfetch_domains(proj: Proj, rules: tuple[str, ...], url: str, expected: str) -> None:
    checker = make_checker(proj, allow=rules)
    verdict, said = checker.evaluate(FakeWebFetch(), FetchInput(url=url))
    assert verdict.behavior == expected
    if expected == "ask":
        host = url.split("/")[2].lower()
        assert verdict.suggestions == (f"WebFetch(domain:{host})",)


@pytest.mark.parametrize(("allow", "deny", "expected"), [
    ((), (), "ask"),
    (("mcp__github",), (), "allow"),
    (("mcp__github__*",), (), "allow"),
    (("mcp__github__get_*",), (), "allow"),
    (("mcp__github__get_issue",), (), "allow"),
    (("mcp__gitlab",), (), "ask"),
    (("mcp__github",), ("mcp__github__get_issue",), "deny"),
    (("mcp__github",), ("mcp__*",), "deny"),
])
def test_mcp_rules(proj: Proj, allow: tuple[str, ...], deny: tuple[str, ...],
                   expected: str) -> None:
    verdict, _ = make_checker(proj, allow=allow, deny=deny).evaluate(McpTool(), McpInput())
    assert verdict.behavior == expected


def test_an_unanchored_allow_glob_is_ignored_with_a_warning(proj: Proj) -> None:
    checker = make_checker(proj, allow=("mcp__*", "Bash(git *", "Write(./x/**)"))
    warnings = "\n".join(checker.context.warnings)
    assert "mcp__*" in warnings and "Bash(git *" in warnings and "never consulted" in warnings
    assert checker.rules_summary()["allow"] == ["Write(./x/**)"]


# --- settings files ----------------------------------------------------------------------------


def write_settings(proj: Proj, source: str, data: dict[str, Any]) -> Path:
    path = settings_paths(proj.root, proj.config)[source]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return path


def checker_from_files(proj: Proj, flag: str | None = None, **kw: Any) -> PermissionChecker:
    settings = load_settings(proj.root, proj.config, flag_settings=flag)
    ctx = build_permission_context(settings, cwd=proj.root, config_dir=proj.config,
                                   mode=kw.get("mode", "default"),
                                   allowed_tools=list(kw.get("allowed", [])),
                                   disallowed_tools=list(kw.get("disallowed", [])), add_dirs=[],
                                   home=proj.home)
    return PermissionChecker(ctx)


@pytest.mark.parametrize("layout", [
    {"user": "allow", "project": "ask", "local": "deny"},
    {"user": "deny", "project": "ask", "local": "allow"},
    {"user": "ask", "project": "deny", "local": "allow"},
])
def test_deny_beats_ask_beats_allow_across_files(proj: Proj, layout: dict[str, str]) -> None:
    rules = {"allow": "Bash(git *)", "ask": "Bash(git push *)", "deny": "Bash(git push -f *)"}
    for source, behavior in layout.items():
        write_settings(proj, source, {"permissions": {behavior: [rules[behavior]]}})
    checker = checker_from_files(proj)
    bash = TOOLS["Bash"]

    def verdict(command: str) -> str:
        inp = bash.input_model.model_validate({"command": command})
        return checker.evaluate(bash, inp)[0].behavior

    assert verdict("git log") == "allow"
    assert verdict("git push origin main") == "ask"
    assert verdict("git push -f origin main") == "deny"


def test_cli_flags_add_rules_and_deny_wins(proj: Proj) -> None:
    write_settings(proj, "local", {"permissions": {"allow": ["Bash(curl *)"]}})
    checker = checker_from_files(proj, allowed=["Bash(npm test *)"],
                                 disallowed=["Bash(curl *)"])
    bash = TOOLS["Bash"]
    curl = checker.evaluate(bash, bash.input_model.model_validate({"command": "curl x"}))[0]
    npm = checker.evaluate(bash, bash.input_model.model_validate({"command": "npm test"}))[0]
    assert (curl.behavior, npm.behavior) == ("deny", "allow")


def test_slash_paths_are_anchored_at_each_settings_source(proj: Proj) -> None:
    flag_file = proj.outside / "flags.json"
    flag_file.write_text(json.dumps({"permissions": {"allow": ["Edit(/flag/**)"]}}))
    write_settings(proj, "user", {"permissions": {"allow": ["Edit(/user/**)"]}})
    write_settings(proj, "project", {"permissions": {"allow": ["Edit(/project/**)"]}})
    write_settings(proj, "local", {"permissions": {"allow": ["Edit(/local/**)"]}})
    checker = checker_from_files(proj, flag=str(flag_file))
    edit = TOOLS["Edit"]

    def verdict(path: Path) -> str:
        inp = edit.input_model.model_validate({"file_path": str(path), "old_string": "a",
                                               "new_string": "b"})
        return checker.evaluate(edit, inp)[0].behavior

    assert verdict(proj.config / "user/x") == "allow"
    assert verdict(proj.root / "user/x") == "ask"
    assert verdict(proj.root / "project/x") == "allow"
    assert verdict(proj.root / "local/x") == "allow"
    assert verdict(proj.outside / "flag/x") == "allow"
    assert verdict(proj.root / "flag/x") == "ask"


def test_additional_directories_from_settings_and_flags(proj: Proj) -> None:
    write_settings(proj, "project", {"permissions": {"additionalDirectories": [
        str(proj.outside), "../missing"]}})
    settings = load_settings(proj.root, proj.config)
    ctx = build_permission_context(settings, cwd=proj.root, config_dir=proj.config,
                                   mode="default", allowed_tools=[], disallowed_tools=[],
                                   add_dirs=[str(proj.home), str(proj.root / "nope")],
                                   home=proj.home)
    assert ctx.additional_dirs == [proj.outside, proj.home]
    assert len(ctx.warnings) == 2 and any("--add-dir" in w for w in ctx.warnings)


def test_bad_permission_shapes_warn(proj: Proj) -> None:
    write_settings(proj, "user", {"permissions": {"allow": "Bash", "deny": [3]}})
    write_settings(proj, "project", {"permissions": ["Bash"]})
    checker = checker_from_files(proj)
    assert len(checker.context.warnings) == 3
    assert checker.rules_summary() == {"allow": [], "deny": [], "ask": []}


def test_the_checker_owns_the_mode_and_tells_of_changes(proj: Proj) -> None:
    from cc.core.client import ModelClient
    from cc.core.credentials import Credentials
    from cc.core.pipeline.executor import ToolExecutor
    from cc.core.query_engine import EngineConfig, QueryEngine
    from cc.tools.base import ToolContext
    from cc.tools.registry import ToolRegistry

    checker = make_checker(proj)
    heard: list[str] = []
    checker.on_mode_change(heard.append)
    registry = ToolRegistry([])
    executor = ToolExecutor(registry, ToolContext(cwd=proj.root), permissions=checker)
    engine = QueryEngine(EngineConfig(model="m", system=[]), ModelClient(Credentials()),
                         registry, executor)
    checker.mode = "acceptEdits"
    checker.mode = "acceptEdits"  # no change, no news
    checker.mode = "plan"
    assert heard == ["acceptEdits", "plan"]
    assert engine.permission_mode == "plan"
    with pytest.raises(ValueError):
        checker.mode = "sideways"
    assert heard == ["acceptEdits", "plan"] and engine.permission_mode == "plan"
