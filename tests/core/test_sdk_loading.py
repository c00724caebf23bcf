"""cc.core.sdk: the SDK's client loaded lazily, and the SDK whole when asked for."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from cc.core.sdk import reexports

REPO = Path(__file__).resolve().parents[2]


def _run(code: str) -> dict:
    """Run `code` in a fresh interpreter (the SDK must not be imported yet); its last
    line prints a JSON object."""
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_a_package_of_imports_is_read_as_a_table_of_names() -> None:
    source = b'''"""Doc."""
from __future__ import annotations
from typing_extensions import TypeAlias
from .message import Message as Message
from .shared import ErrorType, NotFound as Missing
Alias: TypeAlias = Message[object]
__all__ = ["Message"]
'''
    names = reexports("pkg.types", source)
    assert names is not None
    assert names["Message"] == ("pkg.types.message", "Message")
    assert names["ErrorType"] == ("pkg.types.shared", "ErrorType")
    assert names["Missing"] == ("pkg.types.shared", "NotFound")
    assert names["TypeAlias"] == ("typing_extensions", "TypeAlias")
    assert "Alias" in names and not isinstance(names["Alias"], tuple)


def test_a_package_that_does_anything_else_is_run_as_usual() -> None:
    for source in (b"from .a import b\nsetup()\n", b"from .a import *\n", b"from ..up import x\n",
                   b"if X:\n    from .a import b\n", b"a, b = 1, 2\n", b"def f(): pass\n", b"(\n"):
        assert reexports("pkg", source) is None, source


def test_the_client_loads_without_most_of_the_sdk_and_the_sdk_completes_on_demand() -> None:
    out = _run("""
        import json, sys
        from cc.core import sdk
        loaded = sdk.load()
        client = loaded.AsyncAnthropic(api_key="k", base_url="http://127.0.0.1:9")
        client.messages.stream  # the resource and the streaming helpers
        lazy = sum(1 for m in sys.modules if m.startswith("anthropic"))
        import anthropic
        from anthropic.types import Message
        import anthropic.types.beta as beta
        version = anthropic.__version__  # a name the top package has only once whole
        same = [anthropic.AsyncAnthropic is loaded.AsyncAnthropic,
                anthropic.APIStatusError is loaded.APIStatusError,
                anthropic.BadRequestError is loaded.BadRequestError,
                anthropic.APIConnectionError is loaded.APIConnectionError,
                anthropic.types.Message is Message,
                beta.BetaMessage.__name__ == "BetaMessage",
                version == anthropic._version.__version__]
        whole = sum(1 for m in sys.modules if m.startswith("anthropic"))
        print(json.dumps({"lazy": lazy, "whole": whole, "same": same}))
    """)
    assert all(out["same"]), out
    assert out["lazy"] * 2 < out["whole"], out


def test_the_sdk_imported_first_is_used_as_it_is() -> None:
    out = _run("""
        import json, sys
        import anthropic
        from cc.core import sdk
        print(json.dumps({"same": sdk.load().AsyncAnthropic is anthropic.AsyncAnthropic}))
    """)
    assert out["same"]


def test_the_warm_up_plays_offline_and_leaves_the_sdk_ready_for_a_real_call() -> None:
    """`warm` reaches no server (its transport answers in-process), and a real streamed
    call afterwards, through the SDK's own HTTP client class and the shared TLS context,
    still gets its answer."""
    out = _run("""
        import asyncio, json, sys
        sys.path.insert(0, %r)
        from tests.fakeapi import FakeAPI, Reply, text
        from cc.core import sdk

        loaded = sdk.load()
        with FakeAPI() as api:
            api.script(Reply([text("hello")]))
            sdk.warm(loaded)
            sdk.warm(loaded)  # again: harmless
            before = len(api.requests)

            async def call():
                client = loaded.AsyncAnthropic(api_key="k", base_url=api.base_url, max_retries=0,
                                               http_client=loaded.http_client())
                async with client.messages.stream(model="m", max_tokens=5,
                                                  messages=[{"role": "user", "content": "hi"}]) as s:
                    final = await s.get_final_message()
                await client.close()
                return final.content[0].text

            said = asyncio.run(call())
        print(json.dumps({"before": before, "said": said, "shared": sdk.tls() is sdk.tls()}))
    """ % str(REPO))
    assert out == {"before": 0, "said": "hello", "shared": True}


def test_the_collector_off_during_start_up_runs_again_once_the_sdk_is_warm() -> None:
    """`cc.main.main` turns the garbage collector off for start-up; the prefetch turns it
    back on (with start-up's objects frozen), and so does a request that had no prefetch."""
    out = _run("""
        import gc, json
        from cc.core import client
        gc.disable()
        client.prefetch_sdk(warm=False)
        client._prefetch.join(120)
        after_prefetch = gc.isenabled()
        gc.disable()
        client._sdk()
        print(json.dumps({"prefetch": after_prefetch, "request": gc.isenabled(),
                          "frozen": gc.get_freeze_count() > 0}))
    """)
    assert out == {"prefetch": True, "request": True, "frozen": True}


def test_a_messages_call_answers_the_api_s_json_and_loads_none_of_the_sdk_s_message_types(
) -> None:
    """Streamed or whole, a Messages call through `create_message` gives the JSON objects
    the API sent, and the SDK's pydantic models of a message and its events stay unloaded."""
    out = _run("""
        import asyncio, json, sys
        sys.path.insert(0, %r)
        from tests.fakeapi import FakeAPI, Reply, text, tool_use
        from cc.core import sdk

        loaded = sdk.load()
        params = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}
        with FakeAPI() as api:
            api.script(Reply([text("hello"), tool_use("Read", {"file_path": "/a"})]),
                       Reply([text("whole")]))

            async def calls():
                client = loaded.AsyncAnthropic(api_key="k", base_url=api.base_url, max_retries=0)
                events = []
                async with await loaded.create_message(client, dict(params), stream=True) as s:
                    async for event in s:
                        events.append(event)
                whole = await loaded.create_message(client, dict(params), stream=False)
                await client.close()
                return events, whole

            events, whole = asyncio.run(calls())
        print(json.dumps({
            "dicts": all(type(e) is dict for e in events) and type(whole) is dict,
            "kinds": [e["type"] for e in events],
            "whole": whole["content"],
            "typed": sorted(m for m in sys.modules if m.startswith("anthropic.types.")),
        }))
    """ % str(REPO))
    assert out["dicts"]
    assert out["kinds"][0] == "message_start" and out["kinds"][-1] == "message_stop"
    assert out["kinds"].count("content_block_start") == 2
    assert out["whole"] == [{"type": "text", "text": "whole"}]
    assert not [m for m in out["typed"] if "message" in m or "block" in m], out["typed"]
