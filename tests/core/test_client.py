"""The model client: request parameters (cache breakpoints, thinking) and one real stream."""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator
from typing import Any

import pytest

from cc.core.client import ModelClient, ModelRequest
from cc.core.credentials import Credentials
from cc.core.events import BlockComplete, TextDelta, ThinkingStarted
from cc.errors import ModelCallError
from cc.models.content_blocks import RedactedThinkingBlock, TextBlock, ThinkingBlock, ToolUseBlock
from cc.models.messages import AssistantMessage
from cc.prompts.builder import PromptSection
from tests.fakeapi import FakeAPI, Reply, redacted_thinking, text, thinking, tool_use, validate

MODEL = "claude-sonnet-4-6"
EPHEMERAL = {"type": "ephemeral"}

SECTIONS = [
    PromptSection("intro", "You are an agent.", cacheable=True),
    PromptSection("tools", "Use tools well.", cacheable=True),
    PromptSection("blank", "   \n", cacheable=True),  # dropped: nothing to send
    PromptSection("env", "cwd: /tmp/x", cacheable=False),
    PromptSection("memory", "Remember: tabs.", cacheable=False),
]

CONVERSATION: list[dict[str, Any]] = [
    {"role": "user", "content": [{"type": "text", "text": "read a.txt"}]},
    {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "hmm", "signature": "sig1"},
        {"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {"file_path": "/a.txt"}},
    ]},
    {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "A"},
        {"type": "text", "text": "and now b"},
    ]},
]

TOOLS = [
    {"name": "Read", "description": "Read a file", "input_schema": {"type": "object", "properties": {}}},
    {"name": "Bash", "description": "Run a command", "input_schema": {"type": "object", "properties": {}}},
]


def request(**kw: Any) -> ModelRequest:
    base: dict[str, Any] = dict(model=MODEL, max_tokens=8192, system=SECTIONS,
                                messages=copy.deepcopy(CONVERSATION), tools=TOOLS)
    return ModelRequest(**(base | kw))


def markers(params: dict[str, Any]) -> int:
    """Every cache_control marker anywhere in the request."""

    def count(node: Any) -> int:
        if isinstance(node, dict):
            return int("cache_control" in node) + sum(count(v) for v in node.values())
        if isinstance(node, list):
            return sum(count(v) for v in node)
        return 0

    return count(params)


# --- to_params(): system -----------------------------------------------------------------


def test_system_blocks_have_one_breakpoint_closing_the_cacheable_prefix() -> None:
    # A block per run of static or dynamic sections, not per section: fewer bytes.
    system = request().to_params()["system"]
    assert [b["text"] for b in system] == [
        "You are an agent.\n\nUse tools well.", "cwd: /tmp/x\n\nRemember: tabs."]
    assert all(b["type"] == "text" for b in system)
    assert [("cache_control" in b) for b in system] == [True, False]
    assert system[0]["cache_control"] == EPHEMERAL


def test_a_static_section_after_a_dynamic_one_starts_a_new_block() -> None:
    sections = [PromptSection("a", "static", cacheable=True), PromptSection("b", "env", cacheable=False),
                PromptSection("c", "style", cacheable=True), PromptSection("d", "memory", cacheable=False)]
    system = request(system=sections).to_params()["system"]
    assert system == [{"type": "text", "text": "static"}, {"type": "text", "text": "env"},
                      {"type": "text", "text": "style", "cache_control": EPHEMERAL},
                      {"type": "text", "text": "memory"}]


def test_blank_cacheable_section_does_not_steal_the_breakpoint() -> None:
    sections = [PromptSection("a", "static", cacheable=True), PromptSection("b", "", cacheable=True),
                PromptSection("c", "dynamic", cacheable=False)]
    system = request(system=sections).to_params()["system"]
    assert system == [{"type": "text", "text": "static", "cache_control": EPHEMERAL},
                      {"type": "text", "text": "dynamic"}]


def test_no_cacheable_section_means_no_system_breakpoint() -> None:
    system = request(system=[PromptSection("x", "only dynamic", cacheable=False)]).to_params()["system"]
    assert system == [{"type": "text", "text": "only dynamic"}]


def test_empty_system_is_left_out() -> None:
    params = request(system=[PromptSection("x", "  ", cacheable=True)]).to_params()
    assert "system" not in params


# --- to_params(): messages ---------------------------------------------------------------


def test_message_breakpoint_on_last_block_of_last_message_only() -> None:
    params = request().to_params()
    messages = params["messages"]
    assert messages[-1]["content"][-1] == {"type": "text", "text": "and now b", "cache_control": EPHEMERAL}
    assert "cache_control" not in messages[-1]["content"][0]
    assert sum(markers(m) for m in messages) == 1
    # apart from the marker, the messages are exactly what was given
    stripped = copy.deepcopy(messages)
    del stripped[-1]["content"][-1]["cache_control"]
    assert stripped == CONVERSATION


def test_message_breakpoint_skips_trailing_thinking_blocks() -> None:
    last = {"role": "assistant", "content": [
        {"type": "text", "text": "prefill"},
        {"type": "thinking", "thinking": "t", "signature": "s"},
        {"type": "redacted_thinking", "data": "d"},
    ]}
    messages = request(messages=[CONVERSATION[0], last]).to_params()["messages"]
    content = messages[-1]["content"]
    assert content[0]["cache_control"] == EPHEMERAL
    assert "cache_control" not in content[1] and "cache_control" not in content[2]
    assert content[1] == {"type": "thinking", "thinking": "t", "signature": "s"}


def test_message_breakpoint_on_string_content() -> None:
    messages = request(messages=[{"role": "user", "content": "hi"}]).to_params()["messages"]
    assert messages == [{"role": "user", "content": [
        {"type": "text", "text": "hi", "cache_control": EPHEMERAL}]}]


def test_input_messages_are_not_mutated() -> None:
    req = request()
    before = copy.deepcopy(req.messages)
    req.to_params()
    req.to_params()
    assert req.messages == before
    assert markers({"m": req.messages}) == 0


def test_at_most_four_cache_markers_and_the_fake_api_accepts_it() -> None:
    params = request().to_params()
    assert 1 <= markers(params) <= 4
    assert markers(params) == 2  # one system, one message; tools carry none
    assert validate(params) == []
    assert params["tools"] == TOOLS and params["model"] == MODEL and params["max_tokens"] == 8192


def test_no_tools_means_no_tools_key() -> None:
    assert "tools" not in request(tools=[]).to_params()


# --- to_params(): thinking ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("budget", "max_tokens", "sent"),
    [
        (None, 8192, None),
        (0, 8192, None),
        (1023, 8192, None),  # below the API's 1024 minimum
        (1024, 8192, 1024),
        (4000, 8192, 4000),
        (8191, 8192, 8191),
        (8192, 8192, 8191),  # must stay below max_tokens
        (32000, 8192, 8191),
        (2000, 1024, None),  # clamped under max_tokens it would fall below 1024
        (2000, 1025, 1024),
    ],
)
def test_thinking_only_with_a_valid_budget(budget: int | None, max_tokens: int, sent: int | None) -> None:
    params = request(thinking_budget=budget, max_tokens=max_tokens).to_params()
    if sent is None:
        assert "thinking" not in params
    else:
        assert params["thinking"] == {"type": "enabled", "budget_tokens": sent}
        assert 1024 <= params["thinking"]["budget_tokens"] < params["max_tokens"]


# --- ModelClient.stream() against the fake server -----------------------------------------


@pytest.fixture
async def client(fake_api: FakeAPI) -> AsyncIterator[ModelClient]:
    c = ModelClient(Credentials(api_key="test-key", base_url=fake_api.base_url))
    try:
        yield c
    finally:
        await c.close()


async def run(client: ModelClient, req: ModelRequest | None = None) -> list[Any]:
    return [item async for item in client.stream(req or request())]


async def test_stream_text_tool_use_and_final_message(fake_api: FakeAPI, client: ModelClient) -> None:
    fake_api.script(Reply(
        [thinking("Let me see the file.", signature="EqQBsig/+=="),
         text("I'll read it now."),
         tool_use("Read", {"file_path": "/b.txt", "limit": 10}, id="toolu_b")],
        usage={"input_tokens": 123, "output_tokens": 45,
               "cache_read_input_tokens": 1000, "cache_creation_input_tokens": 200},
    ))
    items = await run(client)

    deltas = [i.text for i in items if isinstance(i, TextDelta)]
    assert len(deltas) > 1 and "".join(deltas) == "I'll read it now."
    assert sum(isinstance(i, ThinkingStarted) for i in items) == 1
    assert items.index(next(i for i in items if isinstance(i, ThinkingStarted))) < items.index(
        next(i for i in items if isinstance(i, TextDelta)))

    done = [i for i in items if isinstance(i, BlockComplete)]
    assert [d.index for d in done] == [0, 1, 2]
    assert done[1].block == TextBlock("I'll read it now.")
    assert done[2].block == ToolUseBlock("toolu_b", "Read", {"file_path": "/b.txt", "limit": 10})

    final = items[-1]
    assert isinstance(final, AssistantMessage)
    assert sum(isinstance(i, AssistantMessage) for i in items) == 1
    assert final.message_id and final.message_id.startswith("msg_")
    assert final.model == MODEL and final.stop_reason == "tool_use"
    assert final.usage["input_tokens"] == 123 and final.usage["output_tokens"] == 45
    assert final.usage["cache_read_input_tokens"] == 1000
    assert final.usage["cache_creation_input_tokens"] == 200
    assert final.content == [
        ThinkingBlock("Let me see the file.", "EqQBsig/+=="),
        TextBlock("I'll read it now."),
        ToolUseBlock("toolu_b", "Read", {"file_path": "/b.txt", "limit": 10}),
    ]
    assert final.tool_uses == [done[2].block]
    # the signature goes back to the API unchanged
    assert final.to_api()["content"][0]["signature"] == "EqQBsig/+=="

    body = fake_api.last_request.body
    assert body["stream"] is True and body["model"] == MODEL
    assert body["system"] == request().to_params()["system"]
    assert body["messages"] == request().to_params()["messages"]
    assert fake_api.turns_left == 0
    fake_api.assert_clean()


async def test_stream_end_turn_text_only(fake_api: FakeAPI, client: ModelClient) -> None:
    fake_api.script(Reply("Just words."))
    items = await run(client)
    assert not any(isinstance(i, ThinkingStarted) for i in items)
    final = items[-1]
    assert isinstance(final, AssistantMessage)
    assert final.stop_reason == "end_turn" and final.text == "Just words."
    assert [type(i.block) for i in items if isinstance(i, BlockComplete)] == [TextBlock]


async def test_redacted_thinking_starts_thinking_and_is_kept(fake_api: FakeAPI, client: ModelClient) -> None:
    fake_api.script(Reply([redacted_thinking("EmwKAhgB/+=="), text("ok")]))
    items = await run(client)
    assert sum(isinstance(i, ThinkingStarted) for i in items) == 1
    final = items[-1]
    assert isinstance(final, AssistantMessage)
    assert final.content[0] == RedactedThinkingBlock("EmwKAhgB/+==")


async def test_thinking_param_reaches_the_server(fake_api: FakeAPI, client: ModelClient) -> None:
    fake_api.script(Reply([thinking("t"), text("x")]))
    await run(client, request(thinking_budget=2048))
    assert fake_api.last_request.body["thinking"] == {"type": "enabled", "budget_tokens": 2048}


async def test_no_credentials_fails_before_any_request(fake_api: FakeAPI) -> None:
    fake_api.script(Reply("should not be sent"))
    client = ModelClient(Credentials(base_url=fake_api.base_url))
    with pytest.raises(ModelCallError) as info:
        await run(client)
    assert info.value.kind == "authentication_failed" and not info.value.retryable
    assert "ANTHROPIC_API_KEY" in info.value.message
    assert fake_api.requests == [] and fake_api.turns_left == 1
    await client.close()


async def test_auth_token_from_env_is_used(fake_api: FakeAPI) -> None:
    creds = Credentials.from_env({"ANTHROPIC_AUTH_TOKEN": "tok-123", "ANTHROPIC_BASE_URL": fake_api.base_url})
    assert creds.api_key is None and creds.source == "none"
    fake_api.script(Reply("hi"))
    client = ModelClient(creds)
    try:
        await run(client)
    finally:
        await client.close()
    assert fake_api.last_request.headers.get("authorization") == "Bearer tok-123"


def test_credentials_from_env_treats_empty_as_missing() -> None:
    creds = Credentials.from_env({"ANTHROPIC_API_KEY": "", "ANTHROPIC_BASE_URL": ""})
    assert creds == Credentials()
    assert Credentials.from_env({"ANTHROPIC_API_KEY": "k"}).source == "ANTHROPIC_API_KEY"


def test_a_1m_model_is_sent_without_its_suffix_and_with_the_beta() -> None:
    from cc.core.controls import CONTEXT_1M_BETA
    from cc.models.catalog import model_info, resolve_model

    params = request(model="claude-sonnet-4-5[1m]").to_params()
    assert params["model"] == "claude-sonnet-4-5"
    assert CONTEXT_1M_BETA in params["extra_headers"]["anthropic-beta"].split(",")
    assert model_info("claude-sonnet-4-5[1m]").context_window == 1_000_000
    assert CONTEXT_1M_BETA not in request(model="claude-sonnet-4-5").to_params()[
        "extra_headers"]["anthropic-beta"]
    # a model with a 1M window of its own needs no beta (Claude Code 2.1.332 sends none)
    current = request(model=resolve_model("sonnet[1m]")).to_params()
    assert current["model"] == "claude-sonnet-5-5"
    assert CONTEXT_1M_BETA not in current["extra_headers"]["anthropic-beta"]
