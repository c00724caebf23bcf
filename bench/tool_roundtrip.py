"""Harness overhead per tool round trip.

A scripted model asks for a small Read, N times in a row, then answers. The fake
API answers instantly, so the time per step is what cc itself costs: building the
request, the SDK's HTTP round trip and SSE parsing, running the tool, appending
the result. A one-turn run is timed too; per step = (T_N - T_1) / N.

    python bench/tool_roundtrip.py [--steps 50] [--runs 3] [--json]
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fakeapi import FakeAPI, Reply, text, tool_use  # noqa: E402


def run_session(steps: int) -> float:
    with tempfile.TemporaryDirectory() as tmp, FakeAPI() as api:
        base = Path(tmp)
        project, config, home = base / "project", base / "config", base / "home"
        for d in (project, config, home):
            d.mkdir()
        small = project / "small.txt"
        small.write_text("one\ntwo\nthree\n")
        api.script(*[Reply([tool_use("Read", {"file_path": str(small)})]) for _ in range(steps)])
        api.script(Reply([text("done")]))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE"))}
        env.update(ANTHROPIC_BASE_URL=api.base_url, ANTHROPIC_API_KEY="bench",
                   CLAUDE_CONFIG_DIR=str(config), HOME=str(home),
                   CC_DISABLE_MEMORY_EXTRACTION="1")  # its cost: bench/memory_extraction.py
        t0 = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "cc", "-p", "read it", "--output-format", "json"],
            cwd=project, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL,
        )
        elapsed = time.perf_counter() - t0
        if proc.returncode != 0:
            raise SystemExit(f"cc failed ({proc.returncode}): {proc.stderr or proc.stdout}")
        result = json.loads(proc.stdout)
        if result["num_turns"] != steps + 1 or result["result"] != "done":
            raise SystemExit(f"unexpected result: {result}")
        api.assert_clean()
        return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    one = statistics.median(run_session(0) for _ in range(args.runs))
    many = statistics.median(run_session(args.steps) for _ in range(args.runs))
    per_step_ms = (many - one) / args.steps * 1000
    figures = {
        "steps": args.steps,
        "runs": args.runs,
        "one_turn_s": round(one, 3),
        "session_s": round(many, 3),
        "per_step_ms": round(per_step_ms, 2),
    }
    if args.json:
        print(json.dumps(figures))
        return
    print(f"tool round trip ({args.runs} runs, median)")
    print(f"  one-turn run:            {one * 1000:8.1f} ms")
    print(f"  {args.steps}-step Read session: {many * 1000:8.1f} ms")
    print(f"  per tool round trip:     {per_step_ms:8.2f} ms")


if __name__ == "__main__":
    main()
