"""A long print-mode session end to end: 500 tool rounds, auto-compaction on.

    python bench/long_run.py [--rounds 500] [--window 100000] [--json]
    python bench/long_run.py --claude /tmp/claude/node_modules/.bin/claude   # and the ratio

`python -m cc -p ... --output-format json` runs as a subprocess against the fake Messages
API (tests/fakeapi.py) in a temporary project of 60 text files (about 4 KB each). The
fake plays the model: round i calls Read (80 lines of a file), Bash (`sed -n` on one) or
Grep (content mode, 40 lines) in turn, each result a few KB, and after the last round
it answers "done". A request that asks for a summary (its last user text names
`<summary>`) gets one; any other request (a side request: a title, a quota check) gets
a short text. The fake reports input_tokens as the request's bytes / 4, so the context
the client sees is the one it really sends; `CLAUDE_CODE_AUTO_COMPACT_WINDOW` (read by
cc and by Claude Code; default here 100,000 tokens) brings the window within reach: cc's
cheap trims (cc/compact/micro.py) keep its context low enough for one compaction in 500
rounds there (`--window 80000` gives four), Claude Code compacts about every 40 rounds.

Printed: total wall time and the process's CPU time (user + system, its tools' processes
included; at its last request, its own and its tools' apart, from /proc); the fake's own time
(from reading a request to the end of its answer); harness time (wall minus the fake's), per round and per 100 rounds beside the
mean request size (growth must be no worse than linear in the conversation: with
compaction keeping the context bounded, the last 100 rounds may cost at most twice the
first 100); the process's peak memory (`ru_maxrss` from `wait4`) and its resident size
after each compaction (read from /proc when the next request arrives); total input
bytes and tokens sent; the number of compactions; and the transcript check: at every
request the fake receives, each `.jsonl` under `<config>/projects/` is read, and the
bytes seen before must be a prefix of the bytes now (a transcript only appends; a line
rewritten is reported with its number). Exit status 1 if a check fails.

The floor: after cc's session, bench/floor_client.py sends the same request bodies again,
in order, through the SDK's client (as bytes, so no encoding at all), reads each streamed
answer through the SDK and runs each tool call the cheapest way (Read in-process, Bash
as `bash -c`, Grep as one `rg`), against a fresh fake that answers it as it answered cc.
Its wall time, with the fake's time on cc's session in place of the fake's time on the
replay (which has no transcripts to check), is the floor: what no client built on the
SDK, running these tools, could go below on this machine. It is printed with its parts
(start-up, requests, the SDK's own ms per request, tools, the fake's JSON parsing of the
bodies, which falls in every client's harness time) and, with `--claude`, its ratio to
Claude Code's wall time beside cc's. `--no-floor` skips it.

Both run with a temporary HOME and CLAUDE_CONFIG_DIR as a returning user who trusts the
project (`bench.agents.prepare` and `env_for`: CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1,
the base URL the fake's own). With `--claude BIN` the same session runs against Claude
Code as well, and the ratio of the wall times is printed. Tool results differ a little between the two (Claude Code's Read and
Grep format their output their own way), and so do the system prompts; input bytes are
printed for both.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.agents import env_for, prepare  # noqa: E402
from bench.shared import WORDS  # noqa: E402
from tests.fakeapi import (  # noqa: E402
    Dynamic,
    FakeAPI,
    Recorded,
    Reply,
    first_user_text,
    last_user_text,
    text,
    tool_use,
)

PROMPT = "LONGRUN: go through the project files one tool call at a time."
FILES = 60
BUCKET = 100


def make_project(project: Path, seed: int) -> list[str]:
    rng = random.Random(seed)
    names = []
    for i in range(FILES):
        lines = [f"{n:4} " + " ".join(rng.choices(WORDS, k=rng.randint(4, 12)))
                 for n in range(1, 90)]
        path = project / "src" / f"mod{i:02}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n")
        names.append(str(path))
    return names


def call(i: int, files: list[str], project: Path) -> dict[str, Any]:
    """Round i's tool call; Reads of one file differ in offset, so none is a repeat."""
    path = files[i % FILES]
    kind = i % 3
    if kind == 0:
        return tool_use("Read", {"file_path": path, "offset": 1 + (i // FILES) % 8, "limit": 80})
    if kind == 1:
        return tool_use("Bash", {"command": f"sed -n '1,80p' {path}  # round {i}",
                                 "description": "Show a file"})
    word = WORDS[i % len(WORDS)]
    return tool_use("Grep", {"pattern": f"{word} {WORDS[(i // 7) % len(WORDS)]}",
                             "path": str(project), "output_mode": "content", "head_limit": 40})


@dataclass
class Run:
    """What the fake saw of one client's session."""

    rounds: int
    files: list[str]
    project: Path
    config: Path
    pid: int = 0
    main_requests: int = 0
    summaries: int = 0
    side: int = 0
    #: (main request number, VmRSS in KB) sampled at the first main request after a summary.
    rss_after_compaction: list[tuple[int, int]] = field(default_factory=list)
    rss_samples: list[tuple[int, int]] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)  # per /v1/messages request, in order
    snapshots: dict[Path, bytes] = field(default_factory=dict)
    rewrites: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    just_compacted: bool = False
    #: (own, children's) CPU seconds of the process when its last request came (`proc_cpu`).
    cpu_at_end: tuple[float, float] = (0.0, 0.0)

    def answer(self, body: dict[str, Any]) -> Reply:
        with self.lock:
            self.check_transcripts()
            last = last_user_text(body)
            if "<summary>" in last and PROMPT not in last:
                self.kinds.append("summary")
                self.summaries += 1
                self.just_compacted = True
                return Reply([text(f"<summary>1. The user asked: {PROMPT} 2. Files read so "
                                   "far: many under src/. 3. Carry on reading.</summary>")])
            if PROMPT not in first_user_text(body) and PROMPT not in json.dumps(body["messages"]):
                self.kinds.append("side")
                self.side += 1
                return Reply([text("Reading files")])
            self.kinds.append("main")
            n = self.main_requests
            self.main_requests += 1
            rss = vm_rss(self.pid)
            if self.just_compacted:
                self.rss_after_compaction.append((n, rss))
                self.just_compacted = False
            if n % BUCKET == 0:
                self.rss_samples.append((n, rss))
            if n >= self.rounds:
                self.cpu_at_end = proc_cpu(self.pid)
                return Reply([text("done")])
            return Reply([call(n, self.files, self.project)])

    def check_transcripts(self) -> None:
        """Every transcript seen before must still begin with the bytes seen then."""
        for path in sorted((self.config / "projects").glob("**/*.jsonl")):
            now = path.read_bytes()
            before = self.snapshots.get(path, b"")
            if not now.startswith(before):
                at = next((k for k, (a, b) in enumerate(zip(before, now)) if a != b),
                          min(len(before), len(now)))
                line = before.count(b"\n", 0, at) + 1
                self.rewrites.append(
                    f"{path.name}: line {line} changed (byte {at}; {len(before)} -> "
                    f"{len(now)} bytes) before main request {self.main_requests}")
            self.snapshots[path] = now


def vm_rss(pid: int) -> int:
    """The resident size of `pid` in KB (0 if it cannot be read)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def proc_cpu(pid: int) -> tuple[float, float]:
    """The user + system CPU seconds of `pid` itself, and of its children it has reaped
    (the tools' processes), from /proc (0 if it cannot be read)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0, 0.0
    tick = os.sysconf("SC_CLK_TCK")
    # utime, stime, cutime, cstime: fields 14-17 of stat(5), 12-15 after "pid (comm)"
    own, children = int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])
    return own / tick, children / tick


def run(argv: list[str], rounds: int, window: int, seed: int,
        extra_env: dict[str, str], strict: bool = True, floor: bool = False) -> dict[str, Any]:
    """One session; `strict`: the fake's request checks must all pass (Claude Code's
    requests put `system` messages among the turns, which the fake's checks refuse);
    `floor`: then the floor client replays its bodies (`floor_run`)."""
    with tempfile.TemporaryDirectory() as tmp, FakeAPI() as api:
        base = Path(tmp)
        project = base / "project"
        project.mkdir()
        config, home = prepare(base, project)
        state = Run(rounds, make_project(project, seed), project, config)
        # More turns than any run needs: every request, of whatever kind, takes one.
        api.script(*[Dynamic(state.answer)] * (rounds * 3 + 200))
        env = env_for(api, config, home, as_anthropic=False,
                      CLAUDE_CODE_AUTO_COMPACT_WINDOW=str(window), **extra_env)
        out, err = base / "stdout", base / "stderr"
        cmd = [*argv, "-p", PROMPT, "--output-format", "json",
               "--allowedTools", "Read", "Bash", "Grep"]
        with out.open("wb") as o, err.open("wb") as e:
            t0 = time.time()
            proc = subprocess.Popen(cmd, cwd=project, env=env, stdin=subprocess.DEVNULL,
                                    stdout=o, stderr=e)
            state.pid = proc.pid
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.time() - t0
            proc.returncode = os.waitstatus_to_exitcode(status)
        with state.lock:
            state.check_transcripts()
        result = _result(out.read_text(), err.read_text(), proc.returncode)
        if strict:
            api.assert_clean()
        cpu = usage.ru_utime + usage.ru_stime
        f = figures(state, api.requests, t0, wall, cpu, usage.ru_maxrss, result)
        if floor:
            f["floor"] = floor_run(base, state, api.requests, home, window, f["fake_s"])
        return f


def floor_run(base: Path, first: Run, requests: list[Recorded], home: Path, window: int,
              fake_s: float) -> dict[str, Any]:
    """bench/floor_client.py replaying the bodies of `requests` (a session `first` saw)
    against a fresh fake that answers them as it did then, its tools run in the same
    project. `floor_s` is its wall time with the fake's time on the first session
    (`fake_s`, transcript checks included) in place of the fake's time on the replay: no
    client sending these bodies and running these tools through the SDK could take less."""
    messages = sorted((r for r in requests if r.path == "/v1/messages"), key=lambda r: r.at)
    bodies = base / "floor-bodies"
    with bodies.open("wb") as f:  # as the SDK would encode them
        for r in messages:
            data = json.dumps(r.body, ensure_ascii=False, separators=(",", ":")).encode()
            f.write(len(data).to_bytes(8, "big") + data)
    config = base / "floor-config"
    config.mkdir()
    state = Run(first.rounds, first.files, first.project, config)
    with FakeAPI() as api:
        api.script(*[Dynamic(state.answer)] * (len(messages) + 10))
        env = env_for(api, config, home, as_anthropic=False, PYTHONPATH=str(ROOT),
                      CLAUDE_CODE_AUTO_COMPACT_WINDOW=str(window))
        out = base / "floor-stdout"
        with out.open("wb") as o:
            t0 = time.time()
            proc = subprocess.Popen([sys.executable, str(ROOT / "bench" / "floor_client.py"),
                                     str(bodies)], cwd=first.project, env=env,
                                    stdin=subprocess.DEVNULL, stdout=o, stderr=subprocess.PIPE)
            state.pid = proc.pid
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.time() - t0
        assert proc.stderr is not None
        err = proc.stderr.read().decode(errors="replace")
        proc.stderr.close()
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"the floor client failed:\n{err[-2000:]}")
        if state.kinds != first.kinds:
            raise SystemExit("the fake answered the floor client otherwise than the session")
        api.assert_clean()
        replay = sorted(api.requests, key=lambda r: r.at)
    client = json.loads(out.read_text())
    replay_fake = sum((r.answered or r.at) - r.at for r in replay)
    replay_parse = sum(r.parse_s for r in replay)
    return {
        "wall_s": round(wall, 2),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 2),
        "startup_s": round(replay[0].at - t0, 2),
        "sdk_loaded_s": round(client["sdk_loaded_s"], 2),
        "requests_s": round(client["requests_s"], 2),
        "tools_s": round(client["tools_s"], 2),
        "fake_s": round(replay_fake, 2),
        "fake_parse_s": round(replay_parse, 2),
        "sdk_ms_per_request": round(1000 * (client["requests_s"] - replay_fake - replay_parse)
                                    / len(replay), 2),
        "floor_s": round(wall - replay_fake + fake_s, 2),
    }


def _result(stdout: str, stderr: str, code: int) -> dict[str, Any]:
    try:
        result = json.loads(stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise SystemExit(f"no JSON result (exit {code}):\n{stdout[-2000:]}\n{stderr[-2000:]}") from None
    if code != 0 or result.get("result") != "done":
        raise SystemExit(f"the session failed (exit {code}): {json.dumps(result)[:2000]}\n"
                         f"{stderr[-2000:]}")
    return result


def figures(state: Run, requests: list[Recorded], t0: float, wall: float, cpu: float,
            maxrss_kb: int, result: dict[str, Any]) -> dict[str, Any]:
    reqs = sorted(requests, key=lambda r: r.at)
    fake_s = sum((r.answered or r.at) - r.at for r in reqs)
    messages = [r for r in reqs if r.path == "/v1/messages"]
    kinds = state.kinds
    # Harness time of main round k: the gaps (client time) from the previous main
    # request's answer to this one's arrival, summary requests and side requests included.
    per_round: list[float] = []
    sizes: list[int] = []
    previous_end = t0
    gap = 0.0
    for rec, kind in zip(messages, kinds):
        gap += rec.at - previous_end
        previous_end = rec.answered or rec.at
        if kind == "main":
            per_round.append(gap)
            sizes.append(rec.size)
            gap = 0.0
    # Gap 0 is the start-up; gap k (k >= 1) is tool round k-1: its answer read, the tool
    # run, the result recorded, the next request built and sent.
    startup, per_round, sizes = per_round[0], per_round[1:], sizes[1:]
    buckets = []
    for start in range(0, len(per_round), BUCKET):
        chunk = per_round[start:start + BUCKET]
        size = sizes[start:start + BUCKET]
        buckets.append({"rounds": f"{start}-{start + len(chunk) - 1}",
                        "harness_ms_per_round": round(1000 * statistics.mean(chunk), 2),
                        "median_ms": round(1000 * statistics.median(chunk), 2),
                        "mean_request_kb": round(statistics.mean(size) / 1024, 1)})
    sent = sum(r.size for r in messages)
    return {
        "fake_parse_s": round(sum(r.parse_s for r in messages), 2),
        "rounds": state.main_requests - 1,
        "requests": {"main": kinds.count("main"), "summary": kinds.count("summary"),
                     "side": kinds.count("side"), "other_paths": len(reqs) - len(messages)},
        "num_turns": result.get("num_turns"),
        "wall_s": round(wall, 2),
        "fake_s": round(fake_s, 2),
        "harness_s": round(wall - fake_s, 2),
        "harness_ms_per_round": round(1000 * (wall - fake_s) / max(1, state.main_requests), 2),
        "startup_s": round(startup, 2),
        "cpu_s": round(cpu, 2),
        "cpu_own_s": round(state.cpu_at_end[0], 2),
        "cpu_children_s": round(state.cpu_at_end[1], 2),
        "buckets": buckets,
        "peak_rss_mb": round(maxrss_kb / 1024, 1),
        "rss_mb_after_compactions": [(n, round(kb / 1024, 1)) for n, kb in state.rss_after_compaction],
        "rss_mb_every_100": [(n, round(kb / 1024, 1)) for n, kb in state.rss_samples],
        "input_bytes": sent,
        "input_tokens": sum(r.size // 4 for r in messages),
        "largest_request_kb": round(max(r.size for r in messages) / 1024, 1),
        "compactions": state.summaries,
        "transcripts": {p.name: len(b) for p, b in state.snapshots.items()},
        "transcript_rewrites": state.rewrites,
    }


def checks(f: dict[str, Any], window: int) -> list[str]:
    problems = []
    b = f["buckets"]
    if len(b) >= 2 and b[-1]["harness_ms_per_round"] > 2 * b[0]["harness_ms_per_round"]:
        problems.append(f"per-round harness time grew from {b[0]['harness_ms_per_round']} ms "
                        f"to {b[-1]['harness_ms_per_round']} ms")
    if f["transcript_rewrites"]:
        problems.append(f"{len(f['transcript_rewrites'])} transcript rewrites")
    after = [mb for _, mb in f["rss_mb_after_compactions"]]
    if len(after) >= 3 and after[-1] > after[1] * 1.25:
        problems.append(f"memory after compaction kept growing: {after}")
    if f["largest_request_kb"] * 1024 / 4 > window * 1.2:
        problems.append(f"a request of {f['largest_request_kb']} KB passed the window")
    return problems


def show(name: str, f: dict[str, Any]) -> None:
    r = f["requests"]
    print(f"{name}: {f['rounds']} tool rounds, {r['main']} main + {r['summary']} summary + "
          f"{r['side']} side requests ({r['other_paths']} to other paths)")
    print(f"  wall {f['wall_s']:.2f} s   fake {f['fake_s']:.2f} s   harness {f['harness_s']:.2f} s "
          f"({f['harness_ms_per_round']:.2f} ms per round)")
    print(f"  cpu {f['cpu_s']:.2f} s (the process's own user + system time, steadier than wall "
          "on a busy machine, its tools' processes included); at the last request: its own "
          f"{f['cpu_own_s']:.2f} s, its tools' {f['cpu_children_s']:.2f} s")
    print(f"  start-up to the first request {f['startup_s']:.2f} s; per 100 rounds after it: "
          "harness ms/round (mean, median), mean request KB")
    for b in f["buckets"]:
        print(f"    {b['rounds']:>9}  {b['harness_ms_per_round']:8.2f}  {b['median_ms']:8.2f}  "
              f"{b['mean_request_kb']:8.1f}")
    print(f"  peak memory {f['peak_rss_mb']} MB; RSS after each compaction (round, MB): "
          f"{f['rss_mb_after_compactions']}")
    print(f"  input sent: {f['input_bytes'] / 1e6:.1f} MB, {f['input_tokens']:,} tokens "
          f"(largest request {f['largest_request_kb']} KB)")
    print(f"  compactions: {f['compactions']}; transcripts {f['transcripts']}")
    print(f"  transcript rewrites: {f['transcript_rewrites'] or 'none (append-only)'}")
    if "floor" in f:
        fl = f["floor"]
        print(f"  floor (bench/floor_client.py replaying these bodies): {fl['floor_s']:.2f} s = "
              f"its wall {fl['wall_s']:.2f} s - the fake's time on it {fl['fake_s']:.2f} s + "
              f"the fake's time on this session {f['fake_s']:.2f} s")
        print(f"    its start-up to the first request {fl['startup_s']:.2f} s (SDK loaded at "
              f"{fl['sdk_loaded_s']:.2f} s); requests {fl['requests_s']:.2f} s (fake "
              f"{fl['fake_s']:.2f} s, its parsing {fl['fake_parse_s']:.2f} s, the SDK and "
              f"loopback {fl['sdk_ms_per_request']:.2f} ms per request); tools "
              f"{fl['tools_s']:.2f} s; cpu {fl['cpu_s']:.2f} s")
        print(f"    the fake's JSON parsing of the bodies (in harness time, in the floor too): "
              f"{f['fake_parse_s']:.2f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=str(__doc__).splitlines()[0])
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--window", type=int, default=100_000,
                        help="CLAUDE_CODE_AUTO_COMPACT_WINDOW for the run (tokens)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--claude", metavar="BIN", help="also run Claude Code, and compare")
    parser.add_argument("--no-floor", action="store_true",
                        help="skip the floor client's replay of cc's session")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = {"cc": run([sys.executable, "-m", "cc"], args.rounds, args.window, args.seed,
                         {"CC_DISABLE_MEMORY_EXTRACTION": "1", "PYTHONPATH": str(ROOT)},
                         floor=not args.no_floor)}
    if args.claude:
        results["claude"] = run([args.claude], args.rounds, args.window, args.seed, {},
                                strict=False)
    problems = checks(results["cc"], args.window)
    load = os.getloadavg()[0]
    if args.json:
        print(json.dumps({**results, "problems": problems, "load_average": load}, indent=2))
    else:
        for name, f in results.items():
            show(name, f)
        if "claude" in results:
            c, cl = results["cc"], results["claude"]
            print(f"cc / Claude Code: wall {c['wall_s'] / cl['wall_s']:.2f}x, harness "
                  f"{c['harness_s'] / cl['harness_s']:.2f}x, cpu {c['cpu_s'] / cl['cpu_s']:.2f}x, "
                  f"peak memory "
                  f"{c['peak_rss_mb'] / cl['peak_rss_mb']:.2f}x, input bytes "
                  f"{c['input_bytes'] / cl['input_bytes']:.2f}x (target: wall at most 0.25x)")
            if "floor" in c:
                floor = c["floor"]["floor_s"]
                print(f"floor / Claude Code: wall {floor / cl['wall_s']:.2f}x, harness "
                      f"{(floor - c['fake_s']) / cl['harness_s']:.2f}x (the least any SDK client "
                      f"could reach here; cc {c['wall_s'] / cl['wall_s']:.2f}x and "
                      f"{c['harness_s'] / cl['harness_s']:.2f}x)")
        print(f"problems: {problems or 'none'}")
        print(f"load average: {load:.2f}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
