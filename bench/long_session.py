"""Context size over a long session, with and without the cheap trims of cc/compact/micro.py.

No network and no model: a seeded script of tool rounds (Read, Bash, Grep; results of
2-20 KB; a few files read again and again; thinking on every assistant message; a new
prompt every 15-30 rounds, each turn ending with a short answer) is replayed three times:
  (a) as is;
  (b) with `trim()` before each request, the cache warm (5 s since the last response),
      so only large savings trigger it;
  (c) with `trim()` before each request, the cache cold every time (600 s).
A request's size is bytes / 4 of the JSON of `normalize_messages_for_api(messages)`;
the system prompt and tools are left out, and so is auto-compaction. A request whose
messages do not start with all of the previous request's blocks changed the prefix: a
cache miss from the first changed block on. The cost column prices a request at the
API's cache rates (cached prefix read at 0.1x the base input rate, the rest written at
1.25x; with a cold cache, all of it written).

    python bench/long_session.py [--rounds 300] [--seed 7] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.shared import READ_RATE, WORDS, WRITE_RATE  # noqa: E402
from cc.compact.micro import trim  # noqa: E402
from cc.models.content_blocks import (  # noqa: E402
    ContentBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from cc.models.messages import (  # noqa: E402
    AssistantMessage,
    Message,
    UserMessage,
    normalize_messages_for_api,
)

CWD = "/proj"
WARM_S, COLD_S = 5.0, 600.0


@dataclass
class Round:
    """One assistant message (thinking + a tool call) and the call's result."""

    thinking: str
    name: str
    input: dict[str, Any]
    output: str


@dataclass
class Prompt:
    text: str


@dataclass
class Answer:
    """The turn's last assistant message: thinking and a short text, no call."""

    thinking: str
    text: str


Step = Round | Prompt | Answer


def corpus(rng: random.Random, size: int) -> str:
    lines, n = [], 0
    while n < size:
        line = f"{len(lines) + 1:6}\t" + " ".join(rng.choices(WORDS, k=rng.randint(3, 12)))
        lines.append(line)
        n += len(line) + 1
    return "\n".join(lines)


def script(rounds: int, seed: int) -> list[Step]:
    rng = random.Random(seed)
    text = corpus(rng, 256 * 1024)

    def chunk(size: int) -> str:
        start = rng.randrange(len(text) - size)
        return text[start:start + size]

    files = {f"{CWD}/src/mod{i:02}.py": chunk(rng.randint(2_000, 20_000)) for i in range(30)}
    hot = list(files)[:5]
    steps: list[Step] = [Prompt("start")]
    next_prompt = rng.randint(15, 30)
    for r in range(rounds):
        if r == next_prompt:
            steps += [Answer(chunk(rng.randint(300, 1500)), "Done."), Prompt(f"next task {r}")]
            next_prompt += rng.randint(15, 30)
        thinking = chunk(rng.randint(300, 1500))
        kind = rng.random()
        if kind < 0.55:
            path = rng.choice(hot) if rng.random() < 0.5 else rng.choice(list(files))
            steps.append(Round(thinking, "Read", {"file_path": path}, files[path]))
        elif kind < 0.85:
            steps.append(Round(thinking, "Grep", {"pattern": rng.choice(WORDS), "path": CWD},
                               chunk(rng.randint(2_000, 20_000))))
        else:
            steps.append(Round(thinking, "Bash", {"command": f"pytest -q -k {rng.choice(WORDS)}"},
                               chunk(rng.randint(2_000, 20_000))))
    steps.append(Answer(chunk(500), "All done."))
    return steps


@dataclass
class Figures:
    requests: int = 0
    peak: int = 0
    total: int = 0
    trims: int = 0
    saved: int = 0
    prefix_changes: int = 0
    cost_warm: float = 0.0
    cost_cold: float = 0.0
    previous: list[tuple[str, dict[str, Any]]] = field(default_factory=list, repr=False)

    def as_dict(self) -> dict[str, Any]:
        out = {k: v for k, v in vars(self).items() if k != "previous"}
        return {k: round(v) if isinstance(v, float) else v for k, v in out.items()}


def tokens(obj: Any) -> int:
    return len(json.dumps(obj).encode()) // 4


def request(messages: list[Message], since: float | None, fig: Figures) -> None:
    """Count one request; with `since` set, trim first as the loop would."""
    api = normalize_messages_for_api(messages)
    size = tokens(api)
    if since is not None:
        done = trim(messages, cwd=CWD, context_tokens=size, seconds_since_last_response=since)
        if done.cleared:
            fig.trims += 1
            fig.saved += done.saved_tokens
            api = normalize_messages_for_api(messages)
            size = tokens(api)
    blocks = [(m["role"], b) for m in api for b in m["content"]]
    same = 0
    for old, new in zip(fig.previous, blocks):
        if old != new:
            break
        same += 1
    if same < len(fig.previous):
        fig.prefix_changes += 1
    written = sum(tokens(b) for _, b in blocks[same:])
    fig.cost_warm += READ_RATE * (size - written) + WRITE_RATE * written
    fig.cost_cold += WRITE_RATE * size
    fig.requests += 1
    fig.peak = max(fig.peak, size)
    fig.total += size
    fig.previous = blocks


def replay(steps: list[Step], since: float | None) -> Figures:
    fig = Figures()
    messages: list[Message] = []
    n = 0
    for step in steps:
        if isinstance(step, Prompt):
            messages.append(UserMessage.text(step.text))
            continue
        request(messages, since, fig)
        head: list[ContentBlock] = [ThinkingBlock(step.thinking, "c2lnbmF0dXJl" * 20)]
        if isinstance(step, Answer):
            messages.append(AssistantMessage([*head, TextBlock(step.text)]))
            continue
        n += 1
        use = ToolUseBlock(f"toolu_{n:04}", step.name, step.input)
        messages.append(AssistantMessage([*head, use]))
        messages.append(UserMessage([ToolResultBlock(use.id, step.output)]))
    return fig


def main() -> None:
    parser = argparse.ArgumentParser(description=str(__doc__).splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    t0 = time.perf_counter()
    steps = script(args.rounds, args.seed)
    runs = {
        "(a) no trimming": replay(steps, None),
        "(b) trim, warm cache": replay(steps, WARM_S),
        "(c) trim, cold cache": replay(steps, COLD_S),
    }
    elapsed = time.perf_counter() - t0
    if args.json:
        print(json.dumps({"rounds": args.rounds, "seed": args.seed,
                          **{k: f.as_dict() for k, f in runs.items()}}))
        return
    a = runs["(a) no trimming"]
    print(f"long session: {args.rounds} tool rounds, {a.requests} requests, seed {args.seed} "
          f"({elapsed:.1f} s)")
    print(f"  {'':22} {'peak ctx':>9} {'total input':>12} {'trims':>6} {'saved':>10} "
          f"{'prefix changes':>15}")
    for name, f in runs.items():
        print(f"  {name:22} {f.peak:9,} {f.total:12,} {f.trims:6} {f.saved:10,} "
              f"{f.prefix_changes:15}")
    b, c = runs["(b) trim, warm cache"], runs["(c) trim, cold cache"]
    print("  cost in base-rate input tokens (cache read 0.1x, write 1.25x):")
    print(f"    warm cache: no trimming {a.cost_warm:12,.0f}   with trim (b) {b.cost_warm:12,.0f}")
    print(f"    cold cache: no trimming {a.cost_cold:12,.0f}   with trim (c) {c.cost_cold:12,.0f}")


if __name__ == "__main__":
    main()
