"""Dataclasses made from cached code behave as the stdlib's, across runs (real processes,
a real cache file in tmp_path)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Defines dataclasses of every kind cc uses and some it does not, exercises their methods
# and prints what it saw, with how many method texts the run compiled.
SCRIPT = r'''
import dataclasses, json, sys
from pathlib import Path
from typing import ClassVar
from cc import dataclass_cache
if sys.argv[1] != "-":
    dataclass_cache.install(Path(sys.argv[1]))
from dataclasses import InitVar, dataclass, field

@dataclass
class Plain:
    a: int
    b: str = "x"
    c: list[int] = field(default_factory=list)
    k: ClassVar[int] = 3

@dataclass(frozen=True, order=True)
class Frozen:
    a: int
    b: tuple[int, ...] = ()

@dataclass(slots=True, kw_only=True)
class Slotted:
    a: int
    b: int = 2

@dataclass(unsafe_hash=True)
class Hashed:
    a: int
    seen: list[str] = field(default_factory=list, compare=False, repr=False)

@dataclass
class Post:
    a: int
    scale: InitVar[int] = 2
    b: int = field(init=False)
    def __post_init__(self, scale):
        self.b = self.a * scale

@dataclass
class Child(Plain):
    d: float = 1.5

out = {}
p = Plain(1)
out["plain"] = [repr(p), p == Plain(1), p == Plain(2), Plain(1, "y", [1]).c, Plain.k]
f = Frozen(1, (2,))
try:
    f.a = 5
    out["frozen_set"] = "allowed"
except dataclasses.FrozenInstanceError:
    out["frozen_set"] = "refused"
out["frozen"] = [repr(f), hash(f) == hash(Frozen(1, (2,))), Frozen(1) < Frozen(2), sorted([Frozen(3), Frozen(1)])[0].a]
s = Slotted(a=1)
out["slotted"] = [repr(s), hasattr(s, "__dict__"), Slotted.__slots__]
try:
    Slotted(1)
    out["kw_only"] = "positional accepted"
except TypeError:
    out["kw_only"] = "positional refused"
out["hashed"] = [hash(Hashed(1, ["a"])) == hash(Hashed(1, ["b"])), Hashed(1, ["a"]) == Hashed(1, ["b"]), repr(Hashed(4))]
out["post"] = [repr(Post(3)), Post(3, 10).b]
out["child"] = [repr(Child(1)), [x.name for x in dataclasses.fields(Child)]]
out["init_annotations"] = sorted(Plain.__init__.__annotations__)
out["compiled"] = dataclass_cache.compiled()
dataclass_cache.save(asked=True)
print(json.dumps(out))
'''


def _run(cache: str, tmp_path: Path) -> dict:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.run([sys.executable, "-c", SCRIPT, cache], capture_output=True,
                          text=True, cwd=tmp_path, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _behaviour(result: dict) -> dict:
    return {k: v for k, v in result.items() if k != "compiled"}


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the cache mirrors Python 3.11's dataclasses")
def test_a_second_run_compiles_nothing_and_behaves_as_the_stdlib(tmp_path: Path) -> None:
    cache = tmp_path / "cache" / "dataclasses.marshal"
    stdlib = _run("-", tmp_path)
    first = _run(str(cache), tmp_path)
    assert cache.is_file()
    second = _run(str(cache), tmp_path)
    assert first["compiled"] > 10
    assert second["compiled"] == 0
    assert _behaviour(first) == _behaviour(second) == _behaviour(stdlib)
    assert stdlib["frozen_set"] == "refused" and stdlib["kw_only"] == "positional refused"


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the cache mirrors Python 3.11's dataclasses")
def test_a_damaged_cache_is_compiled_again(tmp_path: Path) -> None:
    cache = tmp_path / "dataclasses.marshal"
    stdlib = _run("-", tmp_path)
    for damage in (b"", b"not marshal at all", b"\xe3\x00\x00", __import__("marshal").dumps([1, 2])):
        cache.write_bytes(damage)
        result = _run(str(cache), tmp_path)
        assert result["compiled"] > 10
        assert _behaviour(result) == _behaviour(stdlib)
    assert _run(str(cache), tmp_path)["compiled"] == 0  # rewritten whole by the last run


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the cache mirrors Python 3.11's dataclasses")
def test_a_place_that_cannot_be_written_leaves_the_stdlib_at_work(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache's folder would be")
    result = _run(str(blocker / "dataclasses.marshal"), tmp_path)
    assert _behaviour(result) == _behaviour(_run("-", tmp_path))
    assert result["compiled"] > 10
    assert blocker.read_text().startswith("a file")
