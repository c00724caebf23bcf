"""What background memory extraction costs in input tokens, with prompt caching modelled.

A seeded 20-turn interactive session runs in-process against the fake API of
tests/fakeapi.py, four times: with extraction off; with it run after every turn, the
user slower than the extractor (how cc extracted before: 28.0% of the cost at commit
02b3cdc, whose keeper also read MEMORY.md first and was asked again after its writes);
and as cc extracts now: only when the turns not yet looked at hold a sign worth keeping
(cc/memory/worth.py), once for all of them, when the session sits idle or ends.

Each main turn is one or two Read rounds (a 2-12 KB file of the project), then a short
answer. Most prompts are tasks ("what does src/mod03.py do?"); four say something worth
keeping (about the user, a project rule, a correction, a standing instruction), and one
task prompt looks like one ("why does ... always use a list instead of a dict?"), a false
alarm whose look saves nothing. The user steps away once, after turn PAUSE_AFTER (longer
than the idle wait), and leaves after the last turn; a fourth run has a slow user, idle
after every turn, so each turn worth keeping gets a look of its own. The keeper (the requests whose
messages carry its directive) writes a memory for each such prompt it has not saved yet,
and the index, in one reply; with nothing new it answers "Nothing to save.".

Every reply's usage is made from the request it answers, as the API's prompt cache would
report it. A request is a sequence of elements (a header of model and thinking, each
system block, each tool, each message block with its role; cache_control markers left
out), a token is 4 bytes of an element's JSON, and
  cache_read_input_tokens      the longest prefix shared with any earlier request of the
                               session (main or extraction: one cache, all within its TTL);
  cache_creation_input_tokens  the rest;
  input_tokens                 a few (what follows the last breakpoint, which is at the end).
Breakpoint placement, the 20-block lookback and the minimum cacheable length are left out.
Cost is in base-rate input tokens: uncached 1x, cache read 0.1x, cache write 1.25x.

    python bench/memory_extraction.py [--turns 20] [--seed 7] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.shared import READ_RATE, WORDS, WRITE_RATE  # noqa: E402
from tests.fakeapi import Dynamic, FakeAPI, Reply, tool_use  # noqa: E402

#: In every extraction request (the start of cc/prompts/memory/extract.md).
KEEPER = "it comes from the memory keeper"
UNCACHED = 4  # input_tokens of every reply
#: The user steps away (past the idle wait) after this turn.
PAUSE_AFTER = 10
#: How long the session must sit idle before a look, in the bench (the user's pause is
#: modelled by waiting for the look to end).
IDLE_SECONDS = 0.05

#: Prompts that say something worth keeping, by turn, with the memory the keeper saves.
WORTH = {
    3: ("I'm the only maintainer of this repo, so skip changelog entries. What does {a} do?",
        "sole-maintainer"),
    8: ("We only deploy on Fridays, so keep risky changes small. What does {a} do?",
        "deploys-on-fridays"),
    9: ("No, that's wrong: {a} is the entry point, not a helper. What does it call?",
        "entry-point"),
    16: ("From now on, run the linter before you say something is done. Check {a}.",
         "lint-before-done"),
}
#: A task prompt that looks worth keeping (a false alarm: its look saves nothing).
FALSE_ALARM = {12: "Why does {a} always use a list instead of a dict?"}
TASKS = (
    "What do {a} and {b} do?",
    "Explain the main loop in {a}.",
    "Where is the error handling in {a}?",
    "Fix the off-by-one in {a}.",
    "Add a docstring to the first function in {a}.",
    "Rename the helper in {a} to something clearer.",
    "Run the tests again after reading {a}.",
    "Does {a} handle empty input?",
    "Summarize {a} and {b} in two lines.",
)


# ---------------------------------------------------------------------------------------
# The session's script


@dataclass
class Turn:
    prompt: str
    reads: list[str]  # paths relative to the project
    answer: str
    save: str | None  # the name of the memory the keeper writes for it


def lines(rng: random.Random, size: int) -> str:
    out, n = [], 0
    while n < size:
        line = " ".join(rng.choices(WORDS, k=rng.randint(3, 12)))
        out.append(line)
        n += len(line) + 1
    return "\n".join(out) + "\n"


def plan(turns: int, seed: int) -> tuple[dict[str, str], list[Turn]]:
    rng = random.Random(seed)
    files = {f"src/mod{i:02}.py": lines(rng, rng.randint(2_000, 12_000)) for i in range(12)}
    script = []
    for t in range(1, turns + 1):
        reads = rng.sample(sorted(files), rng.randint(1, 2))
        a, b = reads[0], reads[-1]
        text, save = WORTH.get(t, (FALSE_ALARM.get(t, TASKS[t % len(TASKS)]), None))
        script.append(Turn(text.format(a=a, b=b), reads, lines(rng, rng.randint(200, 800)),
                           save))
    return files, script


# ---------------------------------------------------------------------------------------
# The prompt cache, as usage figures


def elements(body: dict[str, Any]) -> list[str]:
    """The request as the cache sees it: JSON of each element, cache_control left out."""
    def bare(block: Any) -> Any:
        return {k: v for k, v in block.items() if k != "cache_control"} if isinstance(
            block, dict) else block

    out = [json.dumps({"model": body.get("model"), "thinking": body.get("thinking")})]
    system = body.get("system") or []
    if isinstance(system, str):
        system = [{"type": "text", "text": system}]
    out += [json.dumps(bare(b)) for b in system]
    out += [json.dumps(bare(t)) for t in body.get("tools") or []]
    for m in body.get("messages") or []:
        content = m["content"]
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        out += [json.dumps([m["role"], bare(b)]) for b in content]
    return out


@dataclass
class Usage:
    requests: int = 0
    uncached: int = 0
    read: int = 0
    write: int = 0

    @property
    def cost(self) -> float:
        return self.uncached + READ_RATE * self.read + WRITE_RATE * self.write

    def add(self, usage: dict[str, int]) -> None:
        self.requests += 1
        self.uncached += usage["input_tokens"]
        self.read += usage["cache_read_input_tokens"]
        self.write += usage["cache_creation_input_tokens"]

    def minus(self, other: Usage) -> Usage:
        return Usage(self.requests - other.requests, self.uncached - other.uncached,
                     self.read - other.read, self.write - other.write)


@dataclass
class Cache:
    """Every request seen so far; usage for the next one (called on handler threads)."""

    seen: list[list[str]] = field(default_factory=list)
    by_kind: dict[str, Usage] = field(
        default_factory=lambda: {"main": Usage(), "extraction": Usage()})
    lock: threading.Lock = field(default_factory=threading.Lock)

    def usage(self, kind: str, body: dict[str, Any]) -> dict[str, int]:
        parts = elements(body)
        sizes = [len(p.encode()) for p in parts]
        with self.lock:
            shared = 0
            for old in self.seen:
                n = 0
                while n < min(len(old), len(parts)) and old[n] == parts[n]:
                    n += 1
                shared = max(shared, n)
            self.seen.append(parts)
            read = sum(sizes[:shared]) // 4
            write = sum(sizes) // 4 - read
            usage = {"input_tokens": UNCACHED, "cache_read_input_tokens": read,
                     "cache_creation_input_tokens": write}
            self.by_kind[kind].add(usage)
        return usage


# ---------------------------------------------------------------------------------------
# The scripted model


def is_keeper(body: dict[str, Any]) -> bool:
    return KEEPER in json.dumps(body["messages"])


def main_turns(script: list[Turn], cwd: Path, cache: Cache) -> list[Dynamic]:
    replies: list[Reply] = []
    for turn in script:
        replies += [Reply([tool_use("Read", {"file_path": str(cwd / p)})]) for p in turn.reads]
        replies.append(Reply(turn.answer))

    def answer(reply: Reply) -> Dynamic:
        return Dynamic(lambda body: Reply(reply.content, usage=cache.usage("main", body)))

    return [answer(r) for r in replies]


class Keeper:
    """The extractor's side: a memory for each prompt worth keeping that the request
    holds and no look saved yet, and the index, in one reply."""

    def __init__(self, script: list[Turn], folder: Path, cache: Cache) -> None:
        self.script = script
        self.folder = folder
        self.cache = cache
        self.index: list[str] = []

    def __call__(self, body: dict[str, Any]) -> Reply:
        return Reply(self.step(body).content, usage=self.cache.usage("extraction", body))

    def step(self, body: dict[str, Any]) -> Reply:
        said = json.dumps(body["messages"])
        new = [t.save for t in self.script if t.save and json.dumps(t.prompt)[1:-1] in said
               and not any(f"[{t.save}]" in line for line in self.index)]
        if not new:
            return Reply("Nothing to save.")
        calls = []
        for name in new:
            note = (f"---\nname: {name}\ndescription: What the user said\ntype: user\n---\n"
                    f"The user said so on 2026-12-01.\n")
            self.index.append(f"- [{name}]({name}.md) - what the user said")
            calls.append(tool_use("Write", {"file_path": str(self.folder / f"{name}.md"),
                                            "content": note}))
        calls.append(tool_use("Write", {"file_path": str(self.folder / "MEMORY.md"),
                                        "content": "\n".join(self.index) + "\n"}))
        return Reply(calls)


# ---------------------------------------------------------------------------------------
# One session


@dataclass
class Result:
    usage: dict[str, Usage]
    turns_ok: int
    extractions: int
    saved: int
    tool_errors: int
    violations: int


POLICIES = ("off", "every turn", "worth keeping", "worth, slow user")


async def session(base: Path, files: dict[str, str], script: list[Turn],
                  policy: str) -> Result:
    """The scripted session under `policy`: extraction off, after every turn (the user
    pausing after each), or as cc does it (the user pausing after PAUSE_AFTER; a slow
    user: after every turn)."""
    import dataclasses

    from cc.app.options import resolve_options
    from cc.app.session import Session, StartFacts
    from cc.cli_args import build_parser
    from cc.config.settings import Settings
    from cc.core.credentials import Credentials
    from cc.core.events import Terminal

    cwd, config, home = base / "project", base / "config", base / "home"
    for d in (cwd / "src", config, home):
        d.mkdir(parents=True)
    for rel, content in files.items():
        (cwd / rel).write_text(content)
    os.environ.update(HOME=str(home), CLAUDE_CONFIG_DIR=str(config),
                      CC_DISABLE_MEMORY_EXTRACTION="1" if policy == "off" else "0")
    cache = Cache()
    with FakeAPI() as api:
        options = dataclasses.replace(
            resolve_options(build_parser().parse_args([]), Settings(), {}), interactive=True)
        credentials = Credentials(api_key="bench-key", base_url=api.base_url)
        sess = Session(StartFacts(cwd, config, Settings(), credentials, options))
        await sess.open()
        engine, coordinator = sess.engine, sess.extractor
        if sess.memory_dir is None:
            raise SystemExit("memory is off: no folder to extract into")
        if coordinator is not None:
            coordinator.idle_seconds = IDLE_SECONDS
            if policy == "every turn":
                coordinator.judge = lambda prompts: "every turn"
        keeper = Keeper(script, sess.memory_dir, cache)
        api.route(is_keeper, *[Dynamic(keeper) for _ in range(4 * len(script))],
                  name="keeper")
        api.route(lambda body: not is_keeper(body), *main_turns(script, cwd, cache),
                  name="main")
        ok = 0
        try:
            for number, turn in enumerate(script, 1):
                async for event in engine.submit(turn.prompt):
                    ok += isinstance(event, Terminal) and event.ok
                slow = policy in ("every turn", "worth, slow user")
                if coordinator is not None and (slow or number == PAUSE_AFTER):
                    await settled(coordinator)  # the user is away: the session sits idle
            await sess.end("prompt_input_exit", look_back=True)  # the user leaves
        finally:
            await sess.close()
        errors = sum(1 for r in api.requests if r.path == "/v1/messages"
                     for b in r.body["messages"][-1]["content"]
                     if isinstance(b, dict) and b.get("is_error"))
        return Result(cache.by_kind, ok, coordinator.runs if coordinator else 0,
                      len(coordinator.saved) if coordinator else 0, errors, len(api.violations))


async def settled(coordinator: Any, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not coordinator.settled:
        if time.monotonic() > end:
            raise SystemExit("the extraction did not settle")
        await asyncio.sleep(0.01)


# ---------------------------------------------------------------------------------------
# Report


ROWS = (("requests", "requests"), ("uncached input", "uncached"), ("cache reads", "read"),
        ("cache writes", "write"), ("cost", "cost"))


def figure(u: Usage, attr: str, per: int) -> str:
    v = getattr(u, attr) / per
    return f"{v:10.1f}" if per > 1 and attr in ("requests", "uncached") else f"{v:10,.0f}"


def share(result: Result) -> float:
    total = result.usage["main"].cost + result.usage["extraction"].cost
    return result.usage["extraction"].cost / total


def main() -> None:
    parser = argparse.ArgumentParser(description=str(__doc__).splitlines()[0])
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    t0 = time.perf_counter()
    files, script = plan(args.turns, args.seed)
    results: dict[str, Result] = {}
    with tempfile.TemporaryDirectory(prefix="cc-bench-mem-") as tmp:
        for n, policy in enumerate(POLICIES):
            results[policy] = asyncio.run(session(Path(tmp) / str(n), files, script, policy))
    elapsed = time.perf_counter() - t0
    off, every, now, slow = (results[p] for p in POLICIES)
    worth = sum(1 for t in script if t.save)
    if args.json:
        def d(u: Usage) -> dict[str, Any]:
            return {**vars(u), "cost": round(u.cost)}
        print(json.dumps({
            "turns": args.turns, "seed": args.seed, "worth_keeping": worth,
            **{p: {"main": d(r.usage["main"]), "extraction": d(r.usage["extraction"]),
                   "extraction_share": round(share(r), 4), "extractions": r.extractions,
                   "saved": r.saved, "turns_ok": r.turns_ok, "tool_errors": r.tool_errors,
                   "violations": r.violations} for p, r in results.items()}}))
        return
    n = args.turns
    print(f"memory extraction: {n} turns, seed {args.seed}, {worth} prompts worth keeping, "
          f"1 false alarm, a pause after turn {PAUSE_AFTER} ({elapsed:.1f} s)")
    print(f"  {'policy':16} {'turns ok':>9} {'looks':>6} {'saved':>6} {'main cost':>10} "
          f"{'extraction':>11} {'share':>7}")
    for policy, r in results.items():
        print(f"  {policy:16} {r.turns_ok:>6}/{n:<2} {r.extractions:>6} {r.saved:>6} "
              f"{r.usage['main'].cost:>10,.0f} {r.usage['extraction'].cost:>11,.0f} "
              f"{share(r):>7.1%}")
    print(f"  tool errors {sum(r.tool_errors for r in results.values())}; fake API violations "
          f"{sum(r.violations for r in results.values())}; cost in base-rate input tokens "
          f"(uncached 1x, cache read {READ_RATE}x, write {WRITE_RATE}x)")
    ext = now.usage["extraction"]
    print(f"  {'as cc does now:':16} {'main':>21} {'extraction':>21}")
    print(f"  {'':16} {'per turn':>10} {'total':>10} {'per look':>10} {'total':>10}")
    looks = max(now.extractions, 1)
    for label, attr in ROWS:
        print(f"  {label:16} {figure(now.usage['main'], attr, n)} "
              f"{figure(now.usage['main'], attr, 1)} {figure(ext, attr, looks)} "
              f"{figure(ext, attr, 1)}")
    print(f"  extraction's share of the cost: before (every turn) {share(every):.1%}, "
          f"now {share(now):.1%} (a user idle after every turn: {share(slow):.1%}); "
          f"memories saved: before {every.saved}, now {now.saved} (of {worth})")
    if off.usage["main"].cost:
        print(f"  now vs off: {(now.usage['main'].cost + ext.cost) / off.usage['main'].cost - 1:+.1%}"
              f" of the session's cost")


if __name__ == "__main__":
    main()
