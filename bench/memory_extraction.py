"""What background memory extraction costs in input tokens, with prompt caching modelled.

A seeded 20-turn session runs in-process against the fake API of tests/fakeapi.py, twice:
with extraction on (cc.agents.extractor.attach) and with it off. Each main turn is one or
two Read rounds (a 2-12 KB file of the project), then a short answer. The extractor (the
requests whose messages carry the keeper's directive) answers "Nothing to save." except
every SAVE_EVERY-th turn, when it writes a memory and its index line (Read MEMORY.md first
when there is one). The user is slower than the extractor: the next prompt is sent once
the extraction of the last turn is over, so the two never overlap.

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
SAVE_EVERY = 5
UNCACHED = 4  # input_tokens of every reply


# ---------------------------------------------------------------------------------------
# The session's script


@dataclass
class Turn:
    prompt: str
    reads: list[str]  # paths relative to the project
    answer: str
    save: str | None  # the name of the memory the extractor writes after it


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
        save = f"preference-{t:02}" if t % SAVE_EVERY == 0 else None
        prompt = f"Turn {t}: what do {' and '.join(reads)} do?"
        if save:
            prompt += f" By the way, I prefer {rng.choice(WORDS)} over {rng.choice(WORDS)}."
        script.append(Turn(prompt, reads, lines(rng, rng.randint(200, 800)), save))
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
    """The extractor's side: it decides from the request what the next step is."""

    def __init__(self, script: list[Turn], folder: Path, cache: Cache) -> None:
        self.script = script
        self.folder = folder
        self.cache = cache
        self.runs = 0
        self.index: list[str] = []

    def __call__(self, body: dict[str, Any]) -> Reply:
        return Reply(self.step(body).content, usage=self.cache.usage("extraction", body))

    def step(self, body: dict[str, Any]) -> Reply:
        messages = body["messages"]
        last = messages[-1]["content"]
        if KEEPER in json.dumps(last):  # the directive: a new run, after turn `runs`
            self.runs += 1
            save = self.script[self.runs - 1].save
            if save is None:
                return Reply("Nothing to save.")
            if (self.folder / "MEMORY.md").exists():
                return Reply([tool_use("Read", {"file_path": str(self.folder / "MEMORY.md")})])
            return self.write(save)
        called = [b["name"] for b in messages[-2]["content"] if b.get("type") == "tool_use"]
        if called == ["Read"]:
            return self.write(self.script[self.runs - 1].save or "")
        return Reply(f"Saved {self.script[self.runs - 1].save}.")

    def write(self, name: str) -> Reply:
        note = (f"---\nname: {name}\ndescription: A preference the user stated\n"
                f"type: user\n---\nThe user said so on 2026-12-01 (turn {self.runs}).\n")
        self.index.append(f"- [{name}]({name}.md) - a preference the user stated")
        return Reply([
            tool_use("Write", {"file_path": str(self.folder / f"{name}.md"), "content": note}),
            tool_use("Write", {"file_path": str(self.folder / "MEMORY.md"),
                               "content": "\n".join(self.index) + "\n"}),
        ])


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


async def session(base: Path, files: dict[str, str], script: list[Turn],
                  extract: bool) -> Result:
    from cc.app.options import resolve_options
    from cc.app.session import Session, StartFacts
    from cc.cli_args import build_parser
    from cc.config.settings import Settings
    from cc.core.client import Credentials
    from cc.core.events import Terminal

    cwd, config, home = base / "project", base / "config", base / "home"
    for d in (cwd / "src", config, home):
        d.mkdir(parents=True)
    for rel, content in files.items():
        (cwd / rel).write_text(content)
    os.environ.update(HOME=str(home), CLAUDE_CONFIG_DIR=str(config),
                      CC_DISABLE_MEMORY_EXTRACTION="0" if extract else "1")
    cache = Cache()
    with FakeAPI() as api:
        options = resolve_options(build_parser().parse_args(["-p"]), Settings(), {})
        credentials = Credentials(api_key="bench-key", base_url=api.base_url)
        sess = Session(StartFacts(cwd, config, Settings(), credentials, options))
        await sess.open()
        engine, coordinator = sess.engine, sess.extractor
        if sess.memory_dir is None:
            raise SystemExit("memory is off: no folder to extract into")
        keeper = Keeper(script, sess.memory_dir, cache)
        api.route(is_keeper, *[Dynamic(keeper) for _ in range(4 * len(script))],
                  name="keeper")
        api.route(lambda body: not is_keeper(body), *main_turns(script, cwd, cache),
                  name="main")
        ok = 0
        try:
            for turn in script:
                async for event in engine.submit(turn.prompt):
                    ok += isinstance(event, Terminal) and event.ok
                if coordinator is not None:
                    await coordinator.drain(30)
        finally:
            await sess.close()
        errors = sum(1 for r in api.requests if r.path == "/v1/messages"
                     for b in r.body["messages"][-1]["content"]
                     if isinstance(b, dict) and b.get("is_error"))
        return Result(cache.by_kind, ok, coordinator.runs if coordinator else 0,
                      len(coordinator.saved) if coordinator else 0, errors, len(api.violations))


# ---------------------------------------------------------------------------------------
# Report


ROWS = (("requests", "requests"), ("uncached input", "uncached"), ("cache reads", "read"),
        ("cache writes", "write"), ("cost", "cost"))


def figure(u: Usage, attr: str, per: int) -> str:
    v = getattr(u, attr) / per
    return f"{v:10.1f}" if per > 1 and attr in ("requests", "uncached") else f"{v:10,.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=str(__doc__).splitlines()[0])
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    t0 = time.perf_counter()
    files, script = plan(args.turns, args.seed)
    with tempfile.TemporaryDirectory(prefix="cc-bench-mem-") as tmp:
        on = asyncio.run(session(Path(tmp) / "1", files, script, extract=True))
        off = asyncio.run(session(Path(tmp) / "2", files, script, extract=False))
    elapsed = time.perf_counter() - t0
    main_on, ext, main_off = on.usage["main"], on.usage["extraction"], off.usage["main"]
    total_on = Usage(main_on.requests + ext.requests, main_on.uncached + ext.uncached,
                     main_on.read + ext.read, main_on.write + ext.write)
    diff = total_on.minus(main_off)
    if args.json:
        def d(u: Usage) -> dict[str, Any]:
            return {**vars(u), "cost": round(u.cost)}
        print(json.dumps({"turns": args.turns, "seed": args.seed, "main_on": d(main_on),
                          "extraction": d(ext), "main_off": d(main_off), "difference": d(diff),
                          "extraction_share": round(ext.cost / total_on.cost, 4),
                          "extractions": on.extractions, "saved": on.saved,
                          "tool_errors": on.tool_errors + off.tool_errors,
                          "violations": on.violations + off.violations}))
        return
    n = args.turns
    print(f"memory extraction: {n} turns, seed {args.seed}, {on.extractions} extractions, "
          f"{on.saved} memories saved ({elapsed:.1f} s)")
    print(f"  turns completed: on {on.turns_ok}/{n}, off {off.turns_ok}/{n}; tool errors "
          f"{on.tool_errors + off.tool_errors}; fake API violations "
          f"{on.violations + off.violations}")
    print(f"  {'extraction on:':16} {'main':>21} {'extraction':>21}")
    print(f"  {'':16} {'per turn':>10} {'total':>10} {'per turn':>10} {'total':>10}")
    for label, attr in ROWS:
        print(f"  {label:16} {figure(main_on, attr, n)} {figure(main_on, attr, 1)} "
              f"{figure(ext, attr, n)} {figure(ext, attr, 1)}")
    print(f"  cost in base-rate input tokens (uncached 1x, cache read {READ_RATE}x, "
          f"write {WRITE_RATE}x)")
    print(f"  extraction's share of the cost: {ext.cost / total_on.cost:.1%} "
          f"(extraction {ext.cost:,.0f} of {total_on.cost:,.0f})")
    print(f"  {'on vs off:':16} {'off (main only)':>21} {'on - off':>21}")
    print(f"  {'':16} {'per turn':>10} {'total':>10} {'per turn':>10} {'total':>10}")
    for label, attr in ROWS:
        print(f"  {label:16} {figure(main_off, attr, n)} {figure(main_off, attr, 1)} "
              f"{figure(diff, attr, n)} {figure(diff, attr, 1)}")
    print(f"  extraction on costs {diff.cost / main_off.cost:+.1%} "
          f"(the main agent's own cost on - off: {main_on.cost - main_off.cost:+,.0f})")


if __name__ == "__main__":
    main()
