"""Keystroke to screen in the REPL while 5 background agents and a 3-teammate team stream.

    python bench/parallel.py [--keys 50] [--delay 0.03] [--json]

`python -m cc` runs on a pseudo-terminal (100x30, as tests/ui/terminal.py drives it) in a
temporary project, against the fake Messages API. The leader's first answer creates a
team (TeamCreate); its second starts 5 background sub-agents (Agent, run_in_background)
and 3 teammates (Agent with team_name and name) at once; its third ends the turn, so the
prompt is free. Every agent then answers round after round: four text blocks and a
Read of a small file, streamed slowly (`Reply.chunk_delay` between SSE events, 29
events a reply), until the typing is over; then each says it is done. The leader
answers whatever news comes with a short text.

Keystroke latency is the time from writing one character to the pty until the screen
(a pyte VT100 fed with everything the REPL writes) shows the input line with it; the
next key goes once it is on screen. It is measured first with nothing running (the
baseline, on the prompt before the first message), then once every agent has begun to
stream and while they all still do (the figures say how many agent requests the fake
served during the typing, and whether any agent had finished). Median, p95 and max,
and the load average. Exit status 1 if the median under load is over 50 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fakeapi import Dynamic, FakeAPI, Reply, Route, text, tool_use  # noqa: E402
from tests.ui.terminal import Terminal, cc_argv, cc_env, trust  # noqa: E402

BACKGROUND = 5
MATES = 3
LIMIT_MS = 50.0
#: An agent stops after this many rounds whatever happens (a bound, not a pace).
MAX_ROUNDS = 400
WORDS = "the agent reads a file and says what it found in a few plain words".split()


class Agents:
    """The fake's side: the leader's script and the agents' rounds."""

    def __init__(self, api: FakeAPI, project: Path, delay: float) -> None:
        self.api, self.delay = api, delay
        self.typing_done = threading.Event()
        self.small = project / "small.txt"
        self.small.write_text("one\ntwo\nthree\n")
        self.rounds: dict[str, int] = {}
        self.lock = threading.Lock()
        self.routes: list[Route] = []
        spawn = [tool_use("Agent", {"description": f"background {i}",
                                    "prompt": f"BG-AGENT-{i}: look around",
                                    "run_in_background": True})
                 for i in range(1, BACKGROUND + 1)]
        spawn += [tool_use("Agent", {"description": f"mate{i} part",
                                     "prompt": f"MATE-AGENT-{i}: do your part",
                                     "team_name": "crew", "name": f"mate{i}"})
                  for i in range(1, MATES + 1)]
        api.script(Reply([tool_use("TeamCreate", {"team_name": "crew",
                                                  "description": "parallel work"})]),
                   Reply([text("Starting them."), *spawn]),
                   Reply("They run on their own."),
                   *[Reply("Noted.") for _ in range(200)])
        markers = [f"BG-AGENT-{i}:" for i in range(1, BACKGROUND + 1)]
        markers += [f"MATE-AGENT-{i}:" for i in range(1, MATES + 1)]
        for marker in markers:
            self.rounds[marker] = 0
            turns = [Dynamic(lambda body, m=marker: self.answer(m, body))] * (MAX_ROUNDS + 20)
            self.routes.append(api.route(marker, *turns))

    def answer(self, marker: str, body: dict[str, Any]) -> Reply:
        with self.lock:
            n = self.rounds[marker]
            self.rounds[marker] = n + 1
        if self.typing_done.is_set() or n >= MAX_ROUNDS:
            return Reply("Done here.")
        said = [text(" ".join(WORDS[(n + k) % len(WORDS):] + WORDS[:(n + k) % len(WORDS)]))
                for k in range(4)]
        return Reply([*said, tool_use("Read", {"file_path": str(self.small)})],
                     chunk_delay=self.delay)

    def all_streaming(self) -> bool:
        with self.lock:
            return all(n >= 1 for n in self.rounds.values())

    def served(self) -> int:
        with self.lock:
            return sum(self.rounds.values())

    def finished(self) -> list[str]:
        """The agents that already said they were done (or hit the bound)."""
        with self.lock:
            return [m for m, n in self.rounds.items() if n > MAX_ROUNDS]


def keystrokes(term: Terminal, count: int, still: Any = None,
               pace: float = 0.0) -> tuple[list[float], int]:
    """Type `count` letters one at a time, each `pace` seconds after the one before was
    on screen; each one's latency in ms to the screen, and how many were typed while
    `still()` held (all of them without one)."""
    latencies: list[float] = []
    under = 0
    typed = ""
    for i in range(count):
        char = "abcdefghijklmnopqrstuvwxyz"[i % 26]
        want = "> " + typed + char
        if pace:
            time.sleep(pace)  # the typist's pace, not a wait for the REPL
        ok = still() if still is not None else True
        t0 = time.perf_counter()
        term.child.send(char)
        latencies.append(wait_for_line(term, want, t0) * 1000)
        if ok and (still() if still is not None else True):
            under += 1
        typed += char
        if len(typed) >= 60:  # keep the input on one line: clear it
            term.ctrl("u")
            term.wait_until(lambda _s: term.prompt_line() == ">", timeout=30)
            typed = ""
    term.ctrl("u")
    term.wait_until(lambda _s: term.prompt_line() == ">", timeout=30)
    return latencies, under


def wait_for_line(term: Terminal, want: str, t0: float, timeout: float = 30.0) -> float:
    """Seconds from `t0` until the input line reads `want`: the screen is looked at as
    soon as anything arrives (Terminal.pump waits 10 ms for more, too coarse here)."""
    while True:
        data = term.read(0.001)
        now = time.perf_counter()
        if data:
            term.feed(data)
            if term.prompt_line() == want:
                return now - t0
        if term.exited or now - t0 > timeout:
            raise AssertionError(f"never saw {want!r}; screen:\n{term.text()}")


def spread(ms: list[float]) -> dict[str, float]:
    ordered = sorted(ms)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"median": round(statistics.median(ms), 1), "p95": round(p95, 1),
            "max": round(max(ms), 1)}


def run(keys: int, delay: float, pace: float = 0.0) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp, FakeAPI() as api:
        base = Path(tmp)
        project, config, home, shells = (base / n for n in ("project", "config", "home", "tmp"))
        for d in (project, config, home, shells):
            d.mkdir()
        trust(config, project)
        agents = Agents(api, project, delay)
        env = {**cc_env(api.base_url, config, home), "CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS": "1",
               "TMPDIR": str(shells)}
        term = Terminal(cc_argv(), project, env)
        term.child.delaybeforesend = None  # pexpect sleeps 50 ms before each send otherwise
        try:
            term.wait_until(lambda s: "cwd:" in s and term.prompt_line() == ">", timeout=60)
            idle, _ = keystrokes(term, keys, pace=pace)
            term.enter("PARALLEL: start five background agents and a team of three")
            term.wait_until(lambda _s: agents.all_streaming(), timeout=60)
            before = agents.served()
            load_before = os.getloadavg()[0]
            busy, under = keystrokes(term, keys, lambda: not agents.finished(), pace)
            served = agents.served() - before
            agents.typing_done.set()
            load = os.getloadavg()[0]
            screen = term.text()
            # (before the close: a request cut short by it is no problem of the REPL's)
            problems = [v for v in api.violations if "no scripted turn left" not in v]
        finally:
            term.close()
        return {
            "keys": keys,
            "chunk_delay_s": delay,
        "pace_s": pace,
            "idle_ms": spread(idle),
            "busy_ms": spread(busy),
            "keys_typed_while_all_streamed": under,
            "agent_requests_during_typing": served,
            "rounds_per_agent": dict(agents.rounds),
            "fake_api_problems": problems[:5],
            "load_average": round(max(load_before, load), 2),
            "screen_at_end": screen,
        }


def main() -> int:
    parser = argparse.ArgumentParser(description=str(__doc__).splitlines()[0])
    parser.add_argument("--keys", type=int, default=50)
    parser.add_argument("--delay", type=float, default=0.03,
                        help="seconds between an agent reply's SSE events")
    parser.add_argument("--pace", type=float, default=0.0,
                        help="seconds between one key's echo and the next key (a typist's "
                        "pace; 0: at once)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--screen", action="store_true", help="print the last screen too")
    args = parser.parse_args()
    f = run(args.keys, args.delay, args.pace)
    screen = f.pop("screen_at_end")
    if args.json:
        print(json.dumps(f, indent=2))
    else:
        print(f"keystroke to screen, {args.keys} keys each, {args.pace:g} s apart (ms)")
        for name, key in (("nothing running", "idle_ms"),
                          (f"{BACKGROUND} background agents + {MATES} teammates", "busy_ms")):
            s = f[key]
            print(f"  {name:<38} median {s['median']:6.1f}   p95 {s['p95']:6.1f}   "
                  f"max {s['max']:6.1f}")
        print(f"  keys typed while all {BACKGROUND + MATES} agents streamed: "
              f"{f['keys_typed_while_all_streamed']}/{args.keys}; agent requests served "
              f"meanwhile: {f['agent_requests_during_typing']}")
        if f["fake_api_problems"]:
            print(f"  fake API problems: {f['fake_api_problems']}")
        print(f"load average: {f['load_average']:.2f}")
        if args.screen:
            print(screen)
    return 1 if f["busy_ms"]["median"] > LIMIT_MS else 0


if __name__ == "__main__":
    raise SystemExit(main())
