"""Bytes sent to the Messages API per session, everything on (issue 25, item 3).

    python bench/bytes.py                                     # cc alone
    python bench/bytes.py --claude /tmp/claude/node_modules/.bin/claude
    python bench/bytes.py --json

Both agents run in the same prepared project against the fake Messages API
(tests/fakeapi.py), reached as Anthropic's API (the base URL is http://api.anthropic.com
and the fake is the HTTP proxy), so every feature that depends on it is on: deferred
tools and tool search among them. The project has a CLAUDE.md, two skills, one custom
agent, an auto-memory index (MEMORY.md and one memory file in the memory folder both
agents use, `<config>/projects/<sanitised cwd>/memory/`) and one stdio MCP server
(mcp-server-time) in .mcp.json, pre-approved (`bench.agents.prepare(..., everything_on=True)`);
both run as a returning user who trusts the folder.

The main conversation (a request offering Read whose last user message is one of our
prompts or a result of one of our Read calls) is scripted: the model Reads a file, then
answers. Every other request (title, side questions, memory extraction, anything in the
background) gets a short text reply. Every POST's body is counted (count_tokens too).

Figures:
* first request: the first request of the main conversation (system, tools, messages);
* 2-turn session: `-p PROMPT --output-format json`, the model's two turns (Read, answer);
* 20-turn session: one process driven over stream-json (`--input-format stream-json`),
  20 prompts, each sent when the previous one's result came: 40 main requests. One
  process, as an interactive session is (resuming with `-c` per prompt would add a
  start-up's requests per prompt to both agents and model no real session).
"""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.agents import env_for, prepare  # noqa: E402
from tests.fakeapi import Dynamic, FakeAPI, Recorded, Reply, text, tool_use  # noqa: E402

MARK = "bench prompt"
LONG_TURNS = 20
CC = [sys.executable, "-m", "cc"]
_ids = itertools.count(1)


# -- the project ------------------------------------------------------------------------


def setup(root: Path, api: FakeAPI, extra: dict[str, str]) -> tuple[Path, dict[str, str]]:
    """The project under `root` (everything on: `bench.agents.furnish`, and the notes the
    prompts ask about), its config and home folders; the project and the environment."""
    project = root / "project"
    notes = project / "notes"
    notes.mkdir(parents=True)
    for n in range(1, LONG_TURNS + 1):
        (notes / f"f{n}.txt").write_text("".join(f"line {i} of note {n}\n" for i in range(1, 21)))
    config, home = prepare(root, project, everything_on=True)
    return project, env_for(api, config, home, PYTHONPATH=str(REPO), **extra)


# -- the fake's script ------------------------------------------------------------------


def _last_user(body: dict[str, Any]) -> list[dict[str, Any]]:
    users = [m for m in body.get("messages") or [] if m.get("role") == "user"]
    if not users:
        return []
    content = users[-1].get("content")
    return [{"type": "text", "text": content}] if isinstance(content, str) else list(content)


@dataclass
class Script:
    """Routes the main conversation's requests to scripted turns, and remembers them."""

    project: Path
    ours: set[str] = field(default_factory=set)  # the ids of the Read calls we made
    main: list[Recorded] = field(default_factory=list)

    def is_main(self, body: dict[str, Any]) -> bool:
        if "Read" not in {t.get("name") for t in body.get("tools") or []}:
            return False
        blocks = _last_user(body)
        return (any(b.get("type") == "tool_result" and b.get("tool_use_id") in self.ours
                    for b in blocks)
                or any(b.get("type") == "text" and MARK in str(b.get("text")) for b in blocks))

    def turn(self, body: dict[str, Any]) -> Reply:
        blocks = _last_user(body)
        if any(b.get("type") == "tool_result" for b in blocks):
            return Reply([text("The note has twenty numbered lines. Nothing else in it.")])
        prompt = next(str(b["text"]) for b in blocks if b.get("type") == "text" and MARK in str(b["text"]))
        n = prompt.rsplit(" ", 1)[-1]
        tid = f"toolu_bench_{next(_ids):04d}"
        self.ours.add(tid)
        path = str(self.project / "notes" / f"f{n}.txt")
        return Reply([text("Reading it."), tool_use("Read", {"file_path": path}, id=tid)])


def prompt(n: int) -> str:
    return f"What does notes/f{n}.txt say? Answer in one line. {MARK} {n}"


# -- running ----------------------------------------------------------------------------


@dataclass
class Figures:
    first: dict[str, int]
    requests: list[Recorded]
    main: int
    main_bytes: int

    @property
    def total(self) -> int:
        return sum(r.size for r in self.requests)


def _serve(api: FakeAPI, project: Path) -> Script:
    script = Script(project)
    api.route(script.is_main, *[Dynamic(script.turn) for _ in range(4 * LONG_TURNS)], name="main")
    api.script(*["OK." for _ in range(2000)])
    return script


def _figures(api: FakeAPI) -> Figures:
    main = next(r for r in api.routes if r.name == "main").requests
    body = main[0].body
    first = {"total": main[0].size}
    for key in ("system", "tools", "messages"):
        first[key] = len(json.dumps(body.get(key), separators=(",", ":"), ensure_ascii=False).encode())
    return Figures(first, list(api.requests), len(main), sum(r.size for r in main))


def two_turns(argv: list[str], extra: dict[str, str]) -> Figures:
    with tempfile.TemporaryDirectory() as tmp, FakeAPI() as api:
        project, env = setup(Path(tmp), api, extra)
        _serve(api, project)
        run = subprocess.run([*argv, "-p", prompt(1), "--output-format", "json"], cwd=project,
                             env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                             timeout=300)
        if run.returncode != 0:
            raise SystemExit(f"{argv[0]} failed ({run.returncode}): {run.stderr[-2000:]}")
        return _figures(api)


def long_session(argv: list[str], extra: dict[str, str], turns: int = LONG_TURNS) -> Figures:
    with tempfile.TemporaryDirectory() as tmp, FakeAPI() as api:
        project, env = setup(Path(tmp), api, extra)
        _serve(api, project)
        proc = subprocess.Popen(
            [*argv, "-p", "--input-format", "stream-json", "--output-format", "stream-json",
             "--verbose"], cwd=project, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        assert proc.stdin is not None and proc.stdout is not None
        timer = threading.Timer(600, proc.kill)
        timer.start()
        try:
            for n in range(1, turns + 1):
                message = {"type": "user", "message": {"role": "user", "content": prompt(n)},
                           "parent_tool_use_id": None, "session_id": ""}
                proc.stdin.write(json.dumps(message) + "\n")
                proc.stdin.flush()
                _until(proc.stdout.readline, lambda line: line.get("type") == "result")
            proc.stdin.close()
            proc.wait(timeout=120)
        finally:
            timer.cancel()
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        if proc.returncode != 0:
            raise SystemExit(f"{argv[0]} failed ({proc.returncode}): "
                             f"{proc.stderr.read()[-2000:] if proc.stderr else ''}")
        return _figures(api)


def _until(readline: Callable[[], str], done: Callable[[dict[str, Any]], bool]) -> None:
    while line := readline():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and done(event):
            if event.get("is_error"):
                raise SystemExit(f"turn failed: {line}")
            return
    raise SystemExit("the agent stopped before its turn's result")


# -- report -----------------------------------------------------------------------------


def measure(argv: list[str], extra: dict[str, str] | None = None) -> dict[str, Any]:
    short, long = two_turns(argv, extra or {}), long_session(argv, extra or {})
    return {"first": short.first,
            "two_turns": {"bytes": short.total, "main_bytes": short.main_bytes,
                          "requests": len(short.requests), "main": short.main},
            "long": {"bytes": long.total, "main_bytes": long.main_bytes,
                     "requests": len(long.requests), "main": long.main}}


def report(results: dict[str, dict[str, Any]]) -> None:
    names = list(results)
    print(f"{'':34}" + "".join(f"{n:>16}" for n in names)
          + ("       ratio" if len(names) == 2 else ""))

    def row(label: str, get: Callable[[dict[str, Any]], int], count: str = "") -> None:
        values = [get(results[n]) for n in names]
        cells = "".join(f"{v:>16,}" for v in values)
        ratio = f"{values[0] / values[1]:>12.3f}" if len(values) == 2 and values[1] else ""
        print(f"{label:34}{cells}{ratio}{count}")

    for part in ("total", "system", "tools", "messages"):
        row(f"first request: {part}" if part != "total" else "first request (bytes)",
            lambda r, p=part: r["first"][p])
    for key, label in (("two_turns", "2-turn session"), ("long", f"{LONG_TURNS}-turn session")):
        row(f"{label} (bytes, all requests)", lambda r, k=key: r[k]["bytes"])
        row("  of them the main conversation's", lambda r, k=key: r[k]["main_bytes"])
        row("  requests (all)", lambda r, k=key: r[k]["requests"])
        row("  requests (main conversation)", lambda r, k=key: r[k]["main"])


def main() -> None:
    parser = argparse.ArgumentParser(description="Bytes sent to the Messages API per session.")
    parser.add_argument("--claude", metavar="BIN", help="Claude Code's executable, to compare")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--cc-env", action="append", default=[], metavar="NAME=VALUE",
                        help="set this in cc's environment (e.g. CC_DISABLE_MEMORY_EXTRACTION=1)")
    args = parser.parse_args()
    extra = dict(item.split("=", 1) for item in args.cc_env)
    results = {"cc": measure(CC, extra)}
    if args.claude:
        results["Claude Code"] = measure([args.claude])
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        report(results)


if __name__ == "__main__":
    main()
