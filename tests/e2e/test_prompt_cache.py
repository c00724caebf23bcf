"""The prompt cache's lifetime (issue 25, item 5): the settings and environment variables
Claude Code reads, and what they put on the wire (as Claude Code 2.1.332 was seen
sending: `ttl: 1h` on every breakpoint with the extended-cache-ttl beta, or no
breakpoint at all)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import Project
from tests.fakeapi import Reply, text

TTL_BETA = "extended-cache-ttl-2025-04-11"


def marks(body: dict[str, Any]) -> list[dict[str, Any]]:
    blocks = list(body.get("system") or []) + list(body.get("tools") or [])
    for message in body["messages"]:
        if isinstance(message["content"], list):
            blocks += message["content"]
    return [b["cache_control"] for b in blocks if "cache_control" in b]


@pytest.mark.parametrize(("env", "settings", "expected"), [
    ({}, {}, {"type": "ephemeral"}),
    ({"ENABLE_PROMPT_CACHING_1H": "1"}, {}, {"type": "ephemeral", "ttl": "1h"}),
    ({}, {"promptCacheTtl": "1h"}, {"type": "ephemeral", "ttl": "1h"}),
    ({"FORCE_PROMPT_CACHING_5M": "1"}, {"promptCacheTtl": "1h"}, {"type": "ephemeral"}),
    ({"DISABLE_PROMPT_CACHING": "1"}, {"promptCacheTtl": "1h"}, None),
])
def test_the_cache_lifetime_on_the_wire(project: Project, env: dict[str, str],
                                        settings: dict[str, str], expected: Any) -> None:
    project.env.update(CC_API_DIALECT="full", **env)
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "settings.json").write_text(json.dumps(settings))
    project.api.script(Reply([text("ok")]))
    assert project.run("-p", "hi").returncode == 0
    sent = project.api.requests[-1]
    got = marks(sent.body)
    if expected is None:
        assert got == []
    else:
        assert got and all(mark == expected for mark in got)
    betas = sent.headers.get("anthropic-beta", "").split(",")
    assert (TTL_BETA in betas) is (expected is not None and "ttl" in expected)


def test_another_endpoint_keeps_the_default_lifetime_and_a_bad_value_is_told(
        project: Project) -> None:
    (project.root / ".claude").mkdir()
    settings = project.root / ".claude" / "settings.json"
    settings.write_text(json.dumps({"promptCacheTtl": "1h"}))
    project.api.script(Reply([text("ok")]), Reply([text("ok")]))
    assert project.run("-p", "hi").returncode == 0  # the fake is not Anthropic's API
    assert set(map(json.dumps, marks(project.api.bodies[-1]))) == {'{"type": "ephemeral"}'}
    settings.write_text(json.dumps({"promptCacheTtl": "1 hour"}))
    run = project.run("-p", "hi")
    assert run.returncode == 0 and "promptCacheTtl '1 hour' is not 5m or 1h" in run.stderr


def test_sub_agents_take_their_own_lifetime() -> None:
    from cc.core.controls import RequestControls

    controls = RequestControls(cache_ttl="1h", subagent_cache_ttl="5m")
    assert controls.cache_control() == {"type": "ephemeral", "ttl": "1h"}
    assert controls.for_subagent().cache_control() == {"type": "ephemeral"}
    assert RequestControls(cache_ttl="1h").for_subagent().cache_ttl == "1h"
    assert RequestControls(cache_ttl="off").cache_control() is None
