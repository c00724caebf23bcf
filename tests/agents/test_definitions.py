"""Agent definitions: built-ins, agent files, --agents JSON, their order, and tool filtering."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cc.agents.definitions import (
    NEVER_FOR_SUBAGENTS,
    AgentCatalog,
    AgentDefinition,
    load_agents,
    parse_agents_json,
)
from cc.prompts import load_text

PARENT_TOOLS = ["Agent", "Bash", "Edit", "Glob", "Grep", "Read", "TaskOutput", "TaskStop", "Write",
                "AskUserQuestion", "NotebookEdit"]


class Dirs:
    def __init__(self, tmp_path: Path) -> None:
        self.cwd = tmp_path / "project"
        self.config = tmp_path / "config"
        self.cwd.mkdir()
        self.config.mkdir()

    def user(self, name: str, text: str) -> Path:
        return self._write(self.config / "agents" / name, text)

    def project(self, name: str, text: str) -> Path:
        return self._write(self.cwd / ".claude" / "agents" / name, text)

    def _write(self, path: Path, text: str) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def load(self, flag_json: str | None = None) -> AgentCatalog:
        return load_agents(self.cwd, self.config, flag_json)


@pytest.fixture
def dirs(tmp_path: Path) -> Dirs:
    return Dirs(tmp_path)


def agent_file(description: str = "Reviews diffs", body: str = "You review diffs.", **keys: str) -> str:
    lines = [f"description: {description}", *(f"{k}: {v}" for k, v in keys.items())]
    return "---\n" + "\n".join(lines) + "\n---\n" + body + "\n"


NOTE = load_text("agents/custom_note.md").strip()


# --- built-ins -------------------------------------------------------------------------


def test_builtins_without_any_files(dirs: Dirs) -> None:
    catalog = dirs.load()
    assert catalog.names() == ["Explore", "fork", "general-purpose", "Plan"]
    assert catalog.warnings == []
    general, explore, plan = (catalog.get(n) for n in ("general-purpose", "Explore", "Plan"))
    assert general is not None and explore is not None and plan is not None
    assert general.tools is None and general.disallowed_tools == () and not general.one_shot
    assert explore.one_shot and plan.one_shot
    assert {d.source for d in (general, explore, plan)} == {"built-in"}
    assert general.system_prompt == load_text("agents/general-purpose.md").strip()
    assert "must not change" in explore.system_prompt and "must not change" in plan.system_prompt


def test_builtin_prompts_are_short_and_ask_for_absolute_paths_and_a_report(dirs: Dirs) -> None:
    for definition in dirs.load().definitions.values():
        prompt = definition.system_prompt
        assert len(prompt.encode()) <= 2500, definition.agent_type
        assert "absolute paths" in prompt and "final message" in prompt


def test_read_only_builtins_lose_the_writing_tools_and_agent(dirs: Dirs) -> None:
    catalog = dirs.load()
    for name in ("Explore", "Plan"):
        definition = catalog.get(name)
        assert definition is not None
        assert definition.tool_names(PARENT_TOOLS) == ["Bash", "Glob", "Grep", "Read", "TaskOutput",
                                                       "TaskStop"]


def test_general_purpose_gets_everything_but_the_never_given_tools(dirs: Dirs) -> None:
    general = dirs.load().get("general-purpose")
    assert general is not None
    assert general.tool_names(PARENT_TOOLS) == ["Bash", "Edit", "Glob", "Grep", "Read",
                                                "TaskOutput", "TaskStop", "Write", "NotebookEdit"]
    assert general.tool_names([*NEVER_FOR_SUBAGENTS, "Read"]) == ["Read"]


# --- tool filtering --------------------------------------------------------------------


def test_an_allow_list_keeps_its_order_and_only_what_the_parent_has() -> None:
    d = AgentDefinition("r", "d", "p", tools=("Read", "Bash", "WebFetch", "Agent"))
    assert d.tool_names(PARENT_TOOLS) == ["Read", "Bash"]


def test_disallowed_tools_come_off_the_allow_list_too() -> None:
    d = AgentDefinition("r", "d", "p", tools=("Read", "Bash"), disallowed_tools=("Bash",))
    assert d.tool_names(PARENT_TOOLS) == ["Read"]
    assert AgentDefinition("r", "d", "p", tools=()).tool_names(PARENT_TOOLS) == []


# --- agent files -----------------------------------------------------------------------


def test_a_project_file_with_every_key(dirs: Dirs) -> None:
    path = dirs.project("rev.md", agent_file(
        name="reviewer", tools="Read, Grep", disallowedTools="Bash", model="haiku", maxTurns="5",
        permissionMode="plan", color="purple", unknownKey="ignored",
    ))
    d = dirs.load().get("reviewer")
    assert d == AgentDefinition(
        agent_type="reviewer", description="Reviews diffs",
        system_prompt=f"You review diffs.\n\n{NOTE}", tools=("Read", "Grep"),
        disallowed_tools=("Bash",), model="haiku", max_turns=5, permission_mode="plan",
        source="project", path=path,
    )
    assert d.model_for("claude-opus-5-5") == "claude-haiku-5-5"


def test_name_defaults_to_the_stem_and_lists_may_be_yaml_lists(dirs: Dirs) -> None:
    dirs.user("helper.md", "---\ndescription: Helps\ntools:\n  - Read\n  - Bash\n"
                           "disallowedTools: [Bash]\nmodel: inherit\n---\nBody")
    d = dirs.load().get("helper")
    assert d is not None and d.source == "user"
    assert d.tools == ("Read", "Bash") and d.disallowed_tools == ("Bash",)
    assert d.model is None and d.model_for("claude-sonnet-5") == "claude-sonnet-5"
    assert d.max_turns is None and d.permission_mode is None and not d.one_shot


def test_a_description_with_a_colon_is_accepted(dirs: Dirs) -> None:
    dirs.project("t.md", agent_file(description="Use when: the tests fail"))
    d = dirs.load().get("t")
    assert d is not None and d.description == "Use when: the tests fail"


def test_later_sources_override_earlier_ones(dirs: Dirs) -> None:
    dirs.user("shared.md", agent_file("user version"))
    dirs.user("mine.md", agent_file("only the user's"))
    dirs.project("shared.md", agent_file("project version"))
    dirs.project("Explore.md", agent_file("a project Explore", tools="Read"))
    flag = json.dumps({"mine": {"description": "from the flag", "prompt": "Flag prompt."}})
    catalog = dirs.load(flag)
    assert catalog.names() == ["Explore", "fork", "general-purpose", "mine", "Plan", "shared"]
    assert [(n, catalog.definitions[n].source, catalog.definitions[n].description)
            for n in ("shared", "mine", "Explore")] == [
        ("shared", "project", "project version"),
        ("mine", "flag", "from the flag"),
        ("Explore", "project", "a project Explore"),
    ]
    explore = catalog.get("Explore")
    assert explore is not None and not explore.one_shot and explore.tools == ("Read",)
    assert [(d.agent_type, d.source) for d in catalog.shadowed] == [
        ("Explore", "built-in"), ("shared", "user"), ("mine", "user")]
    assert catalog.warnings == []


def test_the_home_folder_as_project_is_loaded_once(tmp_path: Path) -> None:
    config = tmp_path / ".claude"
    (config / "agents").mkdir(parents=True)
    (config / "agents" / "a.md").write_text(agent_file())
    catalog = load_agents(tmp_path, config)
    assert catalog.definitions["a"].source == "user" and catalog.warnings == []


@pytest.mark.parametrize("text, problem", [
    ("---\ndescription: x\ntools: [Read, Bash\n---\nbody", "frontmatter is not valid YAML"),
    ("---\nname: x\n---\nbody", "description is missing"),
    ("no frontmatter at all", "no frontmatter"),
    (agent_file(maxTurns="many"), "maxTurns must be a whole number of at least 1, not 'many'"),
    (agent_file(maxTurns="0"), "maxTurns must be a whole number"),
    (agent_file(permissionMode="yolo"), "permissionMode must be one of default, acceptEdits"),
    (agent_file(model="[1]"), "model must be"),
    (agent_file(tools="{a: 1}"), "tools must be a comma-separated string or a list"),
    ("---\nname: [a]\ndescription: d\n---\n", "name must be a non-empty string"),
])
def test_a_malformed_file_is_skipped_with_a_warning_naming_it(
    dirs: Dirs, text: str, problem: str
) -> None:
    bad = dirs.project("bad.md", text)
    dirs.project("good.md", agent_file())
    catalog = dirs.load()
    assert "bad" not in catalog.definitions and "x" not in catalog.definitions
    assert "good" in catalog.definitions
    assert len(catalog.warnings) == 1
    assert catalog.warnings[0].startswith(f"Skipped agent file {bad}: ")
    assert problem in catalog.warnings[0]


def test_two_files_of_one_folder_naming_the_same_agent(dirs: Dirs) -> None:
    first = dirs.project("a.md", agent_file("first", name="same"))
    second = dirs.project("b.md", agent_file("second", name="same"))
    catalog = dirs.load()
    assert catalog.definitions["same"].description == "first"
    assert catalog.warnings == [
        f"Skipped agent file {second}: agent 'same' is already defined by {first}"]


def test_only_md_files_directly_in_the_folder(dirs: Dirs) -> None:
    dirs.project("notes.txt", agent_file())
    dirs.project("sub/deep.md", agent_file())
    assert dirs.load().names() == ["Explore", "fork", "general-purpose", "Plan"]


# --- --agents --------------------------------------------------------------------------


def test_flag_agents_with_every_field(dirs: Dirs) -> None:
    flag = json.dumps({"jsonagent": {
        "description": "From JSON", "prompt": "Be brief.", "tools": ["Read"],
        "disallowedTools": "Bash, Write", "model": "sonnet", "maxTurns": 3,
        "permissionMode": "acceptEdits", "color": "red",
    }})
    d = dirs.load(flag).get("jsonagent")
    assert d == AgentDefinition(
        agent_type="jsonagent", description="From JSON", system_prompt=f"Be brief.\n\n{NOTE}",
        tools=("Read",), disallowed_tools=("Bash", "Write"), model="sonnet", max_turns=3,
        permission_mode="acceptEdits", source="flag",
    )
    assert d.tool_names(PARENT_TOOLS) == ["Read"]
    assert d.model_for("claude-opus-5-5") == "claude-sonnet-5-5"


def test_a_bad_flag_entry_is_a_warning_and_the_rest_load(dirs: Dirs) -> None:
    flag = json.dumps({
        "ok": {"description": "fine", "prompt": "p"},
        "noprompt": {"description": "d"},
        "turns": {"description": "d", "prompt": "p", "maxTurns": True},
        "notobject": "just a string",
    })
    catalog = dirs.load(flag)
    assert "ok" in catalog.definitions
    assert not {"noprompt", "turns", "notobject"} & set(catalog.definitions)
    assert catalog.warnings == [
        "Skipped agent 'noprompt' from --agents: prompt must be a non-empty string",
        "Skipped agent 'turns' from --agents: maxTurns must be a whole number of at least 1, "
        "not True",
        "Skipped agent 'notobject' from --agents: its definition must be a JSON object",
    ]


def test_unparsable_flag_json_is_a_warning_when_loading(dirs: Dirs) -> None:
    catalog = dirs.load("{not json")
    assert catalog.names() == ["Explore", "fork", "general-purpose", "Plan"]
    assert len(catalog.warnings) == 1 and "--agents is not valid JSON" in catalog.warnings[0]


@pytest.mark.parametrize("text, problem", [("{oops", "not valid JSON"), ("[1]", "JSON object")])
def test_parse_agents_json_refuses_what_is_not_an_object(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        parse_agents_json(text)


# --- what the model is told ------------------------------------------------------------


def test_listing_lines(dirs: Dirs) -> None:
    dirs.project("reviewer.md", agent_file("Reviews  diffs\n  carefully", tools="Read, Bash, WebFetch"))
    dirs.project("careful.md", agent_file("No shell", disallowedTools="Bash"))
    listing = dirs.load().listing(PARENT_TOOLS)
    assert [line.split(":")[0] for line in listing] == [
        "- careful", "- Explore", "- fork", "- general-purpose", "- Plan", "- reviewer"]
    assert listing[0] == "- careful: No shell (Tools: All tools except Bash)"
    assert listing[2].endswith("(Tools: The same as yours)")
    assert listing[3].endswith("(Tools: All tools)")
    assert listing[1].endswith("(Tools: All tools except Agent, Edit, Write, NotebookEdit)")
    assert listing[5] == "- reviewer: Reviews diffs carefully (Tools: Read, Bash)"


def test_not_found_names_every_type(dirs: Dirs) -> None:
    dirs.user("claude.md", agent_file())
    assert dirs.load().not_found("nope") == (
        "Agent type 'nope' not found. Available agents: claude, Explore, fork, general-purpose, Plan")
