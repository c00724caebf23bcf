"""What a model alias, the effort and the thinking settings put on the wire, for
Anthropic's API and for another endpoint (issue 24, item 1).

Anthropic's API is reached for real by name: the base URL is `http://api.anthropic.com`
and the fake serves as the HTTP proxy, so the host cc decides on is Anthropic's. The
figures are what Claude Code 2.1.332 sent for the same command lines.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import Project
from tests.fakeapi import Fault, Reply, text, tool_use

CURRENT_BETAS = ("claude-code-20250219,interleaved-thinking-2025-05-14,"
                 "context-management-2025-06-27,per-turn-control-2026-07-01,"
                 "mid-conversation-tool-changes-2026-07-01,thinking-token-count-2026-05-13,"
                 "advanced-tool-use-2025-11-20,effort-2025-11-24")
CLEAR_THINKING = {"edits": [{"type": "clear_thinking_20251015", "keep": "all"}]}


def as_anthropic(project: Project) -> None:
    """Requests go to https://api.anthropic.com's name, through the fake as a proxy."""
    project.env.update(ANTHROPIC_BASE_URL="http://api.anthropic.com",
                       HTTP_PROXY=project.api.base_url, NO_PROXY="", no_proxy="")


@pytest.mark.parametrize(("alias", "model"), [
    ("opus", "claude-opus-5-5"), ("sonnet", "claude-sonnet-5-5"),
    ("haiku", "claude-haiku-5-5"), ("fable", "claude-fable-5-2"),
    ("best", "claude-opus-5-5"), ("sonnet[1m]", "claude-sonnet-5-5"),
    ("opusplan", "claude-sonnet-5-5"),
])
def test_an_alias_sends_what_claude_code_sends_to_anthropic(project: Project, alias: str,
                                                           model: str) -> None:
    as_anthropic(project)
    project.api.script(Reply([text("ok")]))
    run = project.run("-p", "hi", "--model", alias)
    assert run.returncode == 0, run.stderr
    sent = project.api.requests[-1]
    assert sent.headers["host"] == "api.anthropic.com"
    body = sent.body
    assert (body["model"], body["max_tokens"]) == (model, 128000)
    assert body["thinking"] == {"type": "adaptive", "display": "omitted"}
    assert body["output_config"] == {"effort": "medium"}
    assert body["context_management"] == CLEAR_THINKING
    assert sent.headers["anthropic-beta"] == CURRENT_BETAS
    assert sent.headers["x-app"] == "cli"
    user = json.loads(body["metadata"]["user_id"])
    assert user["session_id"] == sent.headers["x-claude-code-session-id"]
    assert len(user["device_id"]) == 64 and user["account_uuid"] == ""
    project.api.assert_clean()


def test_effort_setting_flag_and_an_older_model(project: Project) -> None:
    as_anthropic(project)
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "settings.json").write_text('{"effortLevel": "low"}')
    project.api.script(Reply([text("a")]), Reply([text("b")]), Reply([text("c")]))
    assert project.run("-p", "hi").returncode == 0
    assert project.api.bodies[-1]["output_config"] == {"effort": "low"}
    assert project.run("-p", "hi", "--effort", "xhigh").returncode == 0
    assert project.api.bodies[-1]["output_config"] == {"effort": "xhigh"}
    # a model that thinks on a budget: all of its cap but one token, and no effort
    assert project.run("-p", "hi", "--model", "claude-sonnet-4-5[1m]").returncode == 0
    sent = project.api.requests[-1]
    assert sent.body["model"] == "claude-sonnet-4-5" and sent.body["max_tokens"] == 32000
    assert sent.body["thinking"] == {"type": "enabled", "budget_tokens": 31999,
                                     "display": "omitted"}
    assert "output_config" not in sent.body
    assert "context-1m-2025-08-07" in sent.headers["anthropic-beta"].split(",")
    # the device id stays the same from run to run
    ids = {json.loads(b["metadata"]["user_id"])["device_id"] for b in project.api.bodies}
    assert len(ids) == 1


def test_the_environment_reaches_the_request(project: Project) -> None:
    as_anthropic(project)
    project.env.update(ANTHROPIC_CUSTOM_HEADERS="X-Team: tools\nX-Trace: 7",
                       ANTHROPIC_DEFAULT_SONNET_MODEL="claude-sonnet-4-5",
                       CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS="1")
    project.api.script(Reply([text("ok")]), Reply([text("ok")]))
    assert project.run("-p", "hi", "--model", "sonnet").returncode == 0
    sent = project.api.requests[-1]
    assert (sent.headers["x-team"], sent.headers["x-trace"]) == ("tools", "7")
    assert sent.body["model"] == "claude-sonnet-4-5"
    assert sent.headers["anthropic-beta"] == "claude-code-20250219,interleaved-thinking-2025-05-14"
    assert sent.body["thinking"] == {"type": "enabled", "budget_tokens": 31999}
    assert "context_management" not in sent.body
    # MAX_THINKING_TOKENS=0 turns thinking off
    project.env["MAX_THINKING_TOKENS"] = "0"
    assert project.run("-p", "hi", "--model", "opus").returncode == 0
    assert "thinking" not in project.api.bodies[-1]


def test_another_endpoint_gets_plain_requests(project: Project) -> None:
    """The fake's own URL is not Anthropic's: no beta, no field a compatible server may
    not know; the alias and the cap are the same."""
    project.api.script(Reply([text("ok")]), Reply([text("ok")]))
    run = project.run("-p", "hi", "--model", "sonnet", "--effort", "high")
    assert run.returncode == 0, run.stderr
    sent = project.api.requests[-1]
    assert "anthropic-beta" not in sent.headers
    assert (sent.body["model"], sent.body["max_tokens"]) == ("claude-sonnet-5-5", 128000)
    for key in ("thinking", "output_config", "context_management"):
        assert key not in sent.body
    assert "metadata" in sent.body
    # a configured thinking budget is a field every compatible server takes
    assert project.run("-p", "hi", "--max-thinking-tokens", "4000").returncode == 0
    assert project.api.bodies[-1]["thinking"] == {"type": "enabled", "budget_tokens": 4000}


def test_an_endpoint_that_refuses_an_extension_gets_plain_requests_from_then_on(
        project: Project) -> None:
    """Configured as Anthropic's (CC_API_DIALECT=full), a gateway that refuses a beta:
    the request goes again without, and so do the next ones; the answer is not lost."""
    project.env.update(CC_API_DIALECT="full", ENABLE_TOOL_SEARCH="false")
    notes = project.root / "notes.txt"
    notes.write_text("a note\n")
    project.api.script(
        Fault(400, message="Unexpected value(s) `per-turn-control-2026-07-01` for the "
                           "`anthropic-beta` header", error_type="invalid_request_error"),
        Reply([tool_use("Read", {"file_path": str(notes)})]), Reply([text("read it")]))
    run = project.run("-p", "hi", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["result"] == "read it"
    refused, again, then = project.api.requests
    assert "anthropic-beta" in refused.headers and "output_config" in refused.body
    for sent in (again, then):
        assert "anthropic-beta" not in sent.headers and "output_config" not in sent.body
