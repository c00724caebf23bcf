"""SessionOptions from flags, settings and environment; engines built from an AgentSpec."""

from __future__ import annotations

from pathlib import Path

import pytest

from cc.app.factory import AgentSpec, build_engine, fork
from cc.app.options import COMMIT_TRAILER, resolve_options
from cc.app.session import Session
from cc.cli_args import build_parser
from cc.config.settings import Settings
from cc.core.credentials import Credentials
from cc.errors import UsageError
from cc.prompts.builder import PromptSection
from tests.fakeapi import FakeAPI, Reply
from tests.sessions import make_session


def runtime(tmp_path: Path, settings: Settings | None = None,
            credentials: Credentials | None = None, argv: tuple[str, ...] = ("-p",)) -> Session:
    (tmp_path / "config").mkdir(exist_ok=True)
    return make_session(tmp_path, tmp_path / "config", settings=settings,
                        credentials=credentials, argv=argv)


def test_options_resolve_flags_over_settings_and_environment(tmp_path: Path) -> None:
    prompt = tmp_path / "prompt.txt"
    prompt.write_text("be brief")
    args = build_parser().parse_args(["-p", "--max-turns", "0", "--tools", "Read,Bash",
                                      "--append-system-prompt-file", str(prompt),
                                      "--session-id", "5B9A3C1E-0F4D-4A7B-8C2D-1E3F5A7B9C0D"])
    settings = Settings()
    options = resolve_options(args, settings, {"ANTHROPIC_MODEL": "haiku",
                                               "MAX_THINKING_TOKENS": "2048"})
    assert options.model.startswith("claude-haiku")
    assert options.max_turns is None  # 0: no limit
    assert options.tools == ("Read", "Bash")
    assert options.append_system_prompt == "be brief"
    assert options.thinking_budget == 2048
    assert options.session_id == "5b9a3c1e-0f4d-4a7b-8c2d-1e3f5a7b9c0d"
    assert options.commit_trailer == COMMIT_TRAILER
    with pytest.raises(UsageError, match="MAX_THINKING_TOKENS"):
        resolve_options(args, settings, {"MAX_THINKING_TOKENS": "lots"})


async def test_two_engines_from_specs_share_no_per_conversation_state(tmp_path: Path) -> None:
    rt = runtime(tmp_path)
    system = [PromptSection("intro", "You are a helper.", cacheable=True)]
    first = (await build_engine(AgentSpec(model="claude-test-1", system=system), rt)).engine
    second = (await build_engine(AgentSpec(model="claude-test-1", system=system, tools=("Read",),
                                    permission_mode="plan"), rt)).engine
    assert first.executor.ctx.shell is not second.executor.ctx.shell
    assert first.executor is not second.executor and first.messages is not second.messages
    assert second.registry.names == ["Read"] and "Bash" in first.registry.names
    assert (first.permission_mode, second.permission_mode) == ("default", "plan")
    assert rt.permissions is None  # neither is the session's main agent


async def test_the_session_engine_has_the_full_prompt_and_hides_denied_tools(tmp_path: Path) -> None:
    settings = Settings()
    session = runtime(tmp_path, settings, argv=("-p", "--disallowedTools", "Bash"))
    warnings = await session.open()
    assert "Bash" not in session.engine.registry.names
    assert len(session.engine.config.system) >= 8  # the built-in sections
    assert warnings == []
    await session.close()


async def test_a_fork_shares_the_client_and_rules_and_nothing_per_conversation(
    tmp_path: Path, fake_api: FakeAPI
) -> None:
    rt = runtime(tmp_path, credentials=Credentials(api_key="test-key",
                                                   base_url=fake_api.base_url),
                 argv=("-p", "--allowedTools", "Bash(make:*)"))
    await rt.open()
    parent = rt.engine
    system = [PromptSection("intro", "You are a sub-agent.", cacheable=True)]
    child_built = await fork(rt, parent, AgentSpec(model="claude-test-1", system=system,
                                                   tools=("Read", "Grep"),
                                                   permission_mode="plan"))
    child = child_built.engine
    assert child.client is parent.client
    rules, parent_rules = child_built.checker.context.rules, rt.permissions.context.rules
    assert rules.deny is parent_rules.deny and rules.ask is parent_rules.ask
    assert rules.allow == parent_rules.allow and rules.allow is not parent_rules.allow
    assert not child.channel.present and child.permission_mode == "plan"
    assert parent.permission_mode == "default"
    assert child.executor.ctx.shell is not parent.executor.ctx.shell
    assert rt.engine is parent

    fake_api.script(Reply("report from the child"), Reply("the parent goes on"))
    async for _ in child.submit("look around"):
        pass
    await child.aclose()  # leaves the shared client open
    async for _ in parent.submit("and you?"):
        pass
    first, second = fake_api.bodies
    assert first["system"][0]["text"] == "You are a sub-agent."
    assert [t["name"] for t in first["tools"]] == ["Grep", "Read"]
    assert [m["content"][0]["text"] for m in second["messages"]] == ["and you?"]
    assert parent.messages[-1].text == "the parent goes on"
    await rt.close()  # the main agent, then the session's client
    fake_api.assert_clean()


async def test_a_grant_given_while_an_agent_runs_stays_with_whoever_got_it(
    tmp_path: Path, fake_api: FakeAPI
) -> None:
    """An "always" answer in the REPL (or a command's allowed-tools) given while a
    background agent runs does not reach that agent; a deny rule added then does."""
    from cc.tools.bash import BashTool

    rt = runtime(tmp_path, credentials=Credentials(api_key="test-key",
                                                   base_url=fake_api.base_url))
    await rt.open()
    parent = rt.engine
    system = [PromptSection("intro", "You are a sub-agent.", cacheable=True)]
    child = await fork(rt, parent, AgentSpec(model="claude-test-1", system=system))
    bash = BashTool()
    make = bash.input_model.model_validate({"command": "make build"})
    main_gate = rt.permissions
    assert main_gate is not None
    main_gate.add_rules("allow", ["Bash(make:*)"], persist=False)
    assert main_gate.evaluate(bash, make)[0].behavior == "allow"
    assert child.checker.evaluate(bash, make)[0].behavior == "ask"
    later = await fork(rt, parent, AgentSpec(model="claude-test-1", system=system))
    assert later.checker.evaluate(bash, make)[0].behavior == "allow"  # started after it
    main_gate.add_rules("deny", ["Bash(make:*)"], persist=False)
    assert child.checker.evaluate(bash, make)[0].behavior == "deny"
    for engine in (child.engine, later.engine):
        await engine.aclose()
    await rt.close()


async def test_fork_returns_a_finished_engine(tmp_path: Path, fake_api: FakeAPI) -> None:
    """Everything a sub-agent is comes from its spec: identity, gate, hooks view,
    compaction, seed messages and news sources are the factory's product, with nothing
    assigned afterwards."""
    from cc.core.events import AgentInfo
    from cc.core.news import Source
    from cc.hooks.gate import NoHooks
    from cc.models.messages import UserMessage
    from cc.permissions.gate import ModeGate

    rt = runtime(tmp_path, credentials=Credentials(api_key="test-key",
                                                   base_url=fake_api.base_url))
    await rt.open()
    parent = rt.engine
    system = [PromptSection("intro", "You are a sub-agent.", cacheable=True)]
    info = AgentInfo("a0123456789abcdef", "general-purpose", "look", "toolu_1")
    letters = ["a letter"]
    seed = (UserMessage.text("start here"),)
    child = await rt.fork(parent, AgentSpec(
        model="claude-test-1", system=system, identity=info, is_fork=True, seed=seed,
        news=(Source(lambda: [letters.pop()] if letters else [], lambda: bool(letters)),)))
    assert child.agent is info and child.is_fork
    assert child.messages == list(seed) and child.messages is not parent.messages
    assert child.hooks is not None and child.hooks.agent is info
    assert child.compactor is not None and child.services is not None
    assert child.services.agents.identity is info
    assert child.has_news() and child.news.drain() == ["a letter"] and not child.has_news()
    gate = ModeGate("dontAsk")
    quiet = await rt.fork(parent, AgentSpec(model="claude-test-1", system=system, gate=gate,
                                            hooks=False, compaction=False, internal=True))
    assert quiet.executor.permissions is gate and isinstance(quiet.executor.hooks, NoHooks)
    assert quiet.hooks is None and quiet.compactor is None
    assert quiet.denials is not parent.denials  # an internal agent's refusals are its own
    for engine in (child, quiet):
        await engine.aclose()
    await rt.close()


async def test_the_system_prompts_model_line_follows_a_model_change(
        tmp_path: Path, fake_api: FakeAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    from cc.models.catalog import resolve_model

    monkeypatch.setenv("CC_DISABLE_MEMORY_EXTRACTION", "1")  # only the main requests

    rt = runtime(tmp_path, credentials=Credentials(api_key="test-key",
                                                   base_url=fake_api.base_url),
                 argv=("-p", "--model", "sonnet"))
    await rt.open()
    engine = rt.engine
    fake_api.script(Reply("one"), Reply("two"))
    async for _ in engine.submit("first"):
        pass
    engine.set_model(resolve_model("opus"))  # what /model does
    async for _ in engine.submit("second"):
        pass
    first, second = ("\n".join(b["text"] for b in body["system"]) for body in fake_api.bodies)
    assert f"(model ID: {resolve_model('sonnet')})" in first
    assert f"(model ID: {resolve_model('opus')})" in second
    assert resolve_model("sonnet") not in second
    await rt.close()


async def test_resume_sets_the_session_id_through_the_engine(tmp_path: Path,
                                                             fake_api: FakeAPI) -> None:
    """The engine owns the session id: a resumed conversation's id reaches its requests'
    transcript and its hooks through it (nobody writes it from outside)."""
    from cc.session.attach import SessionChoice, attach_session

    credentials = Credentials(api_key="test-key", base_url=fake_api.base_url)
    first = runtime(tmp_path, credentials=credentials)
    await first.open()
    attach_session(first.engine, SessionChoice(), cwd=first.cwd, config=first.config_dir)
    fake_api.script(Reply("one"))
    async for _ in first.engine.submit("hello"):
        pass
    earlier = first.engine.session_id
    await first.close()

    again = runtime(tmp_path, credentials=credentials)
    await again.open()
    assert again.engine.session_id != earlier
    attach_session(again.engine, SessionChoice(continue_latest=True), cwd=again.cwd,
                   config=again.config_dir)
    engine = again.engine
    assert engine.session_id == earlier and engine.config.session_id == earlier
    assert engine.hooks is not None and engine.hooks.session_id == earlier
    assert [m.role for m in engine.messages] == ["user", "assistant"]
    assert engine.messages[-1].text == "one"
    await again.close()


async def test_plan_mode_turned_on_by_the_user_tells_the_model_where_the_plan_goes(
        tmp_path: Path) -> None:
    """Shift+Tab into plan mode: the next request says where the plan file is, and that
    note starts no turn by itself."""
    import dataclasses

    session = runtime(tmp_path)
    session = make_session(session.cwd, session.config_dir, options=dataclasses.replace(
        session.options, interactive=True))
    await session.open()
    assert session.permissions is not None
    plan_file = session.permissions.context.plan_file
    assert plan_file is not None
    session.permissions.mode = "plan"
    assert not session.engine.has_news()
    notes = session.engine.news.drain()
    assert any(str(plan_file) in note for note in notes)
    await session.close()


async def test_json_schema_gives_the_main_agent_alone_structured_output(tmp_path: Path) -> None:
    schema = '{"type": "object", "properties": {"n": {"type": "integer"}}}'
    args = build_parser().parse_args(["-p", "--json-schema", schema])
    options = resolve_options(args, Settings(), {"MAX_STRUCTURED_OUTPUT_RETRIES": "0"})
    assert options.json_schema == {"type": "object", "properties": {"n": {"type": "integer"}}}
    assert options.structured_output_retries == 0
    for odd in ("-1", "many"):
        assert resolve_options(args, Settings(), {"MAX_STRUCTURED_OUTPUT_RETRIES": odd}
                               ).structured_output_retries == 5
    session = runtime(tmp_path, argv=("-p", "--json-schema", schema, "--tools", "Read"))
    await session.open()
    engine = session.engine
    assert engine.registry.names == ["Read", "StructuredOutput"]
    assert engine.config.structured_output == 5
    # The session's pool, which sub-agents' tools come from, has no StructuredOutput.
    assert session.tool_pool is not None and session.tool_pool.names == ["Read"]
    await session.close()
