"""What MCP servers cost a print-mode run: wall time, and the first request's size.

    python bench/mcp.py            # 6 runs of each case
    python bench/mcp.py --runs 10

Cases, each `cc -p hello --output-format json` against the fake Messages API
(tests/fakeapi.py), in a fresh temporary project:

* no MCP server
* one stdio server (tests/servers/mcp_server.py, 10 tools), tool search off
* the same server with tool search on (`ENABLE_TOOL_SEARCH=true`: its tools deferred)
* two stdio servers (the test server and mcp-server-time)

For each: median / min wall ms over the runs, and the first request's `tools` (count and
bytes) and body bytes. The server's start (a Python process importing the SDK) is part
of the wall time: print mode waits for it, up to MCP_TIMEOUT, before its first request.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.fakeapi import FakeAPI, Reply, text  # noqa: E402

SERVER = str(REPO / "tests" / "servers" / "mcp_server.py")
DEMO = {"command": sys.executable, "args": [SERVER]}
TIME = {"command": sys.executable, "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]}
CASES = {
    "no MCP server": ({}, {}),
    "1 server, tool search off": ({"demo": DEMO}, {}),
    "1 server, tool search on": ({"demo": DEMO}, {"ENABLE_TOOL_SEARCH": "true"}),
    "2 servers, tool search off": ({"demo": DEMO, "time": TIME}, {}),
}


def run_once(api: FakeAPI, servers: dict, extra_env: dict[str, str]) -> tuple[float, dict]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name in ("project", "config", "home"):
            (root / name).mkdir()
        args = [sys.executable, "-m", "cc", "-p", "hello", "--output-format", "json"]
        if servers:
            config = root / "mcp.json"
            config.write_text(json.dumps({"mcpServers": servers}))
            args += ["--mcp-config", str(config)]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE"))}
        env.update(ANTHROPIC_BASE_URL=api.base_url, ANTHROPIC_API_KEY="bench",
                   CLAUDE_CONFIG_DIR=str(root / "config"), HOME=str(root / "home"),
                   PYTHONPATH=str(REPO), CC_DISABLE_MEMORY_EXTRACTION="1", **extra_env)
        api.script(Reply([text("hi")]))
        seen = len(api.bodies)
        start = time.perf_counter()
        proc = subprocess.run(args, cwd=root / "project", env=env, capture_output=True,
                              text=True, stdin=subprocess.DEVNULL, timeout=120)
        elapsed = (time.perf_counter() - start) * 1000
        if proc.returncode != 0:
            raise SystemExit(f"cc failed: {proc.stderr}")
        return elapsed, api.bodies[seen]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=6)
    runs = parser.parse_args().runs
    print(f"MCP in print mode ({runs} runs each; python {sys.version.split()[0]}; "
          f"{os.cpu_count()} CPUs)\n")
    print(f"{'case':30} {'median ms':>10} {'min ms':>8} {'tools':>6} {'tool bytes':>11} "
          f"{'body bytes':>11}")
    with FakeAPI() as api:
        for name, (servers, extra_env) in CASES.items():
            times, body = [], {}
            for _ in range(runs):
                ms, body = run_once(api, servers, extra_env)
                times.append(ms)
            tools = body.get("tools") or []
            print(f"{name:30} {statistics.median(times):10.0f} {min(times):8.0f} "
                  f"{len(tools):6} {len(json.dumps(tools)):11,} {len(json.dumps(body)):11,}")


if __name__ == "__main__":
    main()
