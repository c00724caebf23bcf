"""`--fallback-model`: a turn moves to the next model when its model is busy or missing
(as Claude Code 2.1.332 was seen doing), for the rest of that turn only."""

from __future__ import annotations

from pathlib import Path

from cc.core.events import ModelFallback, RetryEvent
from cc.core.fallback import FallbackChain
from cc.errors import ModelCallError
from tests.core.engines import collect, make_engine, terminal
from tests.fakeapi import FakeAPI, Fault, Reply, text, tool_use

MODEL_GONE = "model: claude-test-1"  # how the API words a model it does not know


def error(status: int, message: str = "failed") -> ModelCallError:
    return ModelCallError(message, status=status)


def test_when_the_chain_moves_on() -> None:
    chain = FallbackChain(("b", "c"))
    assert chain.after(error(429), "a") is None  # a rate limit is only retried
    assert chain.after(error(400), "a") is None
    assert chain.after(error(404, "not found"), "a") is None  # a 404 about something else
    assert chain.after(error(404, "model: a"), "a") == ModelFallback("a", "b", "model_not_found")
    assert chain.after(error(500), "b") == ModelFallback("b", "c", "server_error")
    assert chain.after(error(503), "c") is None  # the end of the list


def test_overloaded_moves_on_at_the_third_in_a_row_and_skips_the_model_in_use() -> None:
    chain = FallbackChain(("a", "b"))
    assert [chain.after(error(529), "a") for _ in range(2)] == [None, None]
    assert chain.after(error(529), "a") == ModelFallback("a", "b", "overloaded")


async def test_the_rest_of_the_turn_uses_the_fallback_and_the_next_turn_the_main_model(
        fake_api: FakeAPI, tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("x")
    fake_api.script(*[Fault(529) for _ in range(3)],
                    Reply([tool_use("Read", {"file_path": str(tmp_path / "f.txt")})]),
                    Reply([text("read it")]), Reply([text("second turn")]))
    engine = make_engine(fake_api, tmp_path, fallback_models=("claude-test-2",))
    events = await collect(engine.submit("read f.txt"))
    assert [type(e) for e in events if isinstance(e, (RetryEvent, ModelFallback))] == [
        RetryEvent, RetryEvent, ModelFallback]
    moved = next(e for e in events if isinstance(e, ModelFallback))
    assert (moved.original, moved.fallback, moved.trigger) == (
        "claude-test-1", "claude-test-2", "overloaded")
    assert terminal(events).ok
    assert terminal(await collect(engine.submit("again"))).ok
    assert [b["model"] for b in fake_api.bodies] == ["claude-test-1"] * 3 + [
        "claude-test-2"] * 2 + ["claude-test-1"]
    assert set(engine.usage.by_model) == {"claude-test-1", "claude-test-2"}
    fake_api.assert_clean()


async def test_a_missing_model_moves_at_once_and_a_chain_goes_on(
        fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.script(Fault(404, message=MODEL_GONE), Fault(500), Reply([text("third time")]))
    engine = make_engine(fake_api, tmp_path, fallback_models=("claude-test-2", "claude-test-3"))
    events = await collect(engine.submit("hi"))
    moves = [(e.fallback, e.trigger) for e in events if isinstance(e, ModelFallback)]
    assert moves == [("claude-test-2", "model_not_found"), ("claude-test-3", "server_error")]
    assert not any(isinstance(e, RetryEvent) for e in events)
    assert terminal(events).ok
    assert [b["model"] for b in fake_api.bodies] == [
        "claude-test-1", "claude-test-2", "claude-test-3"]


async def test_without_a_fallback_a_missing_model_ends_the_turn(
        fake_api: FakeAPI, tmp_path: Path) -> None:
    fake_api.script(Fault(404, message=MODEL_GONE))
    engine = make_engine(fake_api, tmp_path)
    end = terminal(await collect(engine.submit("hi")))
    assert end.reason == "api_error" and "404" in (end.error or "")
    assert len(fake_api.bodies) == 1
