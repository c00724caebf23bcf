"""The package graph has no cycles, counting every import (top-level, TYPE_CHECKING and
function-level), and the loop stands without the UI or the control plane."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import cc

ROOT = Path(cc.__file__).parent


def _package(module: str) -> str:
    """`cc.core.pipeline.executor` -> `core`; a top-level module (`cc.errors`) is its own."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _imports(path: Path) -> set[str]:
    """Every cc module `path` imports: at the top, under TYPE_CHECKING, or inside a
    function. A layer is a layer for the type checker and for what runs late too."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("cc."):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("cc.")}
    return found


def package_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for path in ROOT.rglob("*.py"):
        module = ".".join(("cc", *path.relative_to(ROOT).with_suffix("").parts))
        source = _package(module)
        for target in map(_package, _imports(path)):
            if target != source:
                graph[source].add(target)
    return graph


def test_no_package_imports_one_that_imports_it_back() -> None:
    graph = package_graph()

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            node = todo.pop()
            if node == goal:
                return True
            if node not in seen:
                seen.add(node)
                todo += graph.get(node, ())
        return False

    cycles = sorted(f"{a} -> {b}" for a in graph for b in graph[a] if reaches(b, a))
    assert cycles == []


def test_the_loop_imports_nothing_of_the_ui_or_the_control_plane() -> None:
    code = ("import sys, cc.core.query_loop, cc.core.query_engine; "
            "print(' '.join(m for m in sys.modules if m.startswith(('cc.ui', 'cc.main', "
            "'cc.app', 'cc.commands'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_layers_stand_in_their_order() -> None:
    """Each package imports only those below it (a package missing here may import any
    leaf: models, config, prompts, the top-level modules)."""
    order = ["memory", "tasks", "tools", "permissions", "sandbox", "hooks", "core",
             "mcp", "compact", "session", "agents", "team", "input", "app", "commands", "ui"]
    graph = package_graph()
    upward = sorted(f"{a} -> {b}" for a in order for b in graph.get(a, ())
                    if b in order and order.index(b) > order.index(a))
    assert upward == []


def test_only_the_engine_writes_its_conversation() -> None:
    """`<engine>.messages` is changed by the engine alone (its loop, and its named
    operations: append, compact, replace_messages, clear): nowhere else is it assigned,
    sliced into or appended to."""
    mutators = {"append", "extend", "insert", "clear", "pop", "remove", "sort", "reverse"}
    owners = {ROOT / "core" / "query_engine.py", ROOT / "core" / "query_loop.py"}
    found = []
    for path in ROOT.rglob("*.py"):
        if path in owners:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[ast.expr] = []
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr in mutators):
                targets = [node.func.value]
            for target in targets:
                if isinstance(target, ast.Subscript):
                    target = target.value
                if isinstance(target, ast.Attribute) and target.attr == "messages" and not (
                        isinstance(target.value, ast.Name) and target.value.id == "self"):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
