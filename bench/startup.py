"""Start-up benchmark for `cc`: wall time and peak memory of fresh processes.

    python bench/startup.py                 # 10 runs of each, a compact table
    python bench/startup.py --runs 20 --json

Measures, each in a fresh child process (peak RSS is the child's own ``ru_maxrss``, read
with ``os.wait4`` by a minimal launcher process, see ``_LAUNCHER``):

* ``python -c pass``               the interpreter floor, for reference
* ``python -m cc --version``       argument parsing only
* a two-turn print-mode run         ``cc -p ... --output-format json`` against the fake
                                    Messages API (tests/fakeapi.py): Read README.md, then "done"
* ``python -c "import anthropic"``  what the SDK alone costs
* the SDK alone                     loaded as cc loads it, making the print-mode case's two
                                    streamed requests: the floor of any SDK-based client

plus ``python -X importtime -c "import cc.main"`` (heaviest modules by cumulative time) and
a check that importing ``cc.main`` does not import the SDK. Progress goes to stderr; the
figures go to stdout. Exits 1 if a check fails.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.agents import Agent, agents, env_for, is_main, prepare, serve  # noqa: E402
from tests.fakeapi import FakeAPI, Reply, text, tool_use  # noqa: E402

PROMPT = "what does README.md say?"
README = "# Bench project\n\nThis README exists so the benchmark has something to Read.\n"
# ru_maxrss is KiB on Linux, bytes on macOS
_RSS_TO_MB = 1 / 1024 / 1024 if sys.platform == "darwin" else 1 / 1024


class BenchError(RuntimeError):
    pass


@dataclass
class Run:
    ms: float
    cpu_ms: float  # user + system
    peak_mb: float
    stdout: str
    stderr: str


@dataclass
class Figures:
    name: str
    command: str
    runs: int
    min_ms: float
    median_ms: float
    max_ms: float
    median_cpu_ms: float
    median_peak_mb: float
    max_peak_mb: float
    samples_ms: list[float] = field(default_factory=list)


def clean_env(**extra: str) -> dict[str, str]:
    """The inherited environment minus anything that could reach a real account or config."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ANTHROPIC_", "CLAUDE_", "PYTHONSTARTUP", "PYTHONPROFILEIMPORTTIME"))}
    env.update(extra)
    return env


# The measuring launcher. A child's ru_maxrss starts at its parent's high-water RSS (fork
# copies the mm, vfork shares it, and exec keeps the maximum), so a child spawned straight
# from this process (tens of MB: the fake server, json, ...) would never read lower than us.
# Instead a minimal interpreter (-I -S: no site, ~8 MB) spawns the command, times it and
# reads its rusage with wait4, and writes "wall-s cpu-s maxrss exit" to the fd in argv[1].
_LAUNCHER = """\
import os, sys, time
fd, argv = int(sys.argv[1]), sys.argv[2:]
t0 = time.perf_counter()
pid = os.posix_spawn(argv[0], argv, os.environ)
_, status, usage = os.wait4(pid, 0)
elapsed = time.perf_counter() - t0
cpu = usage.ru_utime + usage.ru_stime
os.write(fd, f"{elapsed!r} {cpu!r} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}".encode())
"""


def run_once(argv: list[str], cwd: Path, env: dict[str, str], timeout: float = 120.0) -> tuple[int, Run]:
    """Run ``argv`` once (through the launcher); return (exit code, timing). Output goes to
    temp files so nothing can block on a full pipe."""
    exe = shutil.which(argv[0]) or argv[0]
    argv = [os.path.abspath(exe), *argv[1:]]
    r, w = os.pipe()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        try:
            proc = subprocess.Popen([sys.executable, "-I", "-S", "-c", _LAUNCHER, str(w), *argv],
                                    cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                    pass_fds=(w,), start_new_session=True)
        finally:
            os.close(w)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the launcher's own group: it and the command
            proc.wait()
            raise BenchError(f"timed out after {timeout}s: {' '.join(argv)}") from None
        finally:
            with os.fdopen(r, "rb") as f:
                report = f.read().decode()
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    if proc.returncode != 0 or not report:
        raise BenchError(f"launcher failed (exit {proc.returncode}) for {' '.join(argv)}\n{stderr[-2000:]}")
    seconds, cpu, maxrss, code = report.split()
    return int(code), Run(float(seconds) * 1000, float(cpu) * 1000, int(maxrss) * _RSS_TO_MB, stdout, stderr)


def summarize(name: str, command: str, runs: list[Run]) -> Figures:
    ms = [r.ms for r in runs]
    mb = [r.peak_mb for r in runs]
    figures = [min(ms), statistics.median(ms), max(ms), statistics.median(r.cpu_ms for r in runs),
               statistics.median(mb), max(mb)]
    return Figures(name, command, len(runs), *(round(x, 2) for x in figures), [round(x, 1) for x in ms])


def bench_simple(name: str, argv: list[str], n: int, warmup: int, cwd: Path, env: dict[str, str]) -> Figures:
    runs: list[Run] = []
    for i in range(warmup + n):
        code, run = run_once(argv, cwd, env)
        if code != 0:
            raise BenchError(f"{name}: exit {code}\nstdout: {run.stdout[-2000:]}\nstderr: {run.stderr[-2000:]}")
        if i >= warmup:
            runs.append(run)
    return summarize(name, " ".join(argv[1:]), runs)


def _project(base: Path) -> tuple[Path, Path, Path]:
    """A fresh project with a README (first-run conditions), and its config and HOME:
    (the README, config, home)."""
    project = base / "project"
    project.mkdir(parents=True)
    readme = project / "README.md"
    readme.write_text(README)
    config, home = prepare(base, project)
    return readme, config, home


def bench_print(agents_: list[Agent], n: int, warmup: int, tmp: Path) -> list[Figures]:
    """A two-turn print-mode session: the model Reads README.md, then says "done". With
    more than one agent they take turns, run by run, so both meet the same machine."""
    runs: dict[str, list[Run]] = {a.name: [] for a in agents_}
    for i in range(warmup + n):
        for agent in agents_:
            readme, config, home = _project(tmp / f"print-{agent.name}-{i}")
            project = readme.parent
            with FakeAPI() as server:
                serve(server, Reply([tool_use("Read", {"file_path": str(readme)})]), Reply([text("done")]))
                env = env_for(server, config, home, as_anthropic=False)
                argv = [*agent.argv, "-p", PROMPT, "--output-format", "json"]
                code, run = run_once(argv, project, env)
                problems = []
                if code != 0:
                    problems.append(f"exit {code}")
                try:
                    result = json.loads(run.stdout)
                except ValueError:
                    result = None
                    problems.append("stdout is not one JSON object")
                if result is not None:
                    if result.get("num_turns") != 2:
                        problems.append(f"num_turns {result.get('num_turns')!r}, expected 2")
                    if result.get("is_error") or result.get("result") != "done":
                        problems.append(f"result {result.get('result')!r} (is_error={result.get('is_error')!r})")
                main = next(r for r in server.routes if r.name == "main")
                if main.turns_left:
                    problems.append(f"{main.turns_left} scripted turn(s) not consumed")
                if server.violations and not agent.is_claude:
                    problems.append("fake API violations: " + "; ".join(server.violations))
                if problems:
                    raise BenchError(f"{agent.name} print-mode run {i}: " + ", ".join(problems)
                                     + f"\nstdout: {run.stdout[-2000:]}\nstderr: {run.stderr[-2000:]}")
            if i >= warmup:
                runs[agent.name].append(run)
    return [summarize(f"print mode, 2 turns ({agent.name})" if len(agents_) > 1 else "print mode, 2 turns",
                      f'{" ".join(agent.argv[1:] or agent.argv)} -p "{PROMPT}" --output-format json',
                      runs[agent.name])
            for agent in agents_]


#: The floor of any client built on the SDK: load it and make the print-mode case's two
#: streamed requests as cc does (lazily, through the client's own `post`), read with the
#: SDK's own stream, nothing else.
_SDK_FLOOR = """
import asyncio, os
from cc.core import sdk
loaded = sdk.load()
async def main():
    client = loaded.AsyncAnthropic(base_url=os.environ["ANTHROPIC_BASE_URL"], max_retries=0)
    messages = [{"role": "user", "content": "what does README.md say?"}]
    for _ in range(2):
        stream = await loaded.create_message(client, {"model": "claude-sonnet-5-5", "max_tokens": 1024,
                                                      "messages": messages}, stream=True)
        async with stream:
            async for event in stream:
                pass
        messages += [{"role": "assistant", "content": "ok"}, {"role": "user", "content": "go on"}]
asyncio.run(main())
"""


def bench_sdk_floor(py: str, n: int, warmup: int, tmp: Path) -> Figures:
    """The SDK alone doing the print-mode case's two requests (`_SDK_FLOOR`)."""
    readme, config, home = _project(tmp / "sdk-floor")
    runs: list[Run] = []
    with FakeAPI() as server:
        server.script(*[Reply([text("done")]) for _ in range(2 * (n + warmup))])
        env = env_for(server, config, home, as_anthropic=False)
        for i in range(warmup + n):
            code, run = run_once([py, "-c", _SDK_FLOOR], readme.parent, env)
            if code != 0:
                raise BenchError(f"the SDK floor run {i} failed: {run.stderr[-2000:]}")
            if i >= warmup:
                runs.append(run)
    return summarize("the SDK alone, 2 requests", "python -c <load the SDK, stream twice>", runs)


EXIT_PROMPT = "I prefer tabs over spaces, remember that. What does README.md say?"


def bench_exit(agents_: list[Agent], n: int, tmp: Path) -> dict[str, float]:
    """How long each agent lives on after writing its result, when its background requests
    (a memory extraction, a title) are slow: the fake answers every request that is not the
    main conversation's with a reply that streams for about two seconds. Median ms."""
    gaps: dict[str, list[float]] = {a.name: [] for a in agents_}
    for i in range(n):
        for agent in agents_:
            readme, config, home = _project(tmp / f"exit-{agent.name}-{i}")
            project = readme.parent
            with FakeAPI() as server:
                server.route(is_main, Reply([tool_use("Read", {"file_path": str(readme)})]),
                             Reply([text("done")]), name="main")
                server.script(*[Reply([text("a slow side answer " * 20)], chunk_delay=0.2)
                                for _ in range(20)])
                env = env_for(server, config, home, as_anthropic=False)
                proc = subprocess.Popen([*agent.argv, "-p", EXIT_PROMPT, "--output-format", "json"],
                                        cwd=project, env=env, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
                assert proc.stdout is not None
                line = proc.stdout.readline()
                written = time.monotonic()
                proc.wait(120)
                gone = time.monotonic()
                if proc.returncode != 0 or json.loads(line or "{}").get("result") != "done":
                    raise BenchError(f"{agent.name}: exit-after-result run {i} failed: {line[-500:]!r}")
            gaps[agent.name].append((gone - written) * 1000)
    return {name: round(statistics.median(g), 1) for name, g in gaps.items()}


def parse_importtime(stderr: str) -> list[tuple[str, int, int, int]]:
    """``-X importtime`` lines as (module, depth, self µs, cumulative µs)."""
    rows = []
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        try:
            self_us, cum_us, name = line[len("import time:"):].split("|")
            depth = (len(name) - len(name.lstrip(" ")) - 1) // 2
            rows.append((name.strip(), depth, int(self_us), int(cum_us)))
        except ValueError:
            continue
    return rows


def bench_importtime(python: str, module: str, n: int, cwd: Path, env: dict[str, str]) -> dict[str, Any]:
    """Median ``-X importtime`` figures of ``import <module>`` over ``n`` runs. Interpreter
    start-up imports (``site`` and what it pulls in) are reported apart."""
    cum: dict[str, list[int]] = defaultdict(list)
    self_: dict[str, list[int]] = defaultdict(list)
    depth_of: dict[str, int] = {}
    site: list[int] = []
    for _ in range(n):
        code, run = run_once([python, "-X", "importtime", "-c", f"import {module}"], cwd, env)
        if code != 0:
            raise BenchError(f"importtime {module}: exit {code}\n{run.stderr[-2000:]}")
        rows = parse_importtime(run.stderr)
        # everything up to and including the top-level `site` line is interpreter start-up
        split = next((i + 1 for i, r in enumerate(rows) if r[0] == "site" and r[1] == 0), 0)
        site.append(sum(r[3] for r in rows[:split] if r[1] == 0))
        for name, depth, s, c in rows[split:]:
            cum[name].append(c)
            self_[name].append(s)
            depth_of.setdefault(name, depth)
    med = {m: statistics.median(v) for m, v in cum.items()}
    total = med.get(module, 0)
    heaviest = sorted((m for m in med if m != module), key=med.__getitem__, reverse=True)[:5]
    self_med = {m: statistics.median(v) for m, v in self_.items()}
    heaviest_self = sorted(self_med, key=self_med.__getitem__, reverse=True)[:5]
    direct = sorted((m for m in med if depth_of[m] == 1), key=med.__getitem__, reverse=True)
    return {
        "module": module,
        "runs": n,
        "total_ms": round(total / 1000, 2),
        "interpreter_startup_imports_ms": round(statistics.median(site) / 1000, 2),
        "modules_imported": len(med),
        "heaviest": [{"module": m, "depth": depth_of[m], "cumulative_ms": round(med[m] / 1000, 2),
                      "self_ms": round(self_med[m] / 1000, 2)} for m in heaviest],
        "heaviest_self": [{"module": m, "self_ms": round(self_med[m] / 1000, 2)} for m in heaviest_self],
        "direct_imports": [{"module": m, "cumulative_ms": round(med[m] / 1000, 2)} for m in direct],
    }


def sdk_check(python: str, cwd: Path, env: dict[str, str]) -> dict[str, Any]:
    """Which heavy packages a fresh `import cc.main` pulls in (anthropic must not be one)."""
    probe = ("import sys, json, cc.main; "
             "print(json.dumps({'anthropic': 'anthropic' in sys.modules, 'pydantic': 'pydantic' in sys.modules,"
             " 'httpx': 'httpx' in sys.modules, 'asyncio': 'asyncio' in sys.modules,"
             " 'modules': len(sys.modules), 'cc_modules': sorted(m for m in sys.modules if m.split('.')[0] == 'cc')}))")
    code, run = run_once([python, "-c", probe], cwd, env)
    if code != 0:
        raise BenchError(f"sdk check: exit {code}\n{run.stderr[-2000:]}")
    return json.loads(run.stdout)


def table(results: dict[str, Any]) -> str:
    lines = [f"cc start-up benchmark  ({results['runs']} runs each, {results['warmup']} warm-up; "
             f"python {results['python_version']}; {results['cpus']} CPUs, load avg {results['load_avg'][0]})", ""]
    head = f"{'case':<30} {'min ms':>8} {'median ms':>10} {'max ms':>8} {'cpu ms':>8} {'peak MB':>8}"
    lines += [head, "-" * len(head)]
    for f in results["timings"]:
        lines.append(f"{f['name']:<30} {f['min_ms']:>8.1f} {f['median_ms']:>10.1f} {f['max_ms']:>8.1f} "
                     f"{f['median_cpu_ms']:>8.1f} {f['median_peak_mb']:>8.1f}")
    lines.append("(cpu ms = median user+system time of the child; peak MB = median of its ru_maxrss)")
    by_name = {f["name"]: f for f in results["timings"]}
    floor = by_name["python -c pass"]["median_ms"]
    for name in ("cc --version", "cc --help"):
        lines.append(f"{name}: {by_name[name]['median_ms'] / floor:.2f}x python -c pass (must stay under 2x)")
    pair = [by_name.get(f"print mode, 2 turns ({a})") for a in ("cc", "claude")]
    if pair[0] and pair[1]:
        lines.append(f"print mode cc / Claude Code: {pair[0]['median_ms'] / pair[1]['median_ms']:.2f}x wall, "
                     f"{pair[0]['median_cpu_ms'] / pair[1]['median_cpu_ms']:.2f}x cpu, "
                     f"{pair[0]['median_peak_mb'] / pair[1]['median_peak_mb']:.2f}x peak memory (must stay at most 1.0x wall)")
        sdk_floor = by_name.get("the SDK alone, 2 requests")
        if sdk_floor:
            lines.append(f"the SDK alone / Claude Code: {sdk_floor['median_ms'] / pair[1]['median_ms']:.2f}x wall "
                         f"(the floor of an SDK-based client); cc / the SDK alone: "
                         f"{pair[0]['median_ms'] / sdk_floor['median_ms']:.2f}x")
    lines.append("print mode, from the result written to the process gone, its background requests slow: "
                 + ", ".join(f"{name} {ms:.0f} ms" for name, ms in results["result_to_exit_ms"].items()))
    it = results["importtime"]
    lines += ["", f"python -X importtime -c 'import {it['module']}'  (median of {it['runs']}): "
              f"{it['total_ms']:.1f} ms for {it['modules_imported']} modules "
              f"(+ {it['interpreter_startup_imports_ms']:.1f} ms of site/start-up imports)"]
    lines.append(f"  {'heaviest (cumulative)':<34} {'cum ms':>8} {'self ms':>8}")
    for h in it["heaviest"]:
        name = "  " * (h["depth"] - 1) + h["module"]
        lines.append(f"  {name:<34} {h['cumulative_ms']:>8.1f} {h['self_ms']:>8.1f}")
    lines.append("  heaviest by self time: " + ", ".join(
        f"{h['module']} {h['self_ms']:.1f}" for h in it["heaviest_self"]))
    lines.append("  direct imports of cc.main: " + ", ".join(
        f"{d['module']} {d['cumulative_ms']:.1f}" for d in it["direct_imports"]))
    chk = results["import_check"]
    verdict = "OK" if not chk["anthropic"] else "FAIL"
    lines += ["", f"after `import cc.main`: anthropic in sys.modules: {chk['anthropic']} [{verdict}]; "
              f"pydantic: {chk['pydantic']}; httpx: {chk['httpx']}; asyncio: {chk['asyncio']}; "
              f"{chk['modules']} modules ({', '.join(chk['cc_modules'])})"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=10, help="timed runs per case (default 10)")
    ap.add_argument("--warmup", type=int, default=1, help="untimed runs first, per case (default 1)")
    ap.add_argument("--python", default=sys.executable, help="interpreter to benchmark (default: this one)")
    ap.add_argument("--json", action="store_true", help="print machine-readable figures instead of a table")
    ap.add_argument("--claude", help="a Claude Code binary: its print-mode run is measured too, alternating")
    args = ap.parse_args(argv)
    if args.runs < 1:
        ap.error("--runs must be at least 1")

    def say(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    py = args.python
    # An installed cc has its bytecode: pip compiles it at install time. A checkout may not
    # (an editable install, PYTHONDONTWRITEBYTECODE), and compiling 300 modules on every
    # run would swamp what is measured. The same goes for what cc's first run writes
    # beside its bytecode: the dataclasses' compiled methods and the tools' definitions
    # (cc/precompile.py).
    subprocess.run([py, "-m", "compileall", "-q", str(REPO / "cc")], check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run([py, "-m", "cc.precompile"], check=True, cwd=REPO)
    with tempfile.TemporaryDirectory(prefix="cc-bench-") as tmpdir:
        tmp = Path(tmpdir)
        neutral = tmp / "cwd"  # not the repo root: import cc as installed
        neutral.mkdir()
        (tmp / "home").mkdir()
        (tmp / "config").mkdir()
        env = clean_env(HOME=str(tmp / "home"), CLAUDE_CONFIG_DIR=str(tmp / "config"))
        timings = []
        try:
            say("python -c pass ...")
            timings.append(bench_simple("python -c pass", [py, "-c", "pass"], args.runs, args.warmup, neutral, env))
            say("python -m cc --version ...")
            timings.append(bench_simple("cc --version", [py, "-m", "cc", "--version"], args.runs, args.warmup, neutral, env))
            say("python -m cc --help ...")
            timings.append(bench_simple("cc --help", [py, "-m", "cc", "--help"], args.runs, args.warmup, neutral, env))
            say("print mode against the fake API ...")
            who = agents(args.claude)
            who[0] = Agent("cc", (py, "-m", "cc"))
            timings += bench_print(who, args.runs, args.warmup, tmp)
            say("the SDK alone: load it, stream two requests ...")
            timings.append(bench_sdk_floor(py, args.runs, args.warmup, tmp))
            say("print mode: from the result to the exit, background requests slow ...")
            exit_gap = bench_exit(who, min(args.runs, 3), tmp)
            say("python -c 'import anthropic' ...")
            timings.append(bench_simple("import anthropic", [py, "-c", "import anthropic"], args.runs, args.warmup, neutral, env))
            say("python -X importtime -c 'import cc.main' ...")
            importtime = bench_importtime(py, "cc.main", min(args.runs, 5), neutral, env)
            check = sdk_check(py, neutral, env)
        except BenchError as exc:
            say(f"BENCH FAILED: {exc}")
            return 1
    version = subprocess.run([py, "-c", "import platform; print(platform.python_version())"],
                             capture_output=True, text=True).stdout.strip()
    results = {
        "runs": args.runs, "warmup": args.warmup, "python": py, "python_version": version,
        "cpus": os.cpu_count(), "load_avg": [round(x, 2) for x in os.getloadavg()],
        "timings": [asdict(f) for f in timings],
        "result_to_exit_ms": exit_gap,
        "importtime": importtime,
        "import_check": check,
    }
    print(json.dumps(results, indent=2) if args.json else table(results))
    if check["anthropic"]:
        say("FAIL: `import cc.main` imported the anthropic SDK")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
