"""Settings files: which load, which win, how lists and env merge, and bad files skipped."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cc.config.settings import Settings, load_settings, settings_paths


class Layout:
    """A project folder and a config folder with settings files written into them."""

    def __init__(self, root: Path) -> None:
        self.cwd = root / "project"
        self.config = root / "config"
        self.cwd.mkdir()
        self.config.mkdir()
        self.paths = settings_paths(self.cwd, self.config)

    def write(self, source: str, data: Any) -> Path:
        return self.write_text(source, json.dumps(data, indent=2))

    def write_text(self, source: str, text: str) -> Path:
        path = self.paths[source]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def load(self, **kw: Any) -> Settings:
        return load_settings(self.cwd, self.config, **kw)


@pytest.fixture
def layout(tmp_path: Path) -> Layout:
    return Layout(tmp_path)


def test_paths_are_claude_codes() -> None:
    paths = settings_paths(Path("/p"), Path("/c"))
    assert paths == {"user": Path("/c/settings.json"), "project": Path("/p/.claude/settings.json"),
                     "local": Path("/p/.claude/settings.local.json")}


def test_nothing_on_disk_is_empty_settings(layout: Layout) -> None:
    s = layout.load()
    assert s.merged == {} and s.files == [] and s.warnings == []
    assert s.get("model", "default") == "default"


# --- precedence --------------------------------------------------------------------------


def test_local_over_project_over_user(layout: Layout) -> None:
    layout.write("user", {"model": "user-model", "a": "user", "b": "user", "c": "user"})
    layout.write("project", {"model": "project-model", "b": "project", "c": "project"})
    layout.write("local", {"model": "local-model", "c": "local"})
    s = layout.load()
    assert s.get("model") == "local-model"
    assert (s.get("a"), s.get("b"), s.get("c")) == ("user", "project", "local")
    assert [f.source for f in s.files] == ["user", "project", "local"]
    assert [f.path for f in s.files] == [layout.paths["user"], layout.paths["project"], layout.paths["local"]]


def test_each_level_wins_over_the_ones_below_when_alone(layout: Layout) -> None:
    layout.write("user", {"model": "u"})
    assert layout.load().get("model") == "u"
    layout.write("project", {"model": "p"})
    assert layout.load().get("model") == "p"
    layout.write("local", {"model": "l"})
    assert layout.load().get("model") == "l"


def test_flag_settings_file_over_all(layout: Layout, tmp_path: Path) -> None:
    layout.write("user", {"model": "u", "keep": 1})
    layout.write("local", {"model": "l"})
    flag = tmp_path / "extra.json"
    flag.write_text(json.dumps({"model": "from-flag"}))
    s = layout.load(flag_settings=str(flag))
    assert s.get("model") == "from-flag" and s.get("keep") == 1
    assert s.files[-1].source == "flagSettings" and s.files[-1].path == flag
    assert s.warnings == []


def test_flag_settings_inline_json_over_all(layout: Layout) -> None:
    layout.write("local", {"model": "l", "permissions": {"allow": ["Read"]}})
    s = layout.load(flag_settings='  {"model": "inline", "permissions": {"allow": ["Bash(ls)"]}}')
    assert s.get("model") == "inline"
    assert s.get("permissions") == {"allow": ["Read", "Bash(ls)"]}
    assert s.files[-1].source == "flagSettings" and s.files[-1].path is None


def test_flag_settings_file_missing_warns(layout: Layout, tmp_path: Path) -> None:
    layout.write("user", {"model": "u"})
    missing = tmp_path / "nope.json"
    s = layout.load(flag_settings=str(missing))
    assert s.get("model") == "u"
    assert len(s.warnings) == 1 and str(missing) in s.warnings[0] and "not found" in s.warnings[0]


def test_flag_settings_inline_malformed_warns_naming_the_flag(layout: Layout) -> None:
    layout.write("user", {"model": "u"})
    s = layout.load(flag_settings='{"model": "x",\n "oops"}')
    assert s.get("model") == "u"
    assert len(s.warnings) == 1
    assert "--settings" in s.warnings[0] and "line 2" in s.warnings[0]


# --- merging -----------------------------------------------------------------------------


def test_permission_lists_concatenate_and_deduplicate(layout: Layout) -> None:
    layout.write("user", {"permissions": {"allow": ["Read", "Bash(git status)"], "deny": ["WebFetch"],
                                          "defaultMode": "default"}})
    layout.write("project", {"permissions": {"allow": ["Bash(git status)", "Edit"], "ask": ["Bash(rm:*)"]}})
    layout.write("local", {"permissions": {"allow": ["Read", "Bash(npm test)"], "deny": ["WebFetch", "Bash(curl:*)"],
                                           "defaultMode": "acceptEdits"}})
    perms = layout.load().get("permissions")
    assert perms == {
        "allow": ["Read", "Bash(git status)", "Edit", "Bash(npm test)"],
        "deny": ["WebFetch", "Bash(curl:*)"],
        "ask": ["Bash(rm:*)"],
        "defaultMode": "acceptEdits",  # a scalar: later wins
    }


def test_permission_list_duplicates_within_one_file_are_removed(layout: Layout) -> None:
    layout.write("user", {"permissions": {"allow": ["Read", "Read", "Edit", "Read"]}})
    assert layout.load().get("permissions") == {"allow": ["Read", "Edit"]}


def test_merging_does_not_alias_file_data(layout: Layout) -> None:
    layout.write("user", {"permissions": {"allow": ["Read"]}, "env": {"A": "1"}})
    layout.write("project", {"permissions": {"allow": ["Edit"]}, "env": {"B": "2"}})
    s = layout.load()
    assert s.files[0].data == {"permissions": {"allow": ["Read"]}, "env": {"A": "1"}}
    assert s.files[1].data == {"permissions": {"allow": ["Edit"]}, "env": {"B": "2"}}


def test_env_merged_key_by_key_later_wins(layout: Layout) -> None:
    layout.write("user", {"env": {"A": "user", "B": "user"}})
    layout.write("project", {"env": {"B": "project", "C": "project"}})
    layout.write("local", {"env": {"C": "local"}})
    s = layout.load(flag_settings='{"env": {"D": "flag"}}')
    assert s.get("env") == {"A": "user", "B": "project", "C": "local", "D": "flag"}


def test_other_keys_are_replaced_wholesale(layout: Layout) -> None:
    layout.write("user", {"statusLine": {"type": "command", "command": "a", "padding": 1}})
    layout.write("project", {"statusLine": {"type": "command", "command": "b"}})
    assert layout.load().get("statusLine") == {"type": "command", "command": "b"}


# --- bad files ---------------------------------------------------------------------------


def test_malformed_json_warns_with_file_and_line_and_others_still_load(layout: Layout) -> None:
    layout.write("user", {"model": "u", "env": {"A": "1"}})
    bad = layout.write_text("project", '{\n  "model": "p",\n  "env": {"B": "2"},\n  "x": tru\n}\n')
    layout.write("local", {"permissions": {"allow": ["Read"]}})
    s = layout.load()
    assert len(s.warnings) == 1
    warning = s.warnings[0]
    assert str(bad) in warning and "line 4" in warning
    assert [f.source for f in s.files] == ["user", "local"]
    assert s.get("model") == "u" and s.get("env") == {"A": "1"}  # nothing of the bad file leaked
    assert s.get("permissions") == {"allow": ["Read"]}


def test_trailing_comma_reports_its_line(layout: Layout) -> None:
    bad = layout.write_text("local", '{\n  "a": 1,\n  "b": 2,\n}')
    s = layout.load()
    assert len(s.warnings) == 1 and str(bad) in s.warnings[0] and "line 4" in s.warnings[0]
    assert s.merged == {}


@pytest.mark.parametrize("top", ['["Read", "Edit"]', '"just a string"', "42", "null"])
def test_top_level_not_an_object_warns_and_skips(layout: Layout, top: str) -> None:
    layout.write("user", {"model": "u"})
    bad = layout.write_text("project", top)
    s = layout.load()
    assert len(s.warnings) == 1 and str(bad) in s.warnings[0] and "object" in s.warnings[0]
    assert s.merged == {"model": "u"} and [f.source for f in s.files] == ["user"]


def test_empty_file_is_silently_ignored(layout: Layout) -> None:
    layout.write_text("project", "  \n")
    layout.write("local", {"model": "l"})
    s = layout.load()
    assert s.warnings == [] and s.merged == {"model": "l"}


def test_unreadable_settings_path_warns(layout: Layout) -> None:
    layout.paths["project"].mkdir(parents=True)  # a directory where the file should be
    layout.write("user", {"model": "u"})
    s = layout.load()
    assert len(s.warnings) == 1 and str(layout.paths["project"]) in s.warnings[0]
    assert s.get("model") == "u"


# --- sources -----------------------------------------------------------------------------


def test_sources_restrict_which_files_load(layout: Layout) -> None:
    layout.write("user", {"u": 1, "model": "u"})
    layout.write("project", {"p": 1, "model": "p"})
    layout.write("local", {"l": 1, "model": "l"})
    s = layout.load(sources=["user", "project"])
    assert s.merged == {"u": 1, "p": 1, "model": "p"}
    assert [f.source for f in s.files] == ["user", "project"]
    assert layout.load(sources=["local"]).merged == {"l": 1, "model": "l"}
    assert layout.load(sources=[]).merged == {}


def test_excluded_source_is_not_even_parsed(layout: Layout) -> None:
    layout.write_text("project", "{ not json")
    s = layout.load(sources=["user", "local"])
    assert s.warnings == []


def test_flag_settings_load_whatever_the_sources(layout: Layout) -> None:
    layout.write("user", {"model": "u"})
    s = layout.load(sources=[], flag_settings='{"model": "flag"}')
    assert s.merged == {"model": "flag"}
