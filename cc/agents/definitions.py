"""The sub-agent types the Agent tool can launch, and where they come from.

    built-in  <  user (<config>/agents/*.md)  <  project (<cwd>/.claude/agents/*.md)  <  flag (--agents)

A later source replaces an earlier type of the same name. An agent file is YAML
frontmatter and a body, the body being the agent's system prompt:

    ---
    name: reviewer                 (default: the file's stem)
    description: Reviews a diff    (required; the line in the agent listing)
    tools: Read, Grep              (or a YAML list; default: every tool the parent has)
    disallowedTools: Bash
    model: haiku                   (inherit, an alias or a model id; default: inherit)
    maxTurns: 5
    permissionMode: plan
    ---
    You review diffs ...

`--agents` takes the same fields as JSON, `{"name": {"description", "prompt", ...}}`.
Other keys (`color`, ...) are accepted and ignored. A file or entry that does not make
a definition is skipped with a warning; loading never raises.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cc.config.env import simple_mode
from cc.errors import AgentDefinitionError

__all__ = [
    "NEVER_FOR_SUBAGENTS", "SOURCES", "AgentCatalog", "AgentDefinition", "AgentDefinitionError",
    "builtin_agents", "load_agents", "parse_agent_file", "parse_agents_json",
]

#: Tools no sub-agent gets, whatever its definition says.
NEVER_FOR_SUBAGENTS = (
    "Agent", "Task", "AskUserQuestion", "TeamCreate", "TeamDelete", "SendMessage",
    "ExitPlanMode", "EnterPlanMode",
)
#: What the read-only built-ins (Explore, Plan) go without.
READ_ONLY_DISALLOWED = ("Agent", "Edit", "Write", "NotebookEdit")
#: Where definitions come from, weakest first.
SOURCES = ("built-in", "user", "project", "flag")


@dataclass(frozen=True)
class AgentDefinition:
    agent_type: str
    description: str
    system_prompt: str
    #: The exact allow-list; None: every tool the parent has.
    tools: tuple[str, ...] | None = None
    disallowed_tools: tuple[str, ...] = ()
    #: None: the parent's model; else an alias ("haiku", "sonnet", "opus") or a model id.
    model: str | None = None
    max_turns: int | None = None
    permission_mode: str | None = None
    source: str = "built-in"
    #: Its result has no agentId/usage trailer (built-in Explore and Plan).
    one_shot: bool = False
    path: Path | None = None
    #: A fork: it starts from its parent's whole context (system, tools, messages) and
    #: the Agent call's prompt is its directive; it may not fork again.
    inherits_context: bool = False

    def tool_names(self, available: Sequence[str]) -> list[str]:
        """The tools of `available` (the parent's) this agent gets: the allow-list's, in
        its order, or all of them in theirs; less the disallowed and never-given ones."""
        removed = {*self.disallowed_tools, *NEVER_FOR_SUBAGENTS}
        offered = set(available)
        chosen = available if self.tools is None else dict.fromkeys(self.tools)
        return [name for name in chosen if name in offered and name not in removed]

    def tools_text(self, available: Sequence[str]) -> str:
        """"All tools", "All tools except Edit, Write" or "Read, Grep", for the listing."""
        if self.inherits_context:
            return "The same as yours"
        if self.tools is None:
            if not self.disallowed_tools:
                return "All tools"
            return "All tools except " + ", ".join(self.disallowed_tools)
        return ", ".join(self.tool_names(available)) or "None"

    def model_for(self, parent_model: str) -> str:
        """The model id this agent runs on, given its parent's."""
        if self.model is None:
            return parent_model
        from cc.models.catalog import resolve_model

        return resolve_model(self.model)


@dataclass
class AgentCatalog:
    definitions: dict[str, AgentDefinition]
    warnings: list[str] = field(default_factory=list)
    #: Definitions a later source replaced, in the order they were replaced.
    shadowed: list[AgentDefinition] = field(default_factory=list)

    def add(self, definition: AgentDefinition) -> None:
        """Add `definition`, replacing one of the same name."""
        earlier = self.definitions.get(definition.agent_type)
        if earlier is not None:
            self.shadowed.append(earlier)
        self.definitions[definition.agent_type] = definition

    def get(self, agent_type: str) -> AgentDefinition | None:
        return self.definitions.get(agent_type)

    def names(self) -> list[str]:
        """Every agent type, alphabetically (case aside)."""
        return sorted(self.definitions, key=lambda name: (name.lower(), name))

    def listing(self, available_tools: Sequence[str]) -> list[str]:
        """One line per type, as the model is told them."""
        return [
            f"- {d.agent_type}: {d.description} (Tools: {d.tools_text(available_tools)})"
            for d in (self.definitions[name] for name in self.names())
        ]

    def not_found(self, agent_type: str) -> str:
        return f"Agent type '{agent_type}' not found. Available agents: {', '.join(self.names())}"


# --- built-in types --------------------------------------------------------------------

_BUILTIN_DESCRIPTIONS = {
    "general-purpose": (
        "Researches, searches code and carries out multi-step tasks: for searches that may "
        "take several tries, or any self-contained work."
    ),
    "Explore": (
        "Fast, read-only: finds files and symbols, explains how code works. Say how thorough: "
        '"quick", "medium" or "very thorough".'
    ),
    "Plan": (
        "Read-only architect: returns an implementation plan (approach, ordered steps, files, "
        "trade-offs)."
    ),
    "fork": (
        "A copy of you, with this conversation and your tools, working on the prompt's "
        "directive: to split work you would do in sequence. It cannot fork."
    ),
}


def builtin_agents() -> list[AgentDefinition]:
    from cc.prompts import load_text

    def builtin(agent_type: str, **kwargs: Any) -> AgentDefinition:
        prompt = load_text(f"agents/{agent_type}.md").strip()
        return AgentDefinition(agent_type, _BUILTIN_DESCRIPTIONS[agent_type], prompt, **kwargs)

    return [
        builtin("general-purpose"),
        builtin("Explore", disallowed_tools=READ_ONLY_DISALLOWED, one_shot=True),
        builtin("Plan", disallowed_tools=READ_ONLY_DISALLOWED, one_shot=True),
        builtin("fork", inherits_context=True),  # its "prompt" frames the directive
    ]


# --- loading ---------------------------------------------------------------------------


def agent_dirs(cwd: Path, config_dir: Path) -> list[tuple[str, Path]]:
    return [("user", config_dir / "agents"), ("project", cwd / ".claude" / "agents")]


def load_agents(cwd: Path, config_dir: Path, flag_json: str | None = None) -> AgentCatalog:
    """The built-ins, then the user's and the project's files, then `--agents`."""
    catalog = AgentCatalog({d.agent_type: d for d in builtin_agents()})
    seen: set[Path] = set()
    for source, folder in () if simple_mode() else agent_dirs(cwd, config_dir):
        if not folder.is_dir() or folder.resolve() in seen:  # ~ as the project: one folder
            continue
        seen.add(folder.resolve())
        found: dict[str, AgentDefinition] = {}
        for path in sorted(p for p in folder.glob("*.md") if p.is_file()):
            try:
                definition = parse_agent_file(path, source)
            except AgentDefinitionError as exc:
                catalog.warnings.append(f"Skipped agent file {path}: {exc}")
                continue
            earlier = found.get(definition.agent_type)
            if earlier is not None:
                catalog.warnings.append(
                    f"Skipped agent file {path}: agent '{definition.agent_type}' is already "
                    f"defined by {earlier.path}"
                )
                continue
            found[definition.agent_type] = definition
        for definition in found.values():
            catalog.add(definition)
    if flag_json is not None:
        try:
            entries = parse_agents_json(flag_json)
        except AgentDefinitionError as exc:
            catalog.warnings.append(str(exc))
            entries = {}
        catalog.warnings += add_agents(catalog, entries, "--agents")
    return catalog


def add_agents(catalog: AgentCatalog, entries: dict[str, Any], source: str) -> list[str]:
    """Agents given as JSON (`--agents`, an SDK host's initialize) added to `catalog`;
    a warning for each entry skipped."""
    warnings = []
    for name, entry in entries.items():
        try:
            definition = _flag_definition(name, entry)
        except AgentDefinitionError as exc:
            warnings.append(f"Skipped agent '{name}' from {source}: {exc}")
            continue
        catalog.add(definition)
    return warnings


def parse_agent_file(path: Path, source: str) -> AgentDefinition:
    """The definition in an agent file. Raises AgentDefinitionError."""
    from cc.config.frontmatter import FrontmatterError, parse_frontmatter

    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise AgentDefinitionError(f"cannot read it: {exc.strerror or exc}") from None
    try:
        meta, body = parse_frontmatter(text)
    except FrontmatterError as exc:
        raise AgentDefinitionError(str(exc)) from None
    if not meta:
        raise AgentDefinitionError("no frontmatter (a '---' block with at least a description)")
    name = meta.get("name", path.stem)
    if not isinstance(name, str) or not name.strip():
        raise AgentDefinitionError("name must be a non-empty string")
    return _definition(name.strip(), meta, body, source=source, path=path)


def parse_agents_json(text: str) -> dict[str, Any]:
    """The `--agents` object, name → entry. Raises AgentDefinitionError."""
    from cc.errors import UsageError

    try:
        return agents_object(text)
    except UsageError as exc:
        raise AgentDefinitionError(str(exc)) from None


def _flag_definition(name: str, entry: Any) -> AgentDefinition:
    if not name.strip():
        raise AgentDefinitionError("the name is empty")
    if not isinstance(entry, dict):
        raise AgentDefinitionError("its definition must be a JSON object")
    prompt = entry.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        raise AgentDefinitionError("prompt must be a non-empty string")
    return _definition(name.strip(), entry, prompt, source="flag", path=None)


def _definition(
    name: str, fields: Mapping[str, Any], prompt: str, *, source: str, path: Path | None
) -> AgentDefinition:
    from cc.prompts import load_text

    description = fields.get("description")
    if not isinstance(description, str) or not description.strip():
        raise AgentDefinitionError("description is missing (it says when to use the agent)")
    note = load_text("agents/custom_note.md").strip()
    body = prompt.strip()
    return AgentDefinition(
        agent_type=name,
        description=" ".join(description.split()),
        system_prompt=f"{body}\n\n{note}" if body else note,
        tools=_tools(fields.get("tools"), "tools", allow_all=True),
        disallowed_tools=_tools(fields.get("disallowedTools"), "disallowedTools") or (),
        model=_model(fields.get("model")),
        max_turns=_max_turns(fields.get("maxTurns")),
        permission_mode=_permission_mode(fields.get("permissionMode")),
        source=source,
        path=path,
    )


def _tools(value: Any, key: str, *, allow_all: bool = False) -> tuple[str, ...] | None:
    """A comma-separated string or a list of names; None when not given (or "*")."""
    from cc.config.frontmatter import split_list

    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, (str, list)) or any(not isinstance(v, str) for v in value):
        raise AgentDefinitionError(f"{key} must be a comma-separated string or a list of names")
    names = tuple(dict.fromkeys(split_list(value)))
    return None if allow_all and names == ("*",) else names


def _model(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise AgentDefinitionError("model must be inherit, an alias (haiku, sonnet, opus) or an id")
    return None if value.strip().lower() == "inherit" else value.strip()


def _max_turns(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise AgentDefinitionError(f"maxTurns must be a whole number of at least 1, not {value!r}")
    return value


def _permission_mode(value: Any) -> str | None:
    from cc.permissions.verdict import MODES

    if value is None:
        return None
    if value not in MODES:
        raise AgentDefinitionError(f"permissionMode must be one of {', '.join(MODES)}, not {value!r}")
    return str(value)


def agents_object(text: str) -> dict[str, Any]:
    """The `--agents` JSON object, name → entry. Raises UsageError."""
    import json

    from cc.errors import UsageError

    try:
        value = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"--agents is not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise UsageError(
            "--agents must be a JSON object of agent names to definitions, "
            'e.g. {"reviewer": {"description": "...", "prompt": "..."}}'
        )
    return value
