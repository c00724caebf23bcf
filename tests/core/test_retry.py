"""Retry: classify the real SDK failures, and start a stream over when it is worth it.

Every exception classified here is the one the genuine ``anthropic`` SDK raises against
the fake API server (or a closed port), not a hand-built stand-in.
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from typing import Any

import anthropic
import pytest

from cc.core.events import RetryEvent, StreamDiscarded
from cc.core.retry import classify, stream_with_retries
from cc.errors import ModelCallError, PromptTooLongError
from tests.fakeapi import CutStream, FakeAPI, Fault, Reply, StreamError, Turn, text, tool_use

MODEL = "claude-sonnet-4-6"
HI: list[Any] = [{"role": "user", "content": "hi"}]
LONG = Reply([text("one two three four five six"), tool_use("Bash", {"command": "echo hi"})])


async def text_stream(base_url: str) -> AsyncIterator[str]:
    """One attempt: stream a message through the real SDK, yielding its text pieces."""
    async with anthropic.AsyncAnthropic(base_url=base_url, api_key="k", max_retries=0) as client:
        async with client.messages.stream(model=MODEL, max_tokens=100, messages=HI) as stream:
            async for piece in stream.text_stream:
                yield piece
            await stream.get_final_message()


async def failure_of(fake_api: FakeAPI, turn: Turn) -> BaseException:
    """What the SDK raises when the server plays ``turn``."""
    fake_api.script(turn)
    with pytest.raises(Exception) as info:  # noqa: PT011 - any exception, classified next
        async for _ in text_stream(fake_api.base_url):
            pass
    return info.value


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- classify() --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "sdk_type", "kind"),
    [
        (429, anthropic.RateLimitError, "rate_limit"),
        (529, anthropic.OverloadedError, "overloaded"),
        (500, anthropic.InternalServerError, "server_error"),
        (503, anthropic.InternalServerError, "server_error"),
    ],
)
async def test_retryable_statuses(fake_api: FakeAPI, status: int, sdk_type: type, kind: str) -> None:
    exc = await failure_of(fake_api, Fault(status, message=f"boom {status}"))
    assert isinstance(exc, sdk_type)
    error = classify(exc)
    assert type(error) is ModelCallError
    assert (error.retryable, error.kind, error.status) == (True, kind, status)
    assert f"boom {status}" in error.message
    fake_api.assert_clean()


@pytest.mark.parametrize(
    ("status", "sdk_type", "kind"),
    [
        (400, anthropic.BadRequestError, "invalid_request"),
        (401, anthropic.AuthenticationError, "authentication_failed"),
        (403, anthropic.PermissionDeniedError, "authentication_failed"),
        (404, anthropic.NotFoundError, "model_not_found"),
    ],
)
async def test_fatal_statuses(fake_api: FakeAPI, status: int, sdk_type: type, kind: str) -> None:
    exc = await failure_of(fake_api, Fault(status, message=f"nope {status}"))
    assert isinstance(exc, sdk_type)
    error = classify(exc)
    assert type(error) is ModelCallError
    assert (error.retryable, error.kind, error.status) == (False, kind, status)
    assert f"nope {status}" in error.message


async def test_401_message_points_at_the_api_key(fake_api: FakeAPI) -> None:
    error = classify(await failure_of(fake_api, Fault(401, message="invalid x-api-key")))
    assert "ANTHROPIC_API_KEY" in error.message and "invalid x-api-key" in error.message


async def test_413_is_prompt_too_long(fake_api: FakeAPI) -> None:
    exc = await failure_of(fake_api, Fault(413))
    assert isinstance(exc, anthropic.RequestTooLargeError)
    error = classify(exc)
    assert isinstance(error, PromptTooLongError)
    assert error.status == 413 and not error.retryable


async def test_400_prompt_is_too_long_is_prompt_too_long(fake_api: FakeAPI) -> None:
    exc = await failure_of(fake_api, Fault(400, message="prompt is too long: 210000 tokens > 200000 maximum"))
    assert isinstance(exc, anthropic.BadRequestError)
    error = classify(exc)
    assert isinstance(error, PromptTooLongError)
    assert error.status == 400 and not error.retryable
    assert "210000 tokens > 200000 maximum" in error.message


@pytest.mark.parametrize("reset", [False, True], ids=["fin", "rst"])
async def test_cut_stream_is_retryable(fake_api: FakeAPI, reset: bool) -> None:
    exc = await failure_of(fake_api, CutStream(LONG, after_events=5, reset=reset))
    assert not isinstance(exc, anthropic.APIStatusError)  # a raw transport error, not an HTTP one
    error = classify(exc)
    assert error.retryable and error.kind == "server_error"
    assert error.status is None


async def test_error_event_mid_stream_is_retryable_overloaded(fake_api: FakeAPI) -> None:
    exc = await failure_of(fake_api, StreamError(LONG, after_events=4))
    assert isinstance(exc, anthropic.APIStatusError) and exc.status_code == 200
    error = classify(exc)
    assert error.retryable and error.kind == "overloaded"


async def test_connection_refused_is_retryable() -> None:
    with pytest.raises(anthropic.APIConnectionError) as info:
        async for _ in text_stream(f"http://127.0.0.1:{closed_port()}"):
            pass
    error = classify(info.value)
    assert error.retryable and error.kind == "server_error"
    assert error.message == "Connection refused"


def test_model_call_error_passes_through() -> None:
    original = ModelCallError("x", kind="overloaded", retryable=True)
    assert classify(original) is original


def test_unexpected_exception_is_fatal_unknown() -> None:
    error = classify(RuntimeError("bug"))
    assert (error.retryable, error.kind) == (False, "unknown")
    assert "RuntimeError: bug" in error.message


# --- stream_with_retries() ---------------------------------------------------------------


class Sleeps:
    """An injected sleep that records the delays instead of waiting."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)


async def collect(fake_api: FakeAPI, sleep: Sleeps) -> list[Any]:
    return [item async for item in stream_with_retries(lambda: text_stream(fake_api.base_url), sleep=sleep)]


def texts(items: list[Any]) -> str:
    return "".join(i for i in items if isinstance(i, str))


@pytest.mark.parametrize("failures", [0, 1, 2, 5])
async def test_fails_n_times_then_succeeds_with_growing_delays(
    fake_api: FakeAPI, monkeypatch: pytest.MonkeyPatch, failures: int
) -> None:
    monkeypatch.setenv("CC_RETRY_SCALE", "0.5")
    fake_api.script(*[Fault(529)] * failures, Reply("all good now"))
    sleep = Sleeps()
    items = await collect(fake_api, sleep)
    assert sleep.delays == [1.0, 2.0, 3.0, 4.0, 5.0][:failures]
    assert texts(items) == "all good now"
    retries = [i for i in items if isinstance(i, RetryEvent)]
    assert [(r.attempt, r.max_retries, r.delay_s) for r in retries] == [
        (n + 1, 5, d) for n, d in enumerate(sleep.delays)]
    assert all(r.error.kind == "overloaded" for r in retries)
    assert not any(isinstance(i, StreamDiscarded) for i in items)  # a 529 yields nothing first
    assert len(fake_api.bodies) == failures + 1
    fake_api.assert_clean()


async def test_scale_multiplies_the_base_backoff(fake_api: FakeAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC_RETRY_SCALE", "1")
    fake_api.script(*[Fault(500)] * 5, Reply("ok"))
    sleep = Sleeps()
    await collect(fake_api, sleep)
    assert sleep.delays == [2.0, 4.0, 6.0, 8.0, 10.0]


async def test_broken_stream_is_discarded_then_sent_again_whole(
    fake_api: FakeAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CC_RETRY_SCALE", "0.5")
    fake_api.script(CutStream(Reply("partial answer that breaks"), after_events=5), Reply("whole answer"))
    sleep = Sleeps()
    items = await collect(fake_api, sleep)
    kinds = [type(i).__name__ if not isinstance(i, str) else "str" for i in items]
    cut = kinds.index("StreamDiscarded")
    assert kinds[:cut] and set(kinds[:cut]) == {"str"}  # text was shown before the break...
    assert kinds[cut + 1] == "RetryEvent"  # ...then voided, then the retry announced
    assert "".join(i for i in items[cut:] if isinstance(i, str)) == "whole answer"
    assert kinds.count("StreamDiscarded") == 1
    assert sleep.delays == [1.0]
    assert fake_api.bodies[0] == fake_api.bodies[1]  # the same request, again


async def test_no_stream_discarded_when_nothing_was_yielded(fake_api: FakeAPI) -> None:
    # cut after message_start and ping: the broken attempt never yielded text
    fake_api.script(CutStream(LONG, after_events=2), Fault(429), Reply("fine"))
    items = await collect(fake_api, Sleeps())
    assert not any(isinstance(i, StreamDiscarded) for i in items)
    assert [i.error.kind for i in items if isinstance(i, RetryEvent)] == ["server_error", "rate_limit"]
    assert texts(items) == "fine"


async def test_gives_up_after_five_retries(fake_api: FakeAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC_RETRY_SCALE", "0.5")
    fake_api.script(*[Fault(529, message="Overloaded")] * 6, Reply("never reached"))
    sleep = Sleeps()
    seen: list[Any] = []
    with pytest.raises(ModelCallError) as info:
        async for item in stream_with_retries(lambda: text_stream(fake_api.base_url), sleep=sleep):
            seen.append(item)
    error = info.value
    assert "6 attempts" in error.message and "Overloaded" in error.message
    assert error.kind == "overloaded" and error.status == 529 and not error.retryable
    assert isinstance(error.__cause__, anthropic.OverloadedError)
    assert sleep.delays == [1.0, 2.0, 3.0, 4.0, 5.0]
    assert len([i for i in seen if isinstance(i, RetryEvent)]) == 5
    assert len(fake_api.bodies) == 6 and fake_api.turns_left == 1


@pytest.mark.parametrize("status", [400, 401, 403, 404, 413])
async def test_non_retryable_raises_at_once_without_sleeping(fake_api: FakeAPI, status: int) -> None:
    fake_api.script(Fault(status, message="bad"), Reply("never reached"))
    sleep = Sleeps()
    seen: list[Any] = []
    with pytest.raises(ModelCallError) as info:
        async for item in stream_with_retries(lambda: text_stream(fake_api.base_url), sleep=sleep):
            seen.append(item)
    assert info.value.status == status and not info.value.retryable
    assert isinstance(info.value.__cause__, anthropic.APIStatusError)
    assert sleep.delays == [] and seen == []
    assert len(fake_api.bodies) == 1


async def test_prompt_too_long_surfaces_as_its_own_type(fake_api: FakeAPI) -> None:
    fake_api.script(Fault(400, message="prompt is too long: 300000 tokens > 200000 maximum"))
    with pytest.raises(PromptTooLongError):
        await collect(fake_api, Sleeps())


async def test_connection_refused_is_retried_then_gives_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC_RETRY_SCALE", "0")
    url = f"http://127.0.0.1:{closed_port()}"
    sleep = Sleeps()
    with pytest.raises(ModelCallError) as info:
        async for _ in stream_with_retries(lambda: text_stream(url), sleep=sleep):
            pass
    assert info.value.message == f"Connection refused: could not reach {url} after 6 attempts"
    assert info.value.kind == "server_error"
    assert sleep.delays == [0.0] * 5
