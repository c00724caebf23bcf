"""The tool protocol: what every tool is, and what it returns.

A tool is a pydantic input model plus a class with a `name`, read-only and
concurrency-safe flags, and `async call(input, ctx) -> ToolResult`. Tools never
check permissions and never print: the executor does the first, the UI the second.
"""

from __future__ import annotations

import asyncio
import copy
import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError

from cc.errors import ToolUnavailable

if TYPE_CHECKING:
    from cc.tasks.store import TaskStore
    from cc.tools.agent_tasks import AgentTasks
    from cc.tools.services import AgentServices
    from cc.tools.shell import BackgroundTasks, ShellSession
    from cc.tools.shell.confinement import Confinement
    from cc.tools.structured_output import AnswerCheck


class ToolInput(BaseModel):
    """Base of every tool's input model: unknown keys are refused, like the real schemas."""

    model_config = ConfigDict(extra="forbid")


@dataclass
class ToolResult:
    """What a tool call produced.

    `content` is what the model sees: a string, or a list of API content blocks
    (text/image dicts). `data` is the structured record Claude Code writes as
    `toolUseResult` / `tool_use_result`. `summary` is the short line a UI shows.
    `extra_blocks` (API text blocks) go beside the tool_result, in the same user
    message after every tool_result of it: what a skill hands the model. `answer` is
    for the agent's loop, not the model: a StructuredOutput call's check of the final
    answer it was given.
    """

    content: str | list[dict[str, Any]]
    is_error: bool = False
    data: Any = None
    summary: str | None = None
    extra_blocks: list[dict[str, Any]] = field(default_factory=list)
    answer: AnswerCheck | None = None

    @classmethod
    def error(cls, message: str, data: Any = None) -> ToolResult:
        """A failure the model should read as a tool error (Claude Code's wrapping)."""
        return cls(f"<tool_use_error>{message}</tool_use_error>", is_error=True, data=data)


@dataclass
class FileReadRecord:
    """What the conversation last read of a file (Edit/Write check it later)."""

    mtime_ns: int
    offset: int | None = None
    limit: int | None = None


class EngineRef:
    """Late binding to the agent a tool runs in: made before the engine, bound to its
    services once the engine exists. The one way a tool reaches its agent."""

    def __init__(self, services: AgentServices | None = None) -> None:
        self._services = services

    def bind(self, services: AgentServices) -> None:
        self._services = services

    @property
    def bound(self) -> bool:
        return self._services is not None

    def get(self) -> AgentServices:
        if self._services is None:
            raise ToolUnavailable("this tool needs its agent, and none is bound yet")
        return self._services


@dataclass
class ToolContext:
    """What a tool may use while it runs. Built by the engine, one per conversation."""

    cwd: Path
    read_files: dict[str, FileReadRecord] = field(default_factory=dict)
    progress: Callable[[str], None] | None = None
    abort: asyncio.Event = field(default_factory=asyncio.Event)
    #: The conversation's shell state and background commands. The engine creates both
    #: up front and closes them at the end; a context without them has no Bash.
    shell: ShellSession | None = None
    tasks: BackgroundTasks | None = None
    #: The agent these tools run in, as services (None: a bare context, as in unit tests).
    engine_ref: EngineRef | None = None
    #: The conversation's background agents (the Agent tool starts them, TaskStop stops).
    agent_tasks: AgentTasks | None = None
    #: Where the running call's own events go (the executor sets it on each call's copy):
    #: a sub-agent's events travel up to the parent's stream this way.
    emit: Callable[[Any], None] | None = None
    #: The id of the call being run (the executor sets it on each call's copy).
    tool_use_id: str | None = None
    #: Where a tool saves output too long to return whole: the session's
    #: `<config>/projects/<encoded-cwd>/<session-id>/tool-results/` when the engine has a
    #: transcript (None otherwise: the tool then uses a temp folder of the session).
    results_dir: Callable[[], Path | None] | None = None
    #: Whether a deny rule forbids reading this absolute path: tools that search a folder
    #: (Grep, Glob) leave such files out of what they return. None: nothing is denied.
    read_denied: Callable[[str], bool] | None = None
    #: The Bash sandbox (None: settings leave it off, and every command runs as is).
    sandbox: Confinement | None = None
    #: The project's memory folder (None: memory is off). Writes into it are checked
    #: for secrets and made whole (cc.memory.auto_memory).
    memory_dir: Path | None = None
    #: The task list TaskCreate/TaskGet/TaskList/TaskUpdate work on (None: no such tools).
    task_list: TaskStore | None = None
    #: The TodoWrite checklist of this conversation, kept in memory only.
    todos: list[dict[str, str]] = field(default_factory=list)

    def shell_session(self) -> ShellSession:
        if self.shell is None:
            raise ToolUnavailable("no shell session in this context")
        return self.shell

    def background_tasks(self) -> BackgroundTasks:
        if self.tasks is None:
            raise ToolUnavailable("no background tasks in this context")
        return self.tasks

    def services(self) -> AgentServices:
        """What this tool may ask of its agent (`cc.tools.services`)."""
        if self.engine_ref is None:
            raise ToolUnavailable("this tool needs its agent, and the context has none")
        return self.engine_ref.get()

    def resolve(self, path: str) -> Path:
        """An absolute path for `path`, relative ones taken from the working folder."""
        p = Path(path).expanduser()
        return p if p.is_absolute() else self.cwd / p


class Tool:
    """A tool, as the loop sees it: a `name`, an `input_schema()`, `validate(raw)` and
    `call`. Pydantic tools set `input_model` and get the schema and validation from it;
    a tool built at run time (an MCP tool, an agent) may set `name` per instance and
    override `input_schema` and `validate`."""

    name: str
    input_model: ClassVar[type[ToolInput]]
    aliases: ClassVar[tuple[str, ...]] = ()
    #: Name of the description file under cc/prompts/tools/ (default: `<name>.md`).
    description_file: ClassVar[str | None] = None
    #: Whether the definition follows from the code alone though a method making it is
    #: overridden (`cc.tools.definition_cache` keeps it between runs then).
    fixed_definition: ClassVar[bool] = False

    def is_read_only(self, inp: ToolInput) -> bool:
        return False

    def is_concurrency_safe(self, inp: ToolInput) -> bool:
        return self.is_read_only(inp)

    def writes(self, inp: ToolInput) -> tuple[str, ...]:
        """The files this call may change (as given, maybe relative), which the pipeline
        backs up before it runs; a shell command's are not known, and not tracked."""
        return ()

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        raise NotImplementedError

    def description(self) -> str:
        from cc.prompts import load_text

        return load_text(f"tools/{self.description_file or self.name + '.md'}").strip()

    def input_schema(self) -> dict[str, Any]:
        return input_schema_of(self.input_model)

    def validate(self, raw: dict[str, Any]) -> ToolInput | str:
        """The call's input, checked; or, as a string, what the model is told is wrong."""
        try:
            return self.input_model.model_validate(raw)
        except ValidationError as exc:
            return format_validation_error(self.name, exc)

    def api_definition(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description(),
            "input_schema": self.input_schema(),
        }


class ReadOnlyTool(Tool):
    """A tool that changes nothing: it runs without asking and alongside others."""

    def is_read_only(self, inp: ToolInput) -> bool:
        return True


def input_schema_of(model: type[BaseModel]) -> dict[str, Any]:
    """A JSON schema for the API: pydantic's, without its titles (made once per model:
    generating it is most of a tool definition's cost; each caller gets its own copy)."""
    return copy.deepcopy(_schema_of(model))


@functools.cache
def _schema_of(model: type[BaseModel]) -> dict[str, Any]:
    stripped: dict[str, Any] = _strip_titles(model.model_json_schema())
    return stripped


def _strip_titles(node: Any) -> Any:
    if isinstance(node, list):
        return [_strip_titles(v) for v in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "title" and isinstance(value, str):
            continue
        if key == "properties" and isinstance(value, dict):
            out[key] = {name: _strip_titles(sub) for name, sub in value.items()}
        else:
            out[key] = _strip_titles(value)
    return out


def optional_without_null(schema: dict[str, Any], *_: Any) -> None:
    """Show `X | None = None` fields as plain `X`, like Claude Code's schemas.

    Use as `model_config = ConfigDict(extra="forbid", json_schema_extra=optional_without_null)`:
    pydantic calls it with the model's schema, which it edits in place.
    """
    for prop in schema.get("properties", {}).values():
        options = prop.get("anyOf")
        if not isinstance(options, list):
            continue
        kept = [o for o in options if o != {"type": "null"}]
        if len(kept) == len(options):
            continue
        if len(kept) == 1 and isinstance(kept[0], dict):
            del prop["anyOf"]
            prop.update(kept[0])
        else:
            prop["anyOf"] = kept
        if "default" in prop and prop["default"] is None:
            del prop["default"]


def format_validation_error(tool_name: str, exc: ValidationError) -> str:
    """Pydantic's complaints, phrased for the model."""
    lines = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "input"
        if err["type"] == "missing":
            lines.append(f"The required parameter `{where}` is missing")
        elif err["type"] == "extra_forbidden":
            lines.append(f"An unexpected parameter `{where}` was provided")
        else:
            lines.append(f"The parameter `{where}` is invalid: {err['msg']}")
    issues = "issue" if len(lines) == 1 else "issues"
    return f"InputValidationError: {tool_name} failed due to the following {issues}:\n" + "\n".join(
        lines
    )
