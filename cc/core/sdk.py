"""The `anthropic` SDK's model client, loaded without the rest of the SDK.

`import anthropic` runs the package's `__init__`, which imports every resource and type
the SDK has: some 1,250 modules and 550 pydantic models, more than half of a print-mode
run's wall time. A streamed Messages call needs about a third of them. `load()` makes the
SDK's packages lazy instead, through an import hook for names under `anthropic.`:

- a package whose `__init__` only re-exports names from its own submodules (the SDK's
  `types`, `resources` and most others are written that way) is created empty, with a
  module `__getattr__` that imports the submodule a name comes from on first use;
- any other package runs its `__init__` as usual;
- the top package is created empty too; the first time something asks it for a name
  that is not a submodule (`anthropic.AsyncAnthropic`), it runs its own `__init__` in
  full, so code that does `import anthropic; anthropic.X` still works, only later.

The SDK's code is untouched and its objects are its own, found where it defines them;
only the order and the number of its imports change. `load()` then imports the client
and the exceptions from the modules that define them. Should that fail (an SDK whose
layout differs), the SDK is imported the ordinary way. Two optional imports of the HTTP
stack that cc has no use for are hidden while it loads (`OPTIONAL`).
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import logging
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import ssl

    import anthropic
    import httpx

    from cc.core.body import BodyEncoder

PACKAGE = "anthropic"
#: What the SDK's HTTP stack imports if it can and cc never uses: httpx's command-line
#: client (click, pygments and rich's progress bars) and trio, which httpcore only looks
#: for to learn which event loop runs. Hidden while the SDK loads, they are not imported.
OPTIONAL = ("httpx._main", "trio")
_lock = threading.Lock()
_loaded: SDK | None = None
_tls_lock = threading.Lock()
_tls: ssl.SSLContext | None = None
#: The SDK's request log (`anthropic._base_client`), which ANTHROPIC_LOG=debug turns on.
_sdk_log = logging.getLogger(f"{PACKAGE}._base_client")


@dataclass(frozen=True)
class SDK:
    """What cc uses of the SDK."""

    AsyncAnthropic: type[anthropic.AsyncAnthropic]
    APIStatusError: type[anthropic.APIStatusError]
    APIConnectionError: type[anthropic.APIConnectionError]
    BadRequestError: type[anthropic.BadRequestError]
    #: The SDK's own HTTP client class, with its timeouts, limits and keep-alive.
    DefaultAsyncHttpxClient: type[httpx.AsyncClient]
    #: The SDK's stream of a streamed answer's events, each the JSON object the API sent
    #: (`AsyncStream[object]`: the SDK decodes the SSE and each event's JSON, and raises
    #: an `error` event as its status error, but builds no pydantic object per event).
    Stream: type[Any]

    def http_client(self) -> httpx.AsyncClient:
        """An HTTP client as the SDK would make, sharing one TLS context (`tls()`)."""
        return self.DefaultAsyncHttpxClient(verify=tls())

    async def create_message(self, client: anthropic.AsyncAnthropic, params: dict[str, Any],
                             *, stream: bool, timeout: float | None = None,
                             bodies: BodyEncoder | None = None) -> Any:
        """`POST /v1/messages` through the client's own request machinery (its headers,
        auth, timeouts, errors and SSE decoding), as `client.messages.create` does once
        it has built the body. `params` is the body, already in wire form, plus
        `extra_headers`. The Messages resource itself is not needed: importing it brings
        the SDK's stream and parse helpers and every param type, about 290 modules that a
        cc request never uses. With `bodies`, the body goes as the bytes it encodes it to
        (the SDK's own encoding, `content=`), unless it cannot (then the SDK encodes it)
        or the SDK logs its requests (ANTHROPIC_LOG=debug shows the body it was given).

        The answer is the API's JSON as it came (`cast_to=object`): the whole message as a
        dict, or a stream of event dicts. The SDK's typed models of a message and its
        events (some 80 modules of pydantic classes, and their validators built on first
        use) are never loaded; cc folds the events into dicts of its own either way
        (`cc.core.accumulate`)."""
        body = {k: v for k, v in params.items() if k != "extra_headers"}
        if stream:
            body["stream"] = True
        options: dict[str, Any] = {"headers": params.get("extra_headers") or {}}
        if timeout is not None:
            options["timeout"] = timeout
        content = None
        if bodies is not None and not _sdk_log.isEnabledFor(logging.DEBUG):
            content = bodies.encode(body)
        if content is not None:
            return await client.post("/v1/messages", content=content, cast_to=object,
                                     options=options,  # type: ignore[arg-type]  # RequestOptions
                                     stream=stream, stream_cls=self.Stream)
        return await client.post("/v1/messages", body=body, cast_to=object,
                                 options=options,  # type: ignore[arg-type]  # RequestOptions
                                 stream=stream, stream_cls=self.Stream)


def tls() -> ssl.SSLContext:
    """The TLS context httpx would make for a client (certifi's roots, or SSL_CERT_FILE /
    SSL_CERT_DIR), made once: reading the roots costs tens of milliseconds, once per
    transport, and `warm()` makes it ahead of the first request."""
    global _tls
    with _tls_lock:
        if _tls is None:
            import httpx

            _tls = httpx.create_ssl_context()
        return _tls


def load() -> SDK:
    """The SDK's client and exception classes (imported once, thread-safe)."""
    global _loaded
    with _lock:
        if _loaded is None:
            _loaded = _load()
        return _loaded


def _load() -> SDK:
    if PACKAGE not in sys.modules:
        _install()
    with _hidden(OPTIONAL):
        return _import()


def _import() -> SDK:
    import httpcore  # noqa: F401 - httpx imports it with its first client; done here, in the window
    with contextlib.suppress(ImportError):  # what httpcore's pool loads on its first request
        import anyio._backends._asyncio  # noqa: F401
    try:
        from anthropic._client import AsyncAnthropic
        from anthropic._exceptions import APIConnectionError, APIStatusError, BadRequestError
        from anthropic._streaming import AsyncStream
        from anthropic._utils._logs import setup_logging
    except (ImportError, AttributeError):  # a layout this module does not know
        import anthropic

        return SDK(anthropic.AsyncAnthropic, anthropic.APIStatusError,
                   anthropic.APIConnectionError, anthropic.BadRequestError,
                   anthropic.DefaultAsyncHttpxClient, anthropic.AsyncStream[object])
    from anthropic._base_client import DefaultAsyncHttpxClient

    setup_logging()  # what the top package's __init__ does first: honours ANTHROPIC_LOG
    return SDK(AsyncAnthropic, APIStatusError, APIConnectionError, BadRequestError,
               DefaultAsyncHttpxClient, AsyncStream[object])


#: How a lazy package finds one of its names: (module, name there), or an expression over
#: the package's other names (`Alias: TypeAlias = Generic[object]`), evaluated on first use.
Source = tuple[str, str] | ast.Expression


@contextmanager
def _hidden(names: tuple[str, ...]) -> Iterator[None]:
    """Make `import <name>` fail for modules not imported yet, for the duration."""
    hidden = [n for n in names if n not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # the import system's "not here"
    try:
        yield
    finally:
        for name in hidden:
            if sys.modules.get(name, ...) is None:
                del sys.modules[name]


#: One streamed answer, as the API sends it: a thinking block, text and a tool call.
_CANNED: tuple[dict[str, Any], ...] = (
    {"type": "message_start", "message": {
        "id": "msg_warm", "type": "message", "role": "assistant", "model": "warm-up",
        "content": [], "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1, "cache_read_input_tokens": 0,
                  "cache_creation_input_tokens": 0}}},
    {"type": "content_block_start", "index": 0,
     "content_block": {"type": "thinking", "thinking": "", "signature": ""}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "."}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "s"}},
    {"type": "content_block_stop", "index": 0},
    {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}},
    {"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "."}},
    {"type": "content_block_stop", "index": 1},
    {"type": "content_block_start", "index": 2,
     "content_block": {"type": "tool_use", "id": "toolu_warm", "name": "warm", "input": {}}},
    {"type": "content_block_delta", "index": 2,
     "delta": {"type": "input_json_delta", "partial_json": "{}"}},
    {"type": "content_block_stop", "index": 2},
    {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
     "usage": {"output_tokens": 2}},
    {"type": "message_stop"},
)


def warm(loaded: SDK) -> None:
    """Play one canned streamed answer through the SDK, offline (an httpx transport
    answers; nothing leaves the process), and read it as the client does: the first use
    of the SDK's request options (a pydantic model whose validator is built then), of
    httpx's request and response machinery and of the SSE decoder costs CPU that would
    otherwise fall on the first request. Worth it while the process would idle anyway
    (`prefetch_sdk(warm=True)`). Call it from a thread with no event loop of its own;
    errors are dropped (the first request then does the work itself)."""
    import asyncio
    import json

    import httpx

    from cc.core.accumulate import Accumulated

    body = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in _CANNED).encode()

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    async def call() -> None:
        http = httpx.AsyncClient(transport=httpx.MockTransport(answer))
        client = loaded.AsyncAnthropic(api_key="warm-up", base_url="http://warm-up.invalid",
                                       http_client=http, max_retries=0)
        try:
            stream = await loaded.create_message(
                client, {"model": "warm-up", "max_tokens": 1,
                         "messages": [{"role": "user", "content": "."}]}, stream=True)
            message = Accumulated()
            async with stream:
                async for event in stream:
                    message.add(event)  # what the client makes of them
        finally:
            await client.close()

    try:
        tls()
        asyncio.run(call())
    except Exception:  # noqa: BLE001 - a warm-up that fails costs the first request only
        return


def reexports(package: str, source: bytes) -> dict[str, Source] | None:
    """What a package's `__init__` defines, when all it does is import names (from its own
    submodules or elsewhere) and name expressions of them; None when it does anything else.
    A docstring, `__all__` and `from __future__` are passed over."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    names: dict[str, Source] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            if node.module == "__future__":
                continue
            if node.level > 1 or any(a.name == "*" for a in node.names):
                return None
            if node.level == 1:
                if not node.module:
                    return None
                module = f"{package}.{node.module}"
            else:
                module = node.module or ""
            for alias in node.names:
                names[alias.asname or alias.name] = (module, alias.name)
        elif isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["__all__"]:
            continue
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring
        elif isinstance(node, ast.AnnAssign | ast.Assign):
            target = node.target if isinstance(node, ast.AnnAssign) else (
                node.targets[0] if len(node.targets) == 1 else None)
            if not isinstance(target, ast.Name) or node.value is None:
                return None
            names[target.id] = ast.Expression(node.value)
        else:
            return None
    return names


class _Names(dict[str, Any]):
    """A lazy package's names as an evaluation namespace: each resolved on first use."""

    def __init__(self, module: ModuleType) -> None:
        super().__init__()
        self._module = module

    def __missing__(self, key: str) -> Any:
        try:
            return getattr(self._module, key)
        except AttributeError:
            return getattr(builtins, key)


class _LazyPackage(importlib.abc.Loader):
    """Creates a package of imports without running its `__init__`."""

    def __init__(self, names: dict[str, Source]) -> None:
        self._names = names

    def exec_module(self, module: ModuleType) -> None:
        package, names = module.__name__, self._names

        def __getattr__(attr: str) -> Any:
            if attr.startswith("__"):
                raise AttributeError(attr)
            source = names.get(attr)
            if isinstance(source, tuple):
                value = getattr(importlib.import_module(source[0]), source[1])
            elif source is not None:
                code = compile(source, f"<{package}.{attr}>", "eval")
                value = eval(code, {}, _Names(module))  # noqa: S307 - the SDK's own expression
            else:
                value = _submodule(package, attr)
            setattr(module, attr, value)
            return value

        module.__getattr__ = __getattr__  # type: ignore[attr-defined]  # PEP 562
        module.__all__ = [n for n in names if not n.startswith("_")]  # type: ignore[attr-defined]


def _submodule(package: str, attr: str) -> ModuleType:
    try:
        return importlib.import_module(f"{package}.{attr}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.{attr}":
            raise
        raise AttributeError(f"module {package!r} has no attribute {attr!r}") from None


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: Any, target: ModuleType | None = None
                  ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(PACKAGE + "."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.submodule_search_locations is None or not spec.origin:
            return spec
        try:
            with open(spec.origin, "rb") as f:
                names = reexports(fullname, f.read())
        except OSError:
            return spec
        if names is not None:
            spec.loader = _LazyPackage(names)
        return spec


def _install() -> None:
    """The import hook, and an empty top package that completes itself on demand."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or spec.loader is None:
        return  # not installed: the plain import will say so
    sys.meta_path.insert(0, _Finder())
    top = importlib.util.module_from_spec(spec)
    loader = spec.loader
    completing = threading.RLock()

    def __getattr__(attr: str) -> Any:
        try:
            return _submodule(PACKAGE, attr)
        except AttributeError:
            pass
        with completing:
            if "__getattr__" in top.__dict__:
                del top.__dict__["__getattr__"]
                loader.exec_module(top)
        try:
            return top.__dict__[attr]
        except KeyError:
            raise AttributeError(f"module {PACKAGE!r} has no attribute {attr!r}") from None

    top.__getattr__ = __getattr__  # type: ignore[attr-defined]
    sys.modules[PACKAGE] = top
