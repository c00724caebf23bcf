"""REPL start-up: from launch to a settled screen, a key's echo, and Enter to the answer.

    python bench/repl_startup.py                       # cc only, 5 runs (+1 warm-up)
    python bench/repl_startup.py --claude /path/to/claude --runs 7

Each run starts the agent on a pseudo-terminal (100x30, TERM=xterm-256color) in a
temporary project, as a returning user who trusts the folder (bench/agents.py), its base
URL the fake itself (as Anthropic's API, Claude Code's REPL first waits ~20 s for remote
managed settings this machine cannot reach), and feeds
what it writes to an in-memory VT100 screen (pyte, which also answers cursor-position
requests). Three figures per run:

  settled   launch to the last change of the screen before it stays unchanged for 1.5 s
            (the quiet second and a half is not counted); for cc the prompt must be drawn
  echo      a typed character to its echo on the screen
  answer    Enter on a one-line prompt to the model's scripted answer on the screen (the
            fake API answers at once)

Echo and answer are timed from the moment the key is written to the terminal (pexpect's
own pause before each send, 50 ms, is turned off) to the read of the agent's output that
puts the change on the screen (the screen is checked after every read, not once a
batch of reads is over, which lagged by up to tens of milliseconds while the agent kept
writing).

With --claude the agents alternate run by run, and the ratios cc/Claude Code of the
medians are printed. Also reported for cc: whether the modules it imports before the
prompt pull in anything heavy (the SDK, rich, pygments, httpx; exit status 1 if so).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.agents import Agent, agents, env_for, load, prepare, serve  # noqa: E402
from tests.fakeapi import FakeAPI, Reply, text  # noqa: E402
from tests.ui.terminal import Terminal  # noqa: E402

#: The modules the REPL imports before it shows the prompt (none may pull in the SDK or rich).
PRE_PROMPT = (
    "import cc.main, cc.ui.repl, cc.ui.repl.completion, cc.ui.repl.keys, "
    "cc.ui.repl.prompt_history, cc.ui.repl.header; from prompt_toolkit import PromptSession"
)
HEAVY = ("anthropic", "rich", "pygments", "httpx")
QUIET_S = 1.5
DEADLINE_S = 60.0
ANSWER = "Settled and answered"


def _changes(term: Terminal, until: float) -> float | None:
    """Pump until the screen has not changed for QUIET_S; the time of its last change."""
    last_text, last_change = term.text(), None
    while time.monotonic() < until:
        term.pump(0.01)
        now, screen = time.monotonic(), term.text()
        if screen != last_text:
            last_text, last_change = screen, now
        elif last_change is not None and now - last_change >= QUIET_S:
            return last_change
        if term.exited:
            raise RuntimeError(f"exited early; screen:\n{screen}")
    raise RuntimeError(f"the screen never settled; it shows:\n{last_text}")


def _key_to_screen(term: Terminal, key: str, check: Callable[[str], bool]) -> float:
    """Write `key` to the terminal; seconds until a read of the agent's output makes
    `check` hold for the screen."""
    sent = time.monotonic()
    term.child.send(key)
    deadline = sent + DEADLINE_S
    while time.monotonic() < deadline and not term.exited:
        data = term.read(0.05)
        if not data:
            continue
        arrived = time.monotonic()
        term.feed(data)
        if check(term.text()):
            return arrived - sent
    raise RuntimeError(f"{key!r} never showed; screen:\n{term.text()}")


def one_run(agent: Agent, base: Path) -> dict[str, float]:
    project = base / "project"
    project.mkdir(parents=True)
    (project / "README.md").write_text("# Bench\n")
    config, home = prepare(base, project)
    with FakeAPI() as api:
        serve(api, Reply([text(ANSWER)]))
        env = env_for(api, config, home, as_anthropic=False, CC_DISABLE_MEMORY_EXTRACTION="1")
        started = time.monotonic()
        term = Terminal(list(agent.argv), project, env)
        term.child.delaybeforesend = None
        try:
            if not agent.is_claude:  # cc's prompt is drawn, then settles
                term.wait_until(lambda s: "cwd:" in s and term.prompt_line() == ">", timeout=DEADLINE_S)
            settled = _changes(term, started + DEADLINE_S) - started
            before = term.text()
            echo = _key_to_screen(term, "x", lambda s: s != before and "x" in s)
            term.type("\x7f")
            term.wait_until(lambda s: s == before, timeout=DEADLINE_S)
            term.type("say something")
            term.wait_until(lambda s: "say something" in s, timeout=DEADLINE_S)
            answer = _key_to_screen(term, "\r", lambda s: ANSWER in s)
        finally:
            term.close()
    return {"settled": settled * 1000, "echo": echo * 1000, "answer": answer * 1000}


def pre_prompt_imports() -> list[str]:
    """Heavy modules imported before the prompt."""
    check = f"{PRE_PROMPT}; import sys; print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, cwd=REPO,
                         check=True)
    return [m for m in out.stdout.strip().split(",") if m]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--claude", help="a Claude Code binary to compare with")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    who = agents(args.claude)
    runs: dict[str, list[dict[str, float]]] = {a.name: [] for a in who}
    loads = [load()]
    with tempfile.TemporaryDirectory(prefix="cc-bench-repl-") as tmp:
        for i in range(args.runs + 1):
            for agent in who:
                figures = one_run(agent, Path(tmp) / f"{agent.name}-{i}")
                if i:  # the first run of each warms the file cache
                    runs[agent.name].append(figures)
                print(f"run {i} {agent.name}: " + ", ".join(f"{k} {v:.0f} ms" for k, v in figures.items())
                      + (" (warm-up)" if not i else ""), file=sys.stderr)
    loads.append(load())
    medians = {name: {k: statistics.median(r[k] for r in rs) for k in ("settled", "echo", "answer")}
               for name, rs in runs.items()}
    heavy = pre_prompt_imports()
    result = {"runs": args.runs, "medians_ms": medians, "heavy_modules_before_prompt": heavy,
              "load_before_after": loads}
    if "claude" in medians:
        result["ratio_cc_to_claude"] = {k: medians["cc"][k] / medians["claude"][k] for k in medians["cc"]}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"REPL, median of {args.runs} runs (load {loads[0]} -> {loads[1]})")
        print(f"{'agent':<8} {'settled ms':>11} {'echo ms':>9} {'answer ms':>10}")
        for name, m in medians.items():
            print(f"{name:<8} {m['settled']:>11.0f} {m['echo']:>9.0f} {m['answer']:>10.0f}")
        if "ratio_cc_to_claude" in result:
            r = result["ratio_cc_to_claude"]
            print(f"{'cc/claude':<8} {r['settled']:>11.2f} {r['echo']:>9.2f} {r['answer']:>10.2f}")
        print(f"heavy modules imported before the prompt: {', '.join(heavy) or 'none'}")
    return 1 if heavy else 0


if __name__ == "__main__":
    raise SystemExit(main())
