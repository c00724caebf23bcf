"""What a team's mailbox costs: a send rewrites the inbox whole (lock, read, append,
write to a temporary file, fsync, rename), so its time grows with the letters already
there; a receive marks the unread ones read the same way.

For inboxes that already hold 0, 100 and 1,000 letters (of 300 bytes), it times single
sends and receives, then 5 writers (3 threads and 2 processes) sending 50 letters each
into one inbox at once, and checks nothing was lost.

    python bench/mailbox.py [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cc.team.mailbox import Mailbox  # noqa: E402

TEXT = "x" * 300
WRITERS, EACH = 5, 50

#: A writer process: sends EACH letters into the inbox named by argv[1].
CHILD = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
from cc.team.mailbox import Mailbox
box = Mailbox(__import__("pathlib").Path(sys.argv[1]))
for i in range({EACH}):
    box.send(sys.argv[2], f"{{sys.argv[2]}}-{{i}}")
"""


def timed(step, times: int) -> float:
    """The median of `times` runs of `step`, in milliseconds."""
    samples = []
    for _ in range(times):
        started = time.perf_counter()
        step()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def single(folder: Path, already: int) -> dict[str, float]:
    box = Mailbox(folder / f"inbox-{already}.json")
    for _ in range(already):
        box.send("filler", TEXT)
    box.receive()  # what is there is read: the receive below finds one new letter
    send_ms = timed(lambda: box.send("bench", TEXT), 20)
    box.receive()

    def one_round() -> None:
        box.send("bench", TEXT)
        box.receive()

    round_ms = timed(one_round, 20)
    return {"letters": already, "send_ms": round(send_ms, 2),
            "send_and_receive_ms": round(round_ms, 2),
            "file_kb": round(box.path.stat().st_size / 1024, 1)}


def contended(folder: Path) -> dict[str, float | int | bool]:
    box = Mailbox(folder / "contended.json")
    started = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-c", CHILD, str(box.path), f"proc{p}"])
             for p in range(2)]

    def thread_writer(name: str) -> None:
        for i in range(EACH):
            box.send(name, f"{name}-{i}")

    threads = [threading.Thread(target=thread_writer, args=(f"thread{t}",)) for t in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for p in procs:
        p.wait()
    seconds = time.perf_counter() - started
    texts = {letter.text for letter in box.all()}
    expected = {f"{w}-{i}" for w in [*(f"thread{t}" for t in range(3)),
                                     *(f"proc{p}" for p in range(2))] for i in range(EACH)}
    return {"writers": WRITERS, "letters": WRITERS * EACH, "seconds": round(seconds, 2),
            "sends_per_s": round(WRITERS * EACH / seconds), "lost": len(expected - texts),
            "all_there": texts == expected}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rows = [single(folder, n) for n in (0, 100, 1000)]
        crowd = contended(folder)
    if args.json:
        print(json.dumps({"single": rows, "contended": crowd}, indent=2))
        return
    print(f"{'letters before':>15} {'send ms':>9} {'send+receive ms':>16} {'file KB':>8}")
    for r in rows:
        print(f"{r['letters']:>15} {r['send_ms']:>9} {r['send_and_receive_ms']:>16} "
              f"{r['file_kb']:>8}")
    print(f"{crowd['writers']} writers (3 threads, 2 processes) x {EACH} letters: "
          f"{crowd['seconds']} s, {crowd['sends_per_s']} sends/s, lost {crowd['lost']}")


if __name__ == "__main__":
    main()
