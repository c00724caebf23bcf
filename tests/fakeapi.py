"""A fake Anthropic Messages API: a real HTTP server on 127.0.0.1 that plays scripted turns.

Usage::

    with FakeAPI() as server:
        server.script(Reply([text("hi")]), Reply([tool_use("Bash", {"command": "ls"})]))
        client = anthropic.AsyncAnthropic(base_url=server.base_url, api_key="k", max_retries=0)
        ...
        server.assert_clean()

When several agents share one process (a main agent and its sub-agents, perhaps in
parallel) the order of their requests is not fixed; give each its own queue instead::

    main = server.route("You are Claude Code", Reply([tool_use("Task", {...})]), "done")
    sub = server.route("Find the config file", "found it at ./cc.toml")
    ...
    assert sub.turns_left == 0 and "found it" in last_user_text(main.requests[-1].body)

A string route matches a request whose system prompt or first user message contains it;
a callable one is asked ``match(body)``. The first route (in creation order) that matches
and still has turns serves the request (``Recorded.route`` names it); otherwise the
default queue of ``script()`` does.

Every ``POST /v1/messages`` is recorded (``server.requests``), validated against the
rules the real API enforces (problems go to ``server.violations``) and answered with the
next scripted turn. Streaming answers use HTTP/1.1 chunked encoding and the real SSE event
sequence, so the genuine ``anthropic`` SDK (or a subprocess pointed at ``base_url``) can
consume them. Stdlib only.
"""

from __future__ import annotations

import itertools
import json
import socket
import struct
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeAlias
from urllib.parse import urlsplit

__all__ = [
    "CutStream", "Dynamic", "FakeAPI", "Fault", "Hang", "Malformed", "Match", "Recorded", "Reply", "Route", "StreamError",
    "Turn", "first_user_text", "last_user_text", "redacted_thinking", "server_tool_use", "system_text", "text",
    "thinking", "tool_use", "web_search_result",
]

Block: TypeAlias = dict[str, Any]
_tool_ids = itertools.count(1)

# ---------------------------------------------------------------------------------------
# Content block builders (they return API-shaped content blocks)


def text(s: str) -> Block:
    return {"type": "text", "text": s}


def tool_use(name: str, input: dict[str, Any], id: str | None = None) -> Block:  # noqa: A002
    return {"type": "tool_use", "id": id or f"toolu_{next(_tool_ids):04d}", "name": name, "input": input}


def thinking(text: str, signature: str = "sig-fake-signature") -> Block:
    return {"type": "thinking", "thinking": text, "signature": signature}


def redacted_thinking(data: str) -> Block:
    return {"type": "redacted_thinking", "data": data}


def server_tool_use(query: str, id: str | None = None) -> Block:  # noqa: A002
    """A server-side web search call (its input streams like a tool_use's)."""
    return {"type": "server_tool_use", "id": id or f"srvtoolu_{next(_tool_ids):04d}",
            "name": "web_search", "input": {"query": query}}


def web_search_result(tool_use_id: str, url: str = "https://example.com/a") -> Block:
    """The server's results for a ``server_tool_use`` (sent whole, as the real API does)."""
    return {"type": "web_search_tool_result", "tool_use_id": tool_use_id, "content": [
        {"type": "web_search_result", "url": url, "title": "Example", "encrypted_content": "EqgB...",
         "page_age": "April 1, 2026"}]}


# ---------------------------------------------------------------------------------------
# Scripted turns


@dataclass
class Reply:
    """A successful assistant message. ``blocks`` may be a plain string (one text block)."""

    blocks: list[Block] | str
    stop_reason: str | None = None  # None -> "tool_use" if any tool_use block, else "end_turn"
    usage: dict[str, int] | None = None  # overrides input/output/cache_* token counts
    chunk_delay: float = 0.0  # sleep between SSE events
    pause_after_block: dict[int, float] = field(default_factory=dict)  # sleep after block i stops
    pause_after_event: dict[int, float] = field(default_factory=dict)  # sleep after SSE event i
    #: After block i stops, wait until the condition holds (polled; at most HOLD_LIMIT s,
    #: after which a violation is recorded). The way to say "the client must react to
    #: block i before the message goes on" without guessing how long that takes.
    hold_after_block: dict[int, Callable[[], object]] = field(default_factory=dict)
    stop_sequence: str | None = None
    #: Stream only this many characters of the last tool_use's input JSON, as the real
    #: API does when max_tokens cuts a call short (non-streaming replies send it whole).
    cut_input_at: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.blocks, str):
            self.blocks = [text(self.blocks)]
        if self.stop_reason is None:
            has_tool = any(b["type"] == "tool_use" for b in self.content)
            self.stop_reason = "tool_use" if has_tool else "end_turn"

    @property
    def content(self) -> list[Block]:
        """The content blocks (``blocks`` after normalisation)."""
        assert not isinstance(self.blocks, str)
        return self.blocks


_DEFAULT_ERROR_TYPES = {
    400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
    404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error",
    500: "api_error", 529: "overloaded_error",
}


@dataclass
class Fault:
    """An HTTP error answered in API shape (``x-should-retry`` is deliberately not sent).

    ``headers`` are sent as given. A ``retry-after`` (seconds or HTTP date) or
    ``retry-after-ms`` header is also enforced: a request that arrives before the time
    it names is a violation."""

    status: int
    error_type: str | None = None
    message: str | None = None
    headers: dict[str, str] | None = None

    def body(self) -> dict[str, Any]:
        etype = self.error_type or _DEFAULT_ERROR_TYPES.get(self.status, "api_error")
        return {"type": "error", "error": {"type": etype, "message": self.message or etype.replace("_", " ")}}


@dataclass
class CutStream:
    """Stream ``reply`` but stop after ``after_events`` SSE events (counting message_start
    and ping). By default the connection is dropped without the terminating zero-length
    chunk; ``reset=True`` sends a TCP RST instead of a clean FIN; ``clean_end=True`` ends
    the HTTP body properly (the zero-length chunk) although ``message_stop`` never came.
    For a non-streaming request the connection is dropped before any response is sent."""

    reply: Reply
    after_events: int
    reset: bool = False
    clean_end: bool = False


@dataclass
class Malformed:
    """Stream ``reply`` but, after ``after_events`` events, send ``data`` as an event's data
    line (by default not JSON), then the rest of the events. Non-streaming requests get a
    200 response whose body is ``data``."""

    reply: Reply
    after_events: int
    data: str = '{"type": "content_block_delta", "index": 0, "delta": {"type": "text_d'


@dataclass
class StreamError:
    """Stream ``reply`` for ``after_events`` events, then send an SSE ``error`` event (as the
    real API does for mid-stream overloads) and end the body cleanly. Non-streaming requests
    get the error as an HTTP 529 response instead."""

    reply: Reply
    after_events: int
    error_type: str = "overloaded_error"
    message: str = "Overloaded"


@dataclass
class Hang:
    """Read the request, then sleep ``seconds`` (interrupted by ``stop()``) and drop the
    connection without answering."""

    seconds: float


@dataclass
class Dynamic:
    """A turn made from the request it answers (e.g. to name an id the client chose)."""

    make: Callable[[dict[str, Any]], Reply | Fault | CutStream | Malformed | StreamError | Hang]


Turn: TypeAlias = Reply | Fault | CutStream | Malformed | StreamError | Hang | Dynamic

#: The longest a `Reply.hold_after_block` condition is waited for.
HOLD_LIMIT = 30.0


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]  # lower-cased names
    body: dict[str, Any]
    #: Wall-clock time (time.time()) when the request arrived.
    at: float = field(default_factory=time.time)
    #: The name of the route whose turn answered it (None: the default queue, or no turn).
    route: str | None = None
    #: The body's size in bytes, as it came over the wire (what the fake reports as
    #: input_tokens is this / 4).
    size: int = 0
    #: Wall-clock time (time.time()) when the answer was written whole (None: not yet,
    #: or the connection was cut); `answered - at` is the fake's own time on it.
    answered: float | None = None
    #: Seconds the fake spent parsing the body's JSON (before `at`).
    parse_s: float = 0.0


# ---------------------------------------------------------------------------------------
# Reading request bodies (tolerant: a malformed body reads as empty text)


def _block_texts(content: object) -> list[str]:
    """The text of a message's content: a string, or the text of its text blocks."""
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list):
        return []
    return [b["text"] for b in content
            if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)]


def _user_messages(body: object) -> list[dict[str, Any]]:
    messages = body.get("messages") if isinstance(body, dict) else None
    if not isinstance(messages, list):
        return []
    return [m for m in messages if isinstance(m, dict) and m.get("role") == "user"]


def system_text(body: dict[str, Any]) -> str:
    """The system prompt's text: the string, or all its text blocks joined by newlines."""
    return "\n".join(_block_texts(body.get("system") if isinstance(body, dict) else None))


def first_user_text(body: dict[str, Any]) -> str:
    """The text of the first user message (its text blocks joined by newlines)."""
    users = _user_messages(body)
    return "\n".join(_block_texts(users[0].get("content"))) if users else ""


def last_user_text(body: dict[str, Any]) -> str:
    """The text of the last user message, tool results' text included, in block order."""
    users = _user_messages(body)
    if not users:
        return ""
    content = users[-1].get("content")
    if not isinstance(content, list):
        return "\n".join(_block_texts(content))
    parts: list[str] = []
    for b in content:
        if isinstance(b, dict) and b.get("type") == "tool_result":
            parts += _block_texts(b.get("content"))
        else:
            parts += _block_texts([b])
    return "\n".join(parts)


#: What a route answers: a string to find in the system prompt or first user message, or a
#: predicate of the request body (called on a handler thread, outside the server's lock).
Match: TypeAlias = str | Callable[[dict[str, Any]], object]


class Route:
    """A named queue of turns for the requests that ``match`` (made by `FakeAPI.route`)."""

    def __init__(self, name: str, match: Match, lock: threading.Lock) -> None:
        self.name = name
        self.match = match
        self._lock = lock  # the server's
        self._turns: list[Turn] = []
        self._served: list[Recorded] = []

    @property
    def requests(self) -> list[Recorded]:
        """The requests this route's turns answered, in order."""
        with self._lock:
            return list(self._served)

    @property
    def turns_left(self) -> int:
        with self._lock:
            return len(self._turns)

    def matches(self, body: dict[str, Any]) -> bool:
        if isinstance(self.match, str):
            return self.match in system_text(body) or self.match in first_user_text(body)
        return bool(self.match(body))

    def __repr__(self) -> str:
        return f"Route({self.name!r}, turns_left={len(self._turns)}, served={len(self._served)})"


class _Cut(Exception):
    """Raised inside the handler to abandon the response abruptly."""


# ---------------------------------------------------------------------------------------
# Request validation (the rules of the real API that a client is most likely to break)


#: The beta that deferred tools (`defer_loading`) and `tool_reference` blocks need.
TOOL_SEARCH_BETA = "advanced-tool-use-2025-11-20"


def validate_deferred(body: dict[str, Any], headers: dict[str, str]) -> list[str]:
    """The tool-search rules: deferred tools and `tool_reference` blocks need the beta;
    not every tool may be deferred; a reference names a tool defined with defer_loading."""
    problems: list[str] = []
    tools = body.get("tools") or []
    deferred = {t.get("name") for t in tools if t.get("defer_loading")}
    references = [c.get("tool_name") for m in body.get("messages") or []
                  if isinstance(m, dict) and isinstance(m.get("content"), list)
                  for b in m["content"] if isinstance(b, dict) and b.get("type") == "tool_result"
                  and isinstance(b.get("content"), list)
                  for c in b["content"] if isinstance(c, dict) and c.get("type") == "tool_reference"]
    betas = {b.strip() for b in headers.get("anthropic-beta", "").split(",")}
    if (deferred or references) and TOOL_SEARCH_BETA not in betas:
        problems.append(f"defer_loading or tool_reference without the {TOOL_SEARCH_BETA} beta")
    if tools and len(deferred) == len(tools):
        problems.append("every tool has defer_loading: at least one must be loaded")
    for name in references:
        if name not in deferred:
            problems.append(f"tool_reference to {name!r}, which no tool with defer_loading defines")
    return problems


def validate(body: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    for key in ("model", "max_tokens"):
        if key not in body:
            problems.append(f"missing {key!r}")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return problems + ["'messages' missing or empty"]

    cache_markers = int("cache_control" in body)  # top-level automatic caching marker
    system = body.get("system")
    if isinstance(system, list):
        cache_markers += sum("cache_control" in b for b in system)
    cache_markers += sum("cache_control" in t for t in body.get("tools") or [])
    tool_names = [t.get("name") for t in body.get("tools") or []]
    if len(tool_names) != len(set(tool_names)):
        problems.append(f"duplicate tool names: {tool_names}")

    seen_ids: set[str] = set()
    prev_tool_ids: list[str] = []  # tool_use ids of the previous assistant message
    for i, msg in enumerate(messages):
        where = f"messages[{i}]"
        if not isinstance(msg, dict):
            problems.append(f"{where}: not an object")
            continue
        role, content = msg.get("role"), msg.get("content")
        expected = "user" if i % 2 == 0 else "assistant"
        if role != expected:
            problems.append(f"{where}: role {role!r}, expected {expected!r} (roles must alternate, user first)")
        if content in ("", [], None):
            problems.append(f"{where}: empty content")
            continue
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        blocks = [b if isinstance(b, dict) else {"type": repr(b)} for b in blocks]
        cache_markers += sum("cache_control" in b for b in blocks)
        for b in blocks:
            if b.get("type") == "text" and not str(b.get("text") or "").strip():
                problems.append(f"{where}: text content blocks must contain non-whitespace text")
        if role == "assistant":
            prev_tool_ids = []
            for b in blocks:
                if b.get("type") == "tool_use":
                    if b.get("id") in seen_ids:
                        problems.append(f"{where}: duplicate tool_use id {b.get('id')!r}")
                    seen_ids.add(b.get("id"))
                    prev_tool_ids.append(b.get("id"))
                elif b.get("type") == "thinking" and not b.get("signature"):
                    problems.append(f"{where}: thinking block without signature")
                elif b.get("type") == "tool_result":
                    problems.append(f"{where}: tool_result in an assistant message")
            continue
        # user message: must answer exactly the previous assistant's tool_use ids, results first
        result_ids = [b.get("tool_use_id") for b in blocks if b.get("type") == "tool_result"]
        for rid in result_ids:
            if rid not in prev_tool_ids:
                problems.append(f"{where}: tool_result for unknown tool_use id {rid!r}")
        if len(result_ids) != len(set(result_ids)):
            problems.append(f"{where}: duplicate tool_result ids {result_ids}")
        if i > 0:
            missing = [t for t in prev_tool_ids if t not in result_ids]
            if missing:
                problems.append(f"messages[{i - 1}]: tool_use ids without tool_result immediately after: {missing}")
        types = [b.get("type") for b in blocks]
        if result_ids and types[: len(result_ids)] != ["tool_result"] * len(result_ids):
            problems.append(f"{where}: tool_result blocks must come first in the content")
        prev_tool_ids = []
    if cache_markers > 4:
        problems.append(f"{cache_markers} cache_control markers (maximum is 4)")
    return problems


# ---------------------------------------------------------------------------------------
# SSE rendering


def _split(s: str, n: int = 3) -> list[str]:
    """Split ``s`` into about ``n`` non-empty pieces."""
    if not s:
        return []
    size = max(1, -(-len(s) // n))
    return [s[i : i + size] for i in range(0, len(s), size)]


def _usage(reply: Reply, input_tokens: int) -> dict[str, int]:
    out = max(1, len(json.dumps(reply.content)) // 4)
    usage = {"input_tokens": input_tokens, "output_tokens": out,
             "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
    return usage | (reply.usage or {})


def _message(reply: Reply, model: str, usage: dict[str, int], final: bool) -> dict[str, Any]:
    """The message object: whole (non-streaming) or as announced by ``message_start``."""
    return {"id": f"msg_{uuid.uuid4().hex[:24]}", "type": "message", "role": "assistant", "model": model,
            "content": list(reply.content) if final else [], "stop_reason": reply.stop_reason if final else None,
            "stop_sequence": reply.stop_sequence if final else None, "usage": usage}


def _sse_events(reply: Reply, model: str, input_tokens: int) -> list[tuple[dict[str, Any], float]]:
    """The SSE events of ``reply``, each paired with the pause to take after sending it."""
    usage = _usage(reply, input_tokens)
    d = reply.chunk_delay
    start = _message(reply, model, usage | {"output_tokens": 1}, final=False)
    events: list[tuple[dict[str, Any], float]] = [({"type": "message_start", "message": start}, d), ({"type": "ping"}, d)]
    for i, b in enumerate(reply.content):
        kind = b["type"]
        deltas: list[dict[str, Any]] = []
        if kind == "text":
            first: Block = {"type": "text", "text": ""}
            deltas = [{"type": "text_delta", "text": p} for p in _split(b["text"])]
            if "citations" in b:  # the real API streams them as citations_delta events
                first["citations"] = []
                deltas += [{"type": "citations_delta", "citation": c} for c in b["citations"]]
        elif kind in ("tool_use", "server_tool_use"):
            first = {"type": kind, "id": b["id"], "name": b["name"], "input": {}}
            raw = json.dumps(b["input"])
            if reply.cut_input_at is not None and i == len(reply.content) - 1:
                raw = raw[: reply.cut_input_at]
            deltas = [{"type": "input_json_delta", "partial_json": p} for p in _split(raw)]
        elif kind == "thinking":
            first = {"type": "thinking", "thinking": "", "signature": ""}
            deltas = [{"type": "thinking_delta", "thinking": p} for p in _split(b["thinking"])]
            deltas.append({"type": "signature_delta", "signature": b["signature"]})
        else:  # redacted_thinking, server tool results and anything else: sent whole
            first = b
        events.append(({"type": "content_block_start", "index": i, "content_block": first}, d))
        events += [({"type": "content_block_delta", "index": i, "delta": delta}, d) for delta in deltas]
        events.append(({"type": "content_block_stop", "index": i}, d + reply.pause_after_block.get(i, 0.0)))
    delta = {"stop_reason": reply.stop_reason, "stop_sequence": reply.stop_sequence}
    events.append(({"type": "message_delta", "delta": delta, "usage": {"output_tokens": usage["output_tokens"]}}, d))
    events.append(({"type": "message_stop"}, 0.0))
    return [(event, pause + reply.pause_after_event.get(i, 0.0))
            for i, (event, pause) in enumerate(events)]


# ---------------------------------------------------------------------------------------
# The server


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive + chunked transfer encoding
    server: _Server

    # Small SSE writes must not wait on Nagle + delayed ACK (~40 ms each).
    disable_nagle_algorithm = True

    def setup(self) -> None:
        super().setup()
        self.server.api._track(self.connection, add=True)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.api._track(self.connection, add=False)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet
        pass

    def do_GET(self) -> None:
        self._send_json(404, Fault(404, message=f"no route {self.path}").body())

    def do_POST(self) -> None:
        api = self.server.api
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        parsing = time.perf_counter()
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        parse_s = time.perf_counter() - parsing
        headers = {k.lower(): v for k, v in self.headers.items()}
        # A client that reaches the fake as its HTTP proxy names the whole URL (a test of
        # what goes to https://api.anthropic.com sets HTTP_PROXY and an http:// base URL):
        # the host is recorded as the Host header, the path as usual.
        path = urlsplit(self.path).path if "://" in self.path else self.path.split("?")[0]
        rec = Recorded(path, headers, body, size=len(raw), parse_s=parse_s)
        index, turn = api._record(rec)
        try:
            if path.startswith("/v1/messages/count_tokens"):
                self._send_json(200, {"input_tokens": len(raw) // 4})
            elif path == "/v1/messages":
                self._play(turn, body, len(raw) // 4)
            else:
                self._send_json(404, Fault(404, message=f"no route {self.path}").body())
            self.wfile.flush()
            rec.answered = time.time()
        except (_Cut, OSError):
            self.close_connection = True
        except Exception as exc:  # a bug in the fake: surface it to the test, not just stderr
            api._violate(f"request {index}: fake api crashed: {exc!r}")
            self.close_connection = True

    # -- turns ---------------------------------------------------------------------------

    def _play(self, turn: Turn | None, body: dict[str, Any], input_tokens: int) -> None:
        if isinstance(turn, Dynamic):
            turn = turn.make(body)
        stream = bool(body.get("stream"))
        model = str(body.get("model", "unknown"))
        if turn is None:
            self._send_json(500, Fault(500, message="fake api: no scripted turn left").body())
        elif isinstance(turn, Fault):
            self._send_json(turn.status, turn.body(), turn.headers)
        elif isinstance(turn, Hang):
            self.server.api._stopping.wait(turn.seconds)
            self._cut(reset=False)
        elif isinstance(turn, Reply):
            self._reply(turn, model, input_tokens, stream)
        elif isinstance(turn, CutStream):
            if not stream:
                self._cut(turn.reset)
            self._stream(turn.reply, model, input_tokens, limit=turn.after_events,
                         clean_end=turn.clean_end)
            if not turn.clean_end:
                self._cut(turn.reset)
        elif isinstance(turn, Malformed):
            if not stream:
                self._send_raw(200, turn.data.encode())
            else:
                self._stream(turn.reply, model, input_tokens, garble=(turn.after_events, turn.data))
        elif isinstance(turn, StreamError):
            if not stream:
                self._send_json(529, Fault(529, turn.error_type, turn.message).body())
            else:
                error = {"type": "error", "error": {"type": turn.error_type, "message": turn.message}}
                self._stream(turn.reply, model, input_tokens, limit=turn.after_events, then=error)

    def _reply(self, reply: Reply, model: str, input_tokens: int, stream: bool) -> None:
        if stream:
            self._stream(reply, model, input_tokens)
        else:
            self._send_json(200, _message(reply, model, _usage(reply, input_tokens), final=True))

    def _stream(self, reply: Reply, model: str, input_tokens: int, limit: int | None = None,
                then: dict[str, Any] | None = None, clean_end: bool = False,
                garble: tuple[int, str] | None = None) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream; charset=utf-8")
        self.send_header("cache-control", "no-cache")
        self.send_header("transfer-encoding", "chunked")
        self.send_header("request-id", f"req_{uuid.uuid4().hex[:24]}")
        self.end_headers()
        events = _sse_events(reply, model, input_tokens)
        if limit is not None:
            events = events[:limit]
        api = self.server.api
        for i, (event, pause) in enumerate(events):
            if garble is not None and i == garble[0]:
                self._chunk(f"event: content_block_delta\ndata: {garble[1]}\n\n".encode())
            api._sent(event["type"])
            self._chunk(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode())
            if pause:
                api._stopping.wait(pause)
            hold = reply.hold_after_block.get(event.get("index", -1))
            if hold is not None and event["type"] == "content_block_stop":
                self._hold(hold, event["index"])
        if limit is not None and then is None and not clean_end:
            return  # the caller cuts the connection
        if then is not None:
            self._chunk(f"event: error\ndata: {json.dumps(then)}\n\n".encode())
        self.wfile.write(b"0\r\n\r\n")

    def _hold(self, condition: Callable[[], object], index: int) -> None:
        api = self.server.api
        end = time.monotonic() + HOLD_LIMIT
        while not condition():
            if api._stopping.is_set():
                return
            if time.monotonic() > end:
                api._violate(f"hold after block {index}: condition never held in {HOLD_LIMIT:g} s")
                return
            api._stopping.wait(0.01)

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))

    def _cut(self, reset: bool) -> None:
        """Drop the connection: FIN (clean EOF mid-body) or RST (connection reset)."""
        if reset:  # SO_LINGER(on, 0) + close => RST; the file objects hold refs, close them too
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.rfile.close()
            self.wfile.close()
            self.connection.close()
        else:
            self.connection.shutdown(socket.SHUT_RDWR)
        raise _Cut

    def _send_json(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        self._send_raw(status, json.dumps(payload).encode(), headers)

    def _send_raw(self, status: int, data: bytes, headers: dict[str, str] | None = None) -> None:
        if headers:  # before the client can see them, so the next request is judged by them
            self.server.api._hold_off(headers)
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.send_header("request-id", f"req_{uuid.uuid4().hex[:24]}")
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    api: FakeAPI

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # client disconnects are expected; real handler bugs are recorded as violations


class FakeAPI:
    """A scripted fake of the Anthropic Messages API on an ephemeral 127.0.0.1 port."""

    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        #: Every SSE event type streamed, with the wall-clock time (time.time()) just before
        #: it was written: a command can compare its own `date +%s.%N` against it.
        self.sent: list[tuple[str, float]] = []
        self.violations: list[str] = []
        self._turns: list[Turn] = []
        self._routes: list[Route] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._connections: set[socket.socket] = set()
        #: time.time() before which no request may come (set by retry-after headers).
        self._not_before = 0.0
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -----------------------------------------------------------------------

    def start(self) -> FakeAPI:
        self._stopping.clear()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.api = self
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,),
                                        name="fakeapi", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is None:
            return
        with self._lock:
            self._stopping.set()  # wakes sleeping turns; new connections are shut at once
            conns = list(self._connections)
        self._server.shutdown()
        for conn in conns:  # unblock handlers idling on keep-alive connections
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self._server.server_close()  # joins the handler threads
        assert self._thread is not None
        self._thread.join()
        self._server = self._thread = None

    def __enter__(self) -> FakeAPI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        assert self._server is not None, "FakeAPI not started"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    # -- scripting and records -----------------------------------------------------------

    def script(self, *turns: Turn | str) -> None:
        """Append turns; a plain string is shorthand for ``Reply([text(s)])``."""
        with self._lock:
            self._turns += [Reply(t) if isinstance(t, str) else t for t in turns]

    def route(self, match: Match, *turns: Turn | str, name: str | None = None) -> Route:
        """A queue of turns for the requests that ``match`` (see the module docstring).

        Another call with an equal ``match`` appends to the same route. ``name`` (default:
        the string, or the callable's ``__name__`` made unique) is what `Recorded.route`
        says."""
        with self._lock:
            route = next((r for r in self._routes if r.match == match), None)
            if route is None:
                if name is None:
                    name = match if isinstance(match, str) else str(getattr(match, "__name__", "route"))
                    if any(r.name == name for r in self._routes):
                        name = f"{name}#{len(self._routes) + 1}"
                route = Route(name, match, self._lock)
                self._routes.append(route)
            route._turns += [Reply(t) if isinstance(t, str) else t for t in turns]
            return route

    @property
    def routes(self) -> list[Route]:
        with self._lock:
            return list(self._routes)

    @property
    def turns_left(self) -> int:
        """Turns not yet played, in the default queue and every route."""
        with self._lock:
            return len(self._turns) + sum(len(r._turns) for r in self._routes)

    @property
    def last_request(self) -> Recorded:
        with self._lock:
            return self.requests[-1]

    @property
    def bodies(self) -> list[dict[str, Any]]:
        """Bodies of the ``/v1/messages`` requests (count_tokens excluded), in order."""
        with self._lock:
            return [r.body for r in self.requests if r.path == "/v1/messages"]

    def assert_clean(self) -> None:
        with self._lock:
            if self.violations:
                raise AssertionError("fake API saw bad requests:\n  " + "\n  ".join(self.violations))

    # -- called from handler threads -----------------------------------------------------

    def _matching(self, body: dict[str, Any]) -> tuple[list[Route], list[str]]:
        """The routes that match ``body`` (asked outside the lock: a predicate may use the
        server), and the problems of predicates that raised."""
        with self._lock:
            routes = list(self._routes)
        matched: list[Route] = []
        problems: list[str] = []
        for route in routes:
            try:
                if route.matches(body):
                    matched.append(route)
            except Exception as exc:  # a bug in the test's predicate: report it, do not match
                problems.append(f"route {route.name!r}: match raised {exc!r}")
        return matched, problems

    def _record(self, rec: Recorded) -> tuple[int, Turn | None]:
        """Record a request; for /v1/messages validate it and pop the next turn: from the
        first matching route with turns left, else from the default queue."""
        is_messages = rec.path == "/v1/messages"
        matched, problems = self._matching(rec.body) if is_messages else ([], [])
        with self._lock:
            index = len(self.requests)
            self.requests.append(rec)
            if not is_messages:
                return index, None
            self.violations += [f"request {index}: {p}" for p in problems]
            if rec.at < self._not_before:
                self.violations.append(f"request {index}: came {self._not_before - rec.at:.3f} s "
                                       "before the retry-after delay was over")
            try:
                self.violations += [f"request {index}: {p}" for p in validate(rec.body)]
                self.violations += [f"request {index}: {p}"
                                    for p in validate_deferred(rec.body, rec.headers)]
            except Exception as exc:  # malformed beyond what validate() expects
                self.violations.append(f"request {index}: unvalidatable body ({exc!r})")
            for route in matched:
                if route._turns:
                    rec.route = route.name
                    route._served.append(rec)
                    return index, route._turns.pop(0)
            if not self._turns:
                empty = f" (matching routes all played: {[r.name for r in matched]})" if matched else ""
                self.violations.append(f"request {index}: no scripted turn left{empty}")
                return index, None
            return index, self._turns.pop(0)

    def _hold_off(self, headers: dict[str, str]) -> None:
        """Enforce a retry-after / retry-after-ms header just sent."""
        named = {k.lower(): v for k, v in headers.items()}
        delay: float | None = None
        if "retry-after-ms" in named:
            delay = float(named["retry-after-ms"]) / 1000
        elif "retry-after" in named:
            value = named["retry-after"]
            try:
                delay = float(value)
            except ValueError:
                from email.utils import parsedate_to_datetime
                delay = parsedate_to_datetime(value).timestamp() - time.time()
        if delay is not None:
            with self._lock:
                self._not_before = max(self._not_before, time.time() + delay)

    def sent_at(self, event_type: str, nth: int = 0) -> float | None:
        """When the `nth` (0-based) SSE event of `event_type` was sent, or None if not yet."""
        with self._lock:
            times = [at for kind, at in self.sent if kind == event_type]
        return times[nth] if nth < len(times) else None

    def _sent(self, event_type: str) -> None:
        with self._lock:
            self.sent.append((event_type, time.time()))

    def _violate(self, problem: str) -> None:
        with self._lock:
            self.violations.append(problem)

    def _track(self, conn: socket.socket, add: bool) -> None:
        with self._lock:
            if not add:
                self._connections.discard(conn)
            elif self._stopping.is_set():
                try:
                    conn.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            else:
                self._connections.add(conn)
