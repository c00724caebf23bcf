"""REPL start-up: time from launch until the prompt is drawn and usable.

    python bench/repl_startup.py            # 5 runs (+1 warm-up), a short table
    python bench/repl_startup.py --runs 10 --json

Each run starts `python -m cc` on a pseudo-terminal (100x30, TERM=xterm-256color) in a
temporary project with a temporary HOME and CLAUDE_CONFIG_DIR, feeds what it writes to
an in-memory VT100 screen (pyte, which also answers cursor-position requests), and
stops the clock when the input line ("> ") is on screen below the banner. It then
types a character and waits for its echo (the prompt really takes keys), and leaves
with Ctrl-D. The project folder is marked trusted first, so no trust question comes up.

Also reported: whether the modules the REPL imports before its prompt pull in anything
heavy (the SDK, rich, pygments, httpx; exit status 1 if so), and the slowest imports on
that path. Until `cc/main.py` calls `cc.ui.repl.run_repl`, the REPL is started through
it directly (see tests/ui/terminal.py).
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

from tests.ui.terminal import Terminal, cc_argv, trust  # noqa: E402

#: The modules the REPL imports before it shows the prompt (none may pull in the SDK or rich).
PRE_PROMPT = (
    "import cc.main, cc.ui.repl, cc.ui.repl.completion, cc.ui.repl.keys, "
    "cc.ui.repl.prompt_history, cc.ui.repl.header; from prompt_toolkit import PromptSession"
)
HEAVY = ("anthropic", "rich", "pygments", "httpx")


def one_run(base: Path) -> tuple[float, float]:
    """(seconds until the prompt is drawn, seconds until a typed key is echoed)."""
    for name in ("project", "config", "home"):
        (base / name).mkdir(parents=True, exist_ok=True)
    trust(base / "config", base / "project")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE"))}
    env.update(
        ANTHROPIC_API_KEY="bench",
        ANTHROPIC_BASE_URL="http://127.0.0.1:9",  # never contacted: no prompt is sent
        CLAUDE_CONFIG_DIR=str(base / "config"),
        HOME=str(base / "home"),
        PYTHONPATH=str(REPO),
    )
    started = time.monotonic()
    term = Terminal(cc_argv(), base / "project", env)
    try:
        term.wait_until(lambda s: "cwd:" in s and term.prompt_line() == ">", timeout=30)
        drawn = time.monotonic() - started
        term.type("x")
        term.wait_until(lambda s: term.prompt_line() == "> x", timeout=30)
        usable = time.monotonic() - started
        term.ctrl("u")
        term.ctrl("d")
        term.wait_exit(timeout=30)
        return drawn, usable
    finally:
        term.close()


def pre_prompt_imports() -> tuple[list[str], list[tuple[int, str]]]:
    """(heavy modules imported before the prompt, the ten slowest imports in µs)."""
    check = f"{PRE_PROMPT}; import sys; print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", check], capture_output=True,
                         text=True, cwd=REPO, check=True)
    heavy = [m for m in out.stdout.strip().split(",") if m]
    rows = []
    for line in out.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), parts[2].rstrip()))
    return heavy, sorted(rows, reverse=True)[:10]


def _spread(seconds: list[float]) -> dict[str, float]:
    ms = [s * 1000 for s in seconds]
    return {"min": min(ms), "median": statistics.median(ms), "max": max(ms)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    drawn: list[float] = []
    usable: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.runs + 1):
            d, u = one_run(Path(tmp) / f"run{i}")
            if i:  # the first run warms the file cache
                drawn.append(d)
                usable.append(u)
            print(f"run {i}: prompt drawn {d * 1000:.0f} ms, key echoed {u * 1000:.0f} ms"
                  + (" (warm-up)" if not i else ""), file=sys.stderr)
    heavy, slowest = pre_prompt_imports()
    figures = {
        "runs": args.runs,
        "prompt_drawn_ms": _spread(drawn),
        "key_echoed_ms": _spread(usable),
        "heavy_modules_before_prompt": heavy,
        "load_average": os.getloadavg()[0],
    }
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        for key, f in (("prompt_drawn_ms", _spread(drawn)), ("key_echoed_ms", _spread(usable))):
            print(f"{key:<16} min {f['min']:6.0f}   median {f['median']:6.0f}   "
                  f"max {f['max']:6.0f}")
        print(f"heavy modules imported before the prompt: {', '.join(heavy) or 'none'}")
        print("slowest imports on the pre-prompt path (cumulative µs):")
        for us, name in slowest:
            print(f"  {us:>8}  {name}")
        print(f"load average: {figures['load_average']:.2f}")
    return 1 if heavy else 0


if __name__ == "__main__":
    raise SystemExit(main())
