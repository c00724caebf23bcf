"""The least any client must do in long_run.py's session: long_run's floor.

    python bench/floor_client.py BODIES   (run by bench/long_run.py, as the agents are)

BODIES holds the request bodies another client sent in the session, in order, each
as an 8-byte big-endian length and the JSON bytes. This process loads the SDK as cc
does (`cc.core.sdk.load`, the fewest of its modules), then for each body: posts it
through the SDK's client unchanged (`content=`: no encoding at all, less than any real
client must do), reads the streamed answer through the SDK's event stream, and runs
the tool call it names the cheapest way a tool can: Read reads the lines itself, Bash
runs `bash -c COMMAND`, Grep runs `rg` once. It keeps no conversation, writes no
transcript and shows nothing. The fake answers it as it answered the client whose
bodies these are (the answer depends on the body alone), so its wall time, with the
fake's own time on the first client's bodies, is the floor: what no client built on
the SDK, running the same tools, could go below on this machine.

Prints one JSON line: start-up (process start to the first request sent is measured by
the bench; here, from the first line of this module to the SDK loaded), the time spent
in requests (sending one and reading its stream to the end, the fake's time in it
included) and in tools, in seconds, and the number of requests.
"""

from __future__ import annotations

import time

START = time.perf_counter()

import asyncio  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def bodies(path: Path) -> list[tuple[int, int]]:
    """(offset, length) of each body in the file (read one at a time as it is sent)."""
    out, at, size = [], 0, path.stat().st_size
    with path.open("rb") as f:
        while at < size:
            f.seek(at)
            n = int.from_bytes(f.read(8), "big")
            out.append((at + 8, n))
            at += 8 + n
    return out


async def tool(name: str, args: dict[str, Any], rg: str) -> None:
    """Run one call the cheapest way (its output read, then dropped)."""
    if name == "Read":
        offset, limit = int(args.get("offset", 1)), int(args.get("limit", 2000))
        with open(args["file_path"], encoding="utf-8") as f:
            lines = f.read().splitlines()[offset - 1:offset - 1 + limit]
        _ = "\n".join(f"{n:6}\t{line}" for n, line in enumerate(lines, offset))
        return
    if name == "Bash":
        argv = ["bash", "-c", args["command"]]
    elif name == "Grep":
        argv = [rg, "--no-heading", "--line-number", "-e", args["pattern"], "--", args["path"]]
    else:
        return
    proc = await asyncio.create_subprocess_exec(*argv, stdin=asyncio.subprocess.DEVNULL,
                                                stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.STDOUT)
    out, _ = await proc.communicate()
    _ = out.decode(errors="replace").splitlines()[:40]


async def session(path: Path) -> dict[str, Any]:
    from cc.core import sdk

    loaded = sdk.load()
    started = time.perf_counter() - START
    rg = shutil.which("rg") or "rg"
    client = loaded.AsyncAnthropic(base_url=os.environ["ANTHROPIC_BASE_URL"], max_retries=0,
                                   http_client=loaded.http_client())
    requests_s = tools_s = 0.0
    index = bodies(path)
    with path.open("rb") as f:
        for offset, length in index:
            t0 = time.perf_counter()
            f.seek(offset)
            body = f.read(length)
            stream = await client.post("/v1/messages", content=body, cast_to=object,
                                       stream=True, stream_cls=loaded.Stream)
            calls: list[tuple[str, list[str]]] = []
            async with stream:
                async for event in stream:
                    kind = event["type"]
                    if kind == "content_block_start" and event["content_block"]["type"] == "tool_use":
                        calls.append((event["content_block"]["name"], []))
                    elif kind == "content_block_delta" and event["delta"]["type"] == "input_json_delta":
                        calls[-1][1].append(event["delta"]["partial_json"])
            t1 = time.perf_counter()
            for name, parts in calls:
                await tool(name, json.loads("".join(parts) or "{}"), rg)
            requests_s += t1 - t0
            tools_s += time.perf_counter() - t1
    await client.close()
    return {"sdk_loaded_s": started, "requests_s": requests_s, "tools_s": tools_s,
            "requests": len(index)}


def main() -> int:
    print(json.dumps(asyncio.run(session(Path(sys.argv[1])))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
