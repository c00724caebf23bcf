"""The tool catalog: every built-in tool as an entry, eager or deferred, built lazily.

    CatalogEntry(name, load, deferred, aliases, hint)
        load()     imports the tool's module and builds it (on first use only)
        deferred   announced by name, its definition sent once ToolSearch loads it
        hint       the words ToolSearch matches besides the name (no import needed)

The deferred set follows Claude Code 2.1.328 (the task tools, SendMessage, the team
tools; NotebookEdit, WebFetch and WebSearch as they land); a tool of ours it does not
have (TodoWrite, TaskOutput) is deferred too. Tools built at run time (Agent,
SendMessage with its router, MCP tools and the MCP resource tools) join through
`entry_of`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cc.tools.base import Tool
    from cc.tools.skill import SkillSource

#: Tools sent by name only until loaded (when tool search is on).
DEFERRED = frozenset({
    "TaskOutput", "TaskStop", "TaskCreate", "TaskGet", "TaskList", "TaskUpdate", "TodoWrite",
    "SendMessage", "TeamCreate", "TeamDelete", "NotebookEdit", "WebFetch", "WebSearch",
    "ListMcpResourcesTool", "ReadMcpResourceTool", "ReadMcpResourceDirTool",
})


@dataclass(frozen=True)
class CatalogEntry:
    name: str
    load: Callable[[], Tool]
    deferred: bool = False
    aliases: tuple[str, ...] = ()
    #: Words a ToolSearch keyword query matches besides the name.
    hint: str = ""
    #: One line saying what it does, for the reminder that names a deferred tool.
    summary: str = ""
    #: The module `load` imports ("" when the tool is built already), and its class there.
    module: str = ""
    cls: str = ""


#: What each deferred built-in tool does, in a line: the reminder that names the
#: deferred tools says it, without importing their modules.
SUMMARIES = {
    "TaskOutput": "output of a background shell command",
    "SendMessage": "message another agent, by agentId or name",
    "TaskStop": "stop a background agent or shell command",
    "TaskCreate": "add a task to the task list",
    "TaskGet": "show one task",
    "TaskList": "list the tasks and their status",
    "TaskUpdate": "change a task's status, owner, details or dependencies",
    "TodoWrite": "write the checklist of the current work",
    "NotebookEdit": "replace, insert or delete a Jupyter notebook cell",
    "WebFetch": "fetch a web page and answer a question about it",
    "WebSearch": "search the web",
    "ListMcpResourcesTool": "list the MCP servers' resources",
    "ReadMcpResourceTool": "read an MCP server's resource by uri",
    "ReadMcpResourceDirTool": "list an MCP resource folder (not available)",
}


def entry_of(tool: Tool, hint: str = "") -> CatalogEntry:
    """An entry for a tool already built (its summary: its description's first line)."""
    first = next((line.strip() for line in tool.description().splitlines() if line.strip()),
                 "")
    return CatalogEntry(tool.name, lambda: tool, tool.name in DEFERRED or
                        tool.name.startswith("mcp__"), tuple(tool.aliases), hint,
                        SUMMARIES.get(tool.name) or first)


def _lazy(name: str, module: str, cls: str, hint: str, aliases: tuple[str, ...] = ()
          ) -> CatalogEntry:
    def load() -> Tool:
        return getattr(importlib.import_module(module), cls)()

    return CatalogEntry(name, load, name in DEFERRED, aliases, hint, SUMMARIES.get(name, ""),
                        module, cls)


def prepare_sent_tools() -> None:
    """Import the modules of the built-in tools and build their input models' schemas
    (pydantic builds them on first use: some 0.3 s of CPU the first request would
    otherwise spend; an endpoint without tool search gets the deferred tools in full too),
    for a warm-up at idle. Thread-safe: imports, and schemas made once per class."""
    from cc.tools.base import input_schema_of

    for entry in (*builtin_entries(), *interactive_entries()):
        if entry.module:
            tool = getattr(importlib.import_module(entry.module), entry.cls, None)
            model = getattr(tool, "input_model", None)
            if model is not None:
                input_schema_of(model)
    importlib.import_module("cc.tools.skill")


def builtin_entries(skills: SkillSource | None = None) -> list[CatalogEntry]:
    """The built-in tools, in the order their definitions go out; Skill with a source
    of `skills`."""
    skill = [skill_entry(skills)] if skills is not None else []
    return [
        _lazy("TaskOutput", "cc.tools.task_output", "TaskOutputTool",
              "background shell command output read poll", ("BashOutput",)),
        _lazy("Bash", "cc.tools.bash", "BashTool", "shell command run terminal"),
        _lazy("Glob", "cc.tools.glob", "GlobTool", "find files by name pattern"),
        _lazy("Grep", "cc.tools.grep", "GrepTool", "search file contents regex ripgrep"),
        _lazy("Read", "cc.tools.read", "ReadTool", "read a file"),
        _lazy("Edit", "cc.tools.edit", "EditTool", "edit replace text in a file"),
        _lazy("Write", "cc.tools.write", "WriteTool", "write create a file"),
        _lazy("NotebookEdit", "cc.tools.notebook_edit", "NotebookEditTool",
              "jupyter notebook ipynb cell edit insert delete"),
        _lazy("WebFetch", "cc.tools.web.web_fetch", "WebFetchTool",
              "fetch web page url http download read website documentation"),
        _lazy("TodoWrite", "cc.tools.todo_write", "TodoWriteTool",
              "todo checklist plan progress track"),
        _lazy("WebSearch", "cc.tools.web.web_search", "WebSearchTool",
              "search the web internet online current news results"),
        _lazy("TaskStop", "cc.tools.task_stop", "TaskStopTool",
              "stop kill a background agent or shell command", ("KillShell", "KillBash")),
        _lazy("TaskCreate", "cc.tools.task_create", "TaskCreateTool",
              "task list todo create add work item"),
        _lazy("TaskGet", "cc.tools.task_get", "TaskGetTool", "task list get show details"),
        _lazy("TaskList", "cc.tools.task_list", "TaskListTool", "task list todo all status"),
        _lazy("TaskUpdate", "cc.tools.task_update", "TaskUpdateTool",
              "task list update status owner complete block"),
        *skill,
    ]


def skill_entry(source: SkillSource) -> CatalogEntry:
    """Skill: sent in full (not deferred), its module imported on first use."""

    def load() -> Tool:
        from cc.tools.skill import SkillTool

        return SkillTool(source)

    return CatalogEntry("Skill", load, False, (), "skill run start instructions workflow")


#: Tools that need a person to answer: offered in the REPL only (not in print mode, never
#: to sub-agents), as in Claude Code 2.1.328.
INTERACTIVE_ONLY = ("AskUserQuestion", "EnterPlanMode", "ExitPlanMode")


def interactive_entries() -> list[CatalogEntry]:
    """The tools of `INTERACTIVE_ONLY`."""
    return [
        _lazy("AskUserQuestion", "cc.tools.ask_user", "AskUserQuestionTool",
              "ask the user a question choose options clarify preference"),
        _lazy("EnterPlanMode", "cc.tools.plan_mode", "EnterPlanModeTool",
              "plan mode explore design before editing"),
        _lazy("ExitPlanMode", "cc.tools.plan_mode", "ExitPlanModeTool",
              "plan mode approve plan leave exit"),
    ]


def unavailable_message(name: str) -> str:
    """What calling a tool this session does not offer says (Claude Code's wording)."""
    message = f"Error: No such tool available: {name}"
    if name in INTERACTIVE_ONLY:
        message += f". {name} is disabled for this session, in subagents as well as here."
    return message


def tool_search_entry() -> CatalogEntry:
    return _lazy("ToolSearch", "cc.tools.tool_search", "ToolSearchTool",
                 "find load deferred tools")
