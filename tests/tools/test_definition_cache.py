"""The built-in tools' definitions kept between runs (cc/tools/definition_cache.py): real
tools, real files in tmp_path, and real processes for what a run imports."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from cc.agents.tool import AgentTool
from cc.tools.definition_cache import DefinitionCache, is_fixed
from cc.tools.read import ReadTool
from cc.tools.skill import SkillTool
from cc.tools.todo_write import TodoWriteTool


def _sources(tmp_path: Path) -> tuple[tuple[Path, str], ...]:
    code = tmp_path / "tools"
    code.mkdir(exist_ok=True)
    (code / "read.py").write_text("# version 1\n")
    return ((code, ".py"),)


def test_a_definition_kept_is_read_back_by_the_next_run(tmp_path: Path) -> None:
    path, sources = tmp_path / "cache" / "defs.json", _sources(tmp_path)
    tool = ReadTool()
    first = DefinitionCache(path, sources)
    assert first.cached("Read") is None
    first.keep(tool, tool.api_definition())
    first.save(asked=True)
    later = DefinitionCache(path, sources)
    assert later.cached("Read") == tool.api_definition()
    copy = later.cached("Read")
    assert copy is not None
    copy["input_schema"]["properties"].clear()  # a caller's change stays its own
    assert later.cached("Read") == tool.api_definition()


def test_a_changed_source_file_voids_what_was_kept(tmp_path: Path) -> None:
    path, sources = tmp_path / "defs.json", _sources(tmp_path)
    tool = ReadTool()
    cache = DefinitionCache(path, sources)
    cache.keep(tool, tool.api_definition())
    cache.save(asked=True)
    (sources[0][0] / "read.py").write_text("# version 2, longer\n")
    assert DefinitionCache(path, sources).cached("Read") is None
    (sources[0][0] / "new_tool.py").write_text("")
    assert DefinitionCache(path, sources).cached("Read") is None


def test_a_damaged_file_is_ignored(tmp_path: Path) -> None:
    path, sources = tmp_path / "defs.json", _sources(tmp_path)
    for damage in ("", "{", "[1, 2]", json.dumps({"fingerprint": 3, "tools": []}),
                   json.dumps({"fingerprint": DefinitionCache(path, sources).fingerprint(),
                               "tools": {"Read": {"name": "Bash"}, "Glob": 7}})):
        path.write_text(damage)
        cache = DefinitionCache(path, sources)
        assert cache.cached("Read") is None and cache.cached("Glob") is None


def test_nothing_is_written_unless_something_new_was_kept_or_where_bytecode_is_not(
        tmp_path: Path, monkeypatch) -> None:
    path, sources = tmp_path / "defs.json", _sources(tmp_path)
    cache = DefinitionCache(path, sources)
    cache.save(asked=True)
    assert not path.exists()
    tool = ReadTool()
    cache.keep(tool, tool.api_definition())
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    cache.save()
    assert not path.exists()
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    cache.save()
    assert path.exists()


def test_only_definitions_fixed_by_the_code_are_kept(tmp_path: Path) -> None:
    assert is_fixed(ReadTool()) and is_fixed(TodoWriteTool())
    assert not is_fixed(AgentTool.__new__(AgentTool))  # its list of agents changes
    assert not is_fixed(SkillTool.__new__(SkillTool))  # its list of skills changes
    path, sources = tmp_path / "defs.json", _sources(tmp_path)
    cache = DefinitionCache(path, sources)
    skill = SkillTool.__new__(SkillTool)
    cache.keep(skill, {"name": "Skill", "description": "today's skills", "input_schema": {}})
    cache.save(asked=True)
    assert not path.exists() and cache.cached("Skill") is None


# A run's registry, with the process's cache at argv[1]: prints the definitions sent and
# which tool modules were imported to make them.
RUN = r'''
import json, sys
from pathlib import Path
from cc.tools import definition_cache
definition_cache.SHARED = definition_cache.DefinitionCache(Path(sys.argv[1]))
from cc.tools.catalog import builtin_entries
from cc.tools.registry import ToolRegistry
registry = ToolRegistry(builtin_entries())
definitions = registry.api_definitions()
modules = {e.module for e in builtin_entries()}
imported = sorted(m for m in sys.modules if m in modules)
read = registry.get("Read")
definition_cache.SHARED.save(asked=True)
print(json.dumps({"definitions": definitions, "imported": imported,
                  "then": sorted(m for m in sys.modules if m in modules),
                  "read_matches": read.api_definition() == registry.definition("Read")}))
'''


def _run(path: Path) -> dict:
    proc = subprocess.run([sys.executable, "-c", RUN, str(path)], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_a_later_run_sends_the_same_definitions_without_importing_the_tools(tmp_path: Path) -> None:
    path = tmp_path / "defs.json"
    first = _run(path)
    assert "cc.tools.bash" in first["imported"] and "cc.tools.grep" in first["imported"]
    second = _run(path)
    assert second["definitions"] == first["definitions"]
    assert [d["name"] for d in second["definitions"]] == [d["name"] for d in first["definitions"]]
    assert second["imported"] == []
    assert second["then"] == ["cc.tools.read"]  # built once it is called
    assert second["read_matches"] and first["read_matches"]
