"""The model client: one Messages API call through the `anthropic` SDK.

A streamed call counts only if it ended: the finished message is yielded only
after `message_stop` arrived with every content block closed. A stream that
drops, ends early or carries a line that is not JSON raises `StreamBrokenError`
instead, so no partial message ever reaches the loop. `BlockComplete` means the
block is whole: a tool_use is announced only once the model has moved past it
(the next block began, or the message ended for a reason other than max_tokens),
so a call the output cap cut off mid-input is never announced and never runs.
`stream(request, streaming=False)` makes the same call without streaming, the
fallback after repeated broken streams.

The SDK is imported lazily (it is the largest start-up cost) and can be warmed
in a background thread with `prefetch_sdk()` while the rest of start-up runs.
The SDK's own retries are off: `cc.core.retry` is the one place that retries.
"""

from __future__ import annotations

import gc
import json
import logging
import os
import threading
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cc.core.accumulate import Accumulated, usage_sent
from cc.core.body import BodyEncoder
from cc.core.controls import CONTEXT_1M_BETA, TOOL_SEARCH_BETA, RequestControls
from cc.core.credentials import Credentials
from cc.core.dialect import FULL, PLAIN, Dialect, dialect_for, refuses_extensions
from cc.core.events import BlockComplete, StreamEvent, TextDelta, ThinkingStarted
from cc.errors import ModelCallError, StreamBrokenError
from cc.models.catalog import ONE_MILLION_SUFFIX, model_info
from cc.models.content_blocks import TextBlock, ThinkingBlock, ToolUseBlock, parse_block
from cc.models.messages import AssistantMessage
from cc.prompts.builder import PromptSection

if TYPE_CHECKING:
    import anthropic

    from cc.core.sdk import SDK

_EPHEMERAL: dict[str, Any] = {"type": "ephemeral"}
#: The Messages API's stream events (the SDK's stream also yields other APIs' kinds).
_RAW_EVENTS = frozenset({
    "message_start", "message_delta", "message_stop",
    "content_block_start", "content_block_delta", "content_block_stop",
})
NOT_LOGGED_IN = (
    "Not logged in: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN, or an apiKeyHelper "
    "in settings)"
)
#: A non-streaming call may take long; the SDK refuses big ones unless told a timeout.
NON_STREAMING_TIMEOUT_S = 600.0
_prefetch: threading.Thread | None = None
#: The longest the first request waits for a prefetch under way (it takes well under a
#: second; past this the request goes on and loads what it needs itself).
PREFETCH_WAIT_S = 30.0
log = logging.getLogger(__name__)


def prefetch_sdk(*, warm: bool) -> None:
    """Start importing the SDK in a background thread (idempotent). `warm`: then play a
    canned answer through it (`sdk.warm`), worth it only while the process would idle
    (a prompt waiting for the user); when the first request is about to go, the warm-up
    holds the interpreter longer than it saves that request."""
    global _prefetch
    if _prefetch is None:
        _prefetch = threading.Thread(target=_import_sdk, args=(warm,), name="sdk-import",
                                     daemon=True)
        _prefetch.start()


def _import_sdk(warm: bool) -> None:
    from cc.core import sdk

    try:
        loaded = sdk.load()
        if warm:
            sdk.warm(loaded)
    finally:
        start_up_over()


def start_up_over() -> None:
    """Start-up is over (the SDK is loaded and warm). What it made (the SDK, its pydantic
    validators, ours) lives as long as the process: it is kept out of the garbage
    collector's full passes, which otherwise walked it all, 30-190 ms at a time on the
    event loop. The collector, off while start-up allocates much and frees little
    (`cc.main.main`: some 10% of a print run's CPU), runs again from here."""
    gc.freeze()
    gc.enable()


def _sdk() -> SDK:
    """The SDK, once a prefetch under way (which also warms its validators) is over."""
    from cc.core import sdk

    if _prefetch is not None and _prefetch is not threading.current_thread():
        _prefetch.join(PREFETCH_WAIT_S)  # bounded: a stuck warm-up must not hold the call
    loaded = sdk.load()
    if not gc.isenabled():  # (a request with no prefetch before it)
        start_up_over()
    return loaded


@dataclass
class ModelRequest:
    model: str
    max_tokens: int
    system: Sequence[PromptSection]
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] = field(default_factory=list)
    thinking_budget: int | None = None
    #: `{"type": "auto"}` and the like (None: the API's default).
    tool_choice: dict[str, Any] | None = None
    #: Extra HTTP headers (a sub-agent's `x-claude-code-agent-id`).
    headers: dict[str, str] = field(default_factory=dict)
    #: Thinking mode, effort, task budget, betas (`cc.core.controls`).
    controls: RequestControls = field(default_factory=RequestControls)
    #: The session the request is part of (`metadata.user_id` names it).
    session_id: str | None = None
    #: `output_config.format`: the shape the answer must take (a JSON schema), sent
    #: where the endpoint takes `output_config`.
    output_format: dict[str, Any] | None = None

    def to_params(self, dialect: Dialect = FULL) -> dict[str, Any]:
        model, headers = self.model, dict(self.headers)
        info = model_info(model)
        betas = [b for b in headers.pop("anthropic-beta", "").split(",") if b]
        one_million = model.lower().endswith(ONE_MILLION_SUFFIX)
        if one_million:  # Claude Code's spelling of the 1M window: the id without it
            model = model[: -len(ONE_MILLION_SUFFIX)]
        thinking = self.controls.thinking(info, self.max_tokens, self.thinking_budget, dialect)
        cache = self.controls.cache_control(dialect)
        betas += self.controls.beta_headers(info, thinking=thinking is not None,
                                            dialect=dialect)
        if one_million and model_info(model).context_window < 1_000_000:
            betas.append(CONTEXT_1M_BETA)  # (a model with 1M of its own needs none)
        if not dialect.betas:
            betas = []
        if any(t.get("defer_loading") for t in self.tools):
            betas.append(TOOL_SEARCH_BETA)  # deferred tools need it, whoever serves them
        if betas:
            headers["anthropic-beta"] = ",".join(dict.fromkeys(betas))
        params: dict[str, Any] = {
            "model": model,
            "max_tokens": self.max_tokens,
            "messages": with_message_breakpoint(self.messages, cache),
        }
        system = system_blocks(self.system, cache)
        if system:
            params["system"] = system
        if self.tools:
            params["tools"] = self.tools
        if self.tool_choice is not None:
            params["tool_choice"] = self.tool_choice
        if thinking is not None:
            params["thinking"] = thinking
        managed = self.controls.context_management(thinking=thinking is not None,
                                                   dialect=dialect)
        if managed is not None:
            params["context_management"] = managed
        output_config = self.controls.output_config(info, dialect)
        if self.output_format is not None and dialect.extensions:
            output_config = {**output_config, "format": self.output_format}
        if output_config:
            params["output_config"] = output_config
        if headers:
            params["extra_headers"] = headers
        return params


def system_blocks(sections: Sequence[PromptSection],
                  cache: dict[str, Any] | None = _EPHEMERAL) -> list[dict[str, Any]]:
    """System text blocks: each run of sections alike in being cacheable or not is one
    block (sections joined by a blank line, as `render` joins them; a block per section
    only costs bytes), a cache breakpoint (`cache`; None: none) closing the static
    (cacheable) prefix."""
    runs: list[tuple[bool, list[str]]] = []
    for section in sections:
        if not section.text.strip():
            continue
        if runs and runs[-1][0] == section.cacheable:
            runs[-1][1].append(section.text)
        else:
            runs.append((section.cacheable, [section.text]))
    blocks: list[dict[str, Any]] = [{"type": "text", "text": "\n\n".join(texts)}
                                    for _, texts in runs]
    last_static = max((i for i, (cacheable, _) in enumerate(runs) if cacheable), default=None)
    if last_static is not None and cache is not None:
        blocks[last_static]["cache_control"] = dict(cache)
    return blocks


def with_message_breakpoint(messages: list[dict[str, Any]],
                            cache: dict[str, Any] | None = _EPHEMERAL) -> list[dict[str, Any]]:
    """A copy of `messages` with a cache breakpoint (`cache`; None: none) on the last
    cacheable block."""
    if not messages or cache is None:
        return messages
    out = list(messages)
    last = dict(out[-1])
    content = last["content"]
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    blocks: list[dict[str, Any]] = [dict(b) for b in content]
    for block in reversed(blocks):
        if block.get("type") not in ("thinking", "redacted_thinking"):
            block["cache_control"] = dict(cache)
            break
    last["content"] = blocks
    out[-1] = last
    return out


def client_headers(env: dict[str, str] | None = None) -> dict[str, str]:
    """The headers of every request: who sends it, and ANTHROPIC_CUSTOM_HEADERS (one
    `Name: value` per line)."""
    from cc import __version__

    env = dict(os.environ) if env is None else env
    entrypoint = env.get("CLAUDE_CODE_ENTRYPOINT") or "cli"
    headers = {"x-app": "cli", "user-agent": f"cc/{__version__} (external, {entrypoint})"}
    for line in (env.get("ANTHROPIC_CUSTOM_HEADERS") or "").splitlines():
        name, sep, value = line.partition(":")
        if sep and name.strip():
            headers[name.strip()] = value.strip()
    return headers


class ModelClient:
    """Streams one assistant message. Errors propagate raw; `retry` classifies them.

    Every request carries `x-app: cli`, a user agent naming cc, ANTHROPIC_CUSTOM_HEADERS
    and `metadata.user_id` (this device and the request's session, as Claude Code
    spells it). What it sends beyond the API's core follows `dialect`, which drops to
    PLAIN for good the first time the endpoint refuses an extension (`cc.core.dialect`).
    """

    def __init__(self, credentials: Credentials, *, config_dir: Path | None = None,
                 dialect: Dialect | None = None) -> None:
        self._credentials = credentials
        self._sdk: anthropic.AsyncAnthropic | None = None
        self._config_dir = config_dir
        self._device: str | None = None
        self.dialect = dialect_for(credentials.base_url) if dialect is None else dialect
        #: Encodes request bodies, reusing the bytes of what earlier ones sent.
        self._bodies = BodyEncoder()

    def _client(self) -> anthropic.AsyncAnthropic:
        if self._sdk is None:
            creds = self._credentials
            if not (creds.api_key or creds.auth_token):
                raise ModelCallError(NOT_LOGGED_IN, kind="authentication_failed")
            loaded = _sdk()
            self._sdk = loaded.AsyncAnthropic(
                api_key=creds.api_key,
                auth_token=creds.auth_token,
                base_url=creds.base_url,
                max_retries=0,
                default_headers=client_headers(),
                http_client=loaded.http_client(),
            )
        return self._sdk

    def _params(self, request: ModelRequest, dialect: Dialect) -> dict[str, Any]:
        params = request.to_params(dialect)
        if request.session_id is not None:
            if self._device is None:
                from cc.config.device import device_id

                self._device = device_id(self._config_dir) if self._config_dir else ""
            params["metadata"] = {"user_id": json.dumps(
                {"device_id": self._device, "account_uuid": "",
                 "session_id": request.session_id}, separators=(",", ":"))}
        log.debug("request to %s: model %s, max_tokens %s, %d messages, %d tools (%s dialect)",
                  self.endpoint, params["model"], params["max_tokens"],
                  len(params["messages"]), len(params.get("tools", ())), dialect.name)
        return params

    def _refused(self, exc: Exception, dialect: Dialect, yielded: bool) -> bool:
        """Whether `exc` says the endpoint does not take what `dialect` sent (then the
        client keeps to PLAIN and the request goes again)."""
        from cc.core import sdk

        if yielded or dialect is PLAIN or not isinstance(exc, sdk.load().BadRequestError):
            return False
        if not refuses_extensions(exc.status_code, str(exc)):
            return False
        log.warning("the endpoint refused an Anthropic extension (%s); sending plain "
                    "Messages API requests from now on", str(exc)[:200])
        self.dialect = PLAIN
        return True

    @property
    def endpoint(self) -> str:
        return (self._credentials.base_url or "https://api.anthropic.com").rstrip("/")

    async def stream(
        self, request: ModelRequest, *, streaming: bool = True
    ) -> AsyncIterator[
        StreamEvent | TextDelta | ThinkingStarted | BlockComplete | AssistantMessage
    ]:
        """Events while the message streams, then the finished AssistantMessage."""
        while True:
            dialect, yielded = self.dialect, False
            try:
                attempt = (self._streamed(request, dialect) if streaming
                           else self._whole(request, dialect))
                async for item in attempt:
                    yielded = True
                    yield item
                return
            except Exception as exc:  # noqa: BLE001 - only a refused extension is ours
                if not self._refused(exc, dialect, yielded):
                    raise

    async def _streamed(
        self, request: ModelRequest, dialect: Dialect
    ) -> AsyncIterator[
        StreamEvent | TextDelta | ThinkingStarted | BlockComplete | AssistantMessage
    ]:
        from cc.core import sdk

        loaded = sdk.load()
        client = self._client()
        message = Accumulated()
        stream = await loaded.create_message(client, self._params(request, dialect), stream=True,
                                             bodies=self._bodies)
        async with stream:
            open_blocks: set[int] = set()
            ended = False
            #: A finished tool_use, announced once the model has moved past it.
            call: BlockComplete | None = None
            try:
                async for event in stream:
                    kind = event["type"]
                    if kind in _RAW_EVENTS:
                        yield StreamEvent(event, kind)
                    ended_block = message.add(event)
                    if kind == "content_block_delta":
                        delta = event["delta"]
                        if delta["type"] == "text_delta" and delta["text"]:
                            yield TextDelta(delta["text"])
                    elif kind == "content_block_start":
                        if call is not None:
                            yield call
                            call = None
                        open_blocks.add(event["index"])
                        if event["content_block"]["type"] in ("thinking", "redacted_thinking"):
                            yield ThinkingStarted()
                    elif kind == "content_block_stop" and ended_block is not None:
                        open_blocks.discard(event["index"])
                        done = BlockComplete(event["index"], parse_block(dict(ended_block)))
                        if isinstance(done.block, ToolUseBlock):
                            call = done
                        else:
                            yield done
                    elif kind == "message_delta":
                        if call is not None and event["delta"].get("stop_reason") != "max_tokens":
                            yield call
                        call = None
                    elif kind == "message_stop":
                        ended = True
            except loaded.APIStatusError:
                raise  # an `error` event in the stream: the retry module reads its type
            except Exception as exc:  # noqa: BLE001 - whatever breaks a begun stream voids it
                raise StreamBrokenError(
                    f"the response stream broke off ({_describe(exc)})", endpoint=self.endpoint
                ) from exc
            if not ended or open_blocks:
                missing = "message_stop" if not ended else f"the end of block {min(open_blocks)}"
                raise StreamBrokenError(
                    f"the response stream ended before {missing}", endpoint=self.endpoint
                )
        yield AssistantMessage(
            content=[parse_block(b) for b in message.content()],
            message_id=message.message_id,
            model=message.model,
            stop_reason=message.stop_reason,
            usage=message.usage,
        )

    async def _whole(
        self, request: ModelRequest, dialect: Dialect
    ) -> AsyncIterator[TextDelta | ThinkingStarted | BlockComplete | AssistantMessage]:
        """The same call without streaming: the message arrives whole, then is replayed."""
        from cc.core import sdk

        loaded = sdk.load()
        client = self._client()
        try:
            message = _assistant(await loaded.create_message(
                client, self._params(request, dialect), stream=False,
                timeout=NON_STREAMING_TIMEOUT_S, bodies=self._bodies))
        except (loaded.APIStatusError, loaded.APIConnectionError):
            raise
        except Exception as exc:  # noqa: BLE001 - a garbled body is a broken response
            raise StreamBrokenError(
                f"the response could not be read ({_describe(exc)})", endpoint=self.endpoint
            ) from exc
        for index, block in enumerate(message.content):
            if isinstance(block, TextBlock) and block.text:
                yield TextDelta(block.text)
            elif isinstance(block, ThinkingBlock) or block.type == "redacted_thinking":
                yield ThinkingStarted()
            last = index == len(message.content) - 1
            if not (last and message.stop_reason == "max_tokens" and block.type == "tool_use"):
                yield BlockComplete(index, block)
        yield message

    async def close(self) -> None:
        if self._sdk is not None:
            await self._sdk.close()
            self._sdk = None


def _assistant(final: object) -> AssistantMessage:
    """The message a non-streamed call answered: the API's JSON object, as the SDK read
    it (text when the answer was not JSON)."""
    if isinstance(final, str):
        try:
            final = json.loads(final)
        except ValueError:
            pass
    if not isinstance(final, dict) or not isinstance(final.get("content"), list):
        raise ValueError(f"not a message: {str(final)[:200]}")
    return AssistantMessage(
        content=[parse_block(b) for b in final["content"]],
        message_id=final.get("id", ""),
        model=final.get("model", ""),
        stop_reason=final.get("stop_reason"),
        usage=usage_sent(final.get("usage")),
    )


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:200]}" if text else type(exc).__name__
