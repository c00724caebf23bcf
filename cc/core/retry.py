"""The one place that retries model calls.

429, 529, 5xx, connection failures and streams broken halfway are retried with
backoff 2, 4, 6, 8, 10 s (at most 5 retries); the partial message of a broken
stream is discarded and the request is sent again whole. After two broken
streams in a row the next attempt is made once without streaming (`fallback`).
Everything else (400, 401, 403, 404, 413) fails at once.

The server has the last word on timing: a `retry-after` (seconds or an HTTP
date) or `retry-after-ms` header sets the delay (at most `MAX_SERVER_DELAY_S`),
and `x-should-retry` says whether to retry at all. Without them the backoff
applies, multiplied by `CC_RETRY_SCALE` (tests set it near zero).

With `--fallback-model`, the caller's `change_model` may move the call to another
model first (`cc.core.fallback` says when); the call then goes out again at once.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any, TypeVar

from cc.core.events import ModelFallback, RetryEvent, StreamDiscarded
from cc.errors import ModelCallError, PromptTooLongError, StreamBrokenError

BACKOFF_S = (2.0, 4.0, 6.0, 8.0, 10.0)
MAX_RETRIES = len(BACKOFF_S)
#: The longest wait a server's retry-after may impose on one retry.
MAX_SERVER_DELAY_S = 60.0
#: Broken streams in a row after which one attempt is made without streaming.
FALLBACK_AFTER_BROKEN = 2

T = TypeVar("T")

_KIND_BY_STATUS = {
    400: "invalid_request",
    401: "authentication_failed",
    403: "authentication_failed",
    404: "model_not_found",
    413: "invalid_request",
    429: "rate_limit",
    529: "overloaded",
}


def retry_scale() -> float:
    try:
        return max(0.0, float(os.environ.get("CC_RETRY_SCALE", "1")))
    except ValueError:
        return 1.0


def classify(exc: BaseException) -> ModelCallError:
    """Our error for whatever a model call raised."""
    if isinstance(exc, ModelCallError):
        return exc
    error = _classify(exc)
    error.endpoint = error.endpoint or _endpoint_of(exc)
    error.api_type = _api_type(exc)
    headers = _headers_of(exc)
    if headers is not None:
        error.retry_after = retry_after(headers)
        advice = str(headers.get("x-should-retry", "")).lower()
        if advice in ("true", "false") and not isinstance(error, PromptTooLongError):
            error.retryable = advice == "true"
    return error


def _classify(exc: BaseException) -> ModelCallError:
    status = getattr(exc, "status_code", None)
    if status == 200:
        # An `error` event inside a stream that had begun with HTTP 200.
        return _from_stream_error(str(getattr(exc, "type", "") or ""), _api_message(exc))
    if isinstance(status, int):
        return _from_status(status, _api_message(exc))
    name = type(exc).__name__
    module = type(exc).__module__
    if "Timeout" in name:
        return ModelCallError("Request timed out", kind="server_error", retryable=True)
    if "Connection" in name or module.split(".")[0] in ("httpx", "httpx2", "httpcore", "anyio"):
        return ModelCallError(_connection_cause(exc), kind="server_error", retryable=True)
    if name == "APIError" or isinstance(exc, (ConnectionError, EOFError)):
        # An `error` event inside the stream, or a socket closing under us.
        return ModelCallError(str(exc) or name, kind="server_error", retryable=True)
    return ModelCallError(f"{name}: {exc}", kind="unknown")


def _connection_cause(exc: BaseException) -> str:
    """What really went wrong under the SDK's "Connection error.": the OS's reason."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ConnectionRefusedError):
            return "Connection refused"
        if isinstance(seen, ConnectionResetError):
            return "Connection reset"
        if isinstance(seen, TimeoutError):
            return "Connection timed out"
        if isinstance(seen, OSError) and seen.strerror:
            return seen.strerror[:1].upper() + seen.strerror[1:]
        text = str(seen)
        for marker, cause in _CAUSE_MARKERS:
            if marker in text.lower():
                return cause
        seen = seen.__cause__ or seen.__context__
    detail = str(exc).strip()
    return f"Connection error ({detail})" if detail and detail != "Connection error." else (
        "Connection error"
    )


_CAUSE_MARKERS = (
    ("connection refused", "Connection refused"),
    ("connection reset", "Connection reset"),
    ("name or service not known", "Could not resolve the host"),
    ("temporary failure in name resolution", "Could not resolve the host"),
    ("certificate", "TLS certificate problem"),
    ("timed out", "Connection timed out"),
    ("peer closed connection", "The server closed the connection"),
)


def _endpoint_of(exc: BaseException) -> str | None:
    """scheme://host[:port] of the request that failed, when the exception knows it."""
    try:
        url = getattr(exc, "request", None).url  # type: ignore[union-attr]
    except (AttributeError, RuntimeError):  # httpx raises RuntimeError when unset
        return None
    netloc = url.netloc.decode() if isinstance(url.netloc, bytes) else str(url.netloc)
    return f"{url.scheme}://{netloc}"


def _headers_of(exc: BaseException) -> Mapping[str, str] | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    return headers if headers is not None and hasattr(headers, "get") else None


def retry_after(headers: Mapping[str, str], now: Callable[[], float] = time.time) -> float | None:
    """The wait a response asks for, in seconds (`retry-after-ms` wins), or None."""
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000)
        except ValueError:
            pass
    value = (headers.get("retry-after") or "").strip()
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    from email.utils import parsedate_to_datetime  # rare: only servers that send a date

    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - now())
    except (TypeError, ValueError, IndexError):
        return None


def _api_type(exc: BaseException) -> str | None:
    """The error's type as the API named it (`overloaded_error`), if it did."""
    body: Any = getattr(exc, "body", None)
    err = body.get("error") if isinstance(body, dict) else None
    kind = err.get("type") if isinstance(err, dict) else getattr(exc, "type", None)
    return kind if isinstance(kind, str) and kind else None


def _api_message(exc: BaseException) -> str:
    body: Any = getattr(exc, "body", None)
    if isinstance(body, dict):
        err = body.get("error")
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])
    return str(getattr(exc, "message", None) or exc)


_STATUS_BY_STREAM_ERROR = {
    "overloaded_error": 529,
    "rate_limit_error": 429,
    "api_error": 500,
    "timeout_error": 504,
    "invalid_request_error": 400,
    "authentication_error": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
}


def _from_stream_error(error_type: str, message: str) -> ModelCallError:
    status = _STATUS_BY_STREAM_ERROR.get(error_type)
    if status is None:
        return ModelCallError(f"API Error: {message}", kind="server_error", retryable=True)
    return _from_status(status, message)


def _from_status(status: int, message: str) -> ModelCallError:
    text = f"API Error ({status}): {message}"
    if status == 413 or "prompt is too long" in message.lower():
        return PromptTooLongError(
            f"Prompt is too long: {message}", kind="invalid_request", status=status
        )
    if status == 401:
        text = f"Invalid API key · {message} (check ANTHROPIC_API_KEY)"
    retryable = status in (408, 409, 429, 529) or status >= 500
    kind = _KIND_BY_STATUS.get(status, "server_error" if status >= 500 else "unknown")
    return ModelCallError(text, kind=kind, status=status, retryable=retryable)


async def stream_with_retries(
    attempt: Callable[[], AsyncIterator[T]],
    *,
    fallback: Callable[[], AsyncIterator[T]] | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    change_model: Callable[[ModelCallError], ModelFallback | None] | None = None,
) -> AsyncIterator[T | RetryEvent | StreamDiscarded | ModelFallback]:
    """Yield `attempt()`'s items; on a retryable failure start it over.

    After `FALLBACK_AFTER_BROKEN` broken streams in a row, `fallback()` (the same
    call without streaming) is tried once in their place. `change_model` is asked
    first about every failure: a `ModelFallback` it returns (`--fallback-model`; it
    changed what `attempt` asks for) is yielded and the call is made again at once,
    with retries counted afresh. Raises ModelCallError when the failure is not
    retryable or retries run out; the message then names the endpoint and how many
    attempts were made.
    """
    retries = 0
    broken_in_a_row = 0
    fell_back = False
    while True:
        yielded = False
        use_fallback = (
            fallback is not None and not fell_back and broken_in_a_row >= FALLBACK_AFTER_BROKEN
        )
        fell_back = fell_back or use_fallback
        try:
            async for item in (fallback if use_fallback and fallback else attempt)():
                yielded = True
                yield item
            return
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - classified right here
            error = classify(exc)
            moved = change_model(error) if change_model is not None else None
            if moved is not None:
                if yielded:
                    yield StreamDiscarded()
                yield moved
                retries = broken_in_a_row = 0
                continue
            if not error.retryable:
                raise error from exc
            if retries >= MAX_RETRIES:
                raise _gave_up(error, retries + 1) from exc
            broken_in_a_row = broken_in_a_row + 1 if isinstance(error, StreamBrokenError) else 0
            delay = _delay(error, retries)
            retries += 1
            if yielded:
                yield StreamDiscarded()
            yield RetryEvent(retries, MAX_RETRIES, delay, error)
            await sleep(delay)


def _delay(error: ModelCallError, retries: int) -> float:
    """The server's wait when it named one (capped), else our backoff."""
    if error.retry_after is not None:
        return min(error.retry_after, MAX_SERVER_DELAY_S)
    return BACKOFF_S[retries] * retry_scale()


def _gave_up(error: ModelCallError, attempts: int) -> ModelCallError:
    where = error.endpoint or "the API"
    if error.status is None and not isinstance(error, StreamBrokenError):
        text = f"{error.message}: could not reach {where} after {attempts} attempts"
    else:
        text = f"{error.message} (from {where}; gave up after {attempts} attempts)"
    return ModelCallError(text, kind=error.kind, status=error.status, endpoint=error.endpoint,
                          api_type=error.api_type)
