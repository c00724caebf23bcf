"""The one place that retries model calls.

429, 529, 5xx, connection failures and streams broken halfway are retried with
backoff 2, 4, 6, 8, 10 s (at most 5 retries); the partial message of a broken
stream is discarded and the request is sent again whole. Everything else (400,
401, 403, 404, 413) fails at once. `CC_RETRY_SCALE` multiplies the delays (tests
set it near zero).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

from cc.core.events import RetryEvent, StreamDiscarded
from cc.errors import ModelCallError, PromptTooLongError

BACKOFF_S = (2.0, 4.0, 6.0, 8.0, 10.0)
MAX_RETRIES = len(BACKOFF_S)

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
        detail = str(exc) or name
        return ModelCallError(
            f"Connection error: {detail}", kind="server_error", retryable=True
        )
    if name == "APIError" or isinstance(exc, (ConnectionError, EOFError)):
        # An `error` event inside the stream, or a socket closing under us.
        return ModelCallError(str(exc) or name, kind="server_error", retryable=True)
    return ModelCallError(f"{name}: {exc}", kind="unknown")


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
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> AsyncIterator[T | RetryEvent | StreamDiscarded]:
    """Yield `attempt()`'s items; on a retryable failure start it over.

    Raises ModelCallError when the failure is not retryable or retries run out
    (the message then says how many attempts were made).
    """
    retries = 0
    while True:
        yielded = False
        try:
            async for item in attempt():
                yielded = True
                yield item
            return
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - classified right here
            error = classify(exc)
            if not error.retryable:
                raise error from exc
            if retries >= MAX_RETRIES:
                raise ModelCallError(
                    f"{error.message} (gave up after {retries + 1} attempts)",
                    kind=error.kind,
                    status=error.status,
                ) from exc
            delay = BACKOFF_S[retries] * retry_scale()
            retries += 1
            if yielded:
                yield StreamDiscarded()
            yield RetryEvent(retries, MAX_RETRIES, delay, error)
            await sleep(delay)
