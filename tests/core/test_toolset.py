"""The conversation's toolset: deferral, what is loaded, definitions in Claude Code's
order, and when tool search is on."""

from __future__ import annotations

from cc.core.toolset import PLACEHOLDER, Toolset, announced, tool_search_enabled
from cc.models.content_blocks import ToolResultBlock
from cc.models.messages import CompactBoundaryMessage, Message, UserMessage
from cc.tools.catalog import builtin_entries, tool_search_entry
from cc.tools.registry import ToolRegistry


def toolset(messages: list[Message], search: bool = True) -> Toolset:
    registry = ToolRegistry([*builtin_entries(), tool_search_entry()])
    return Toolset(registry, lambda: messages, search=search)


def loaded_by(*names: str) -> UserMessage:
    return UserMessage([ToolResultBlock("toolu_1", [
        {"type": "tool_reference", "tool_name": n} for n in names])])


def test_definitions_sorted_with_the_placeholder_before_the_last() -> None:
    messages: list[Message] = []
    tools = toolset(messages)
    first = [d["name"] for d in tools.definitions()]
    assert first == ["Bash", "Edit", "Glob", "Grep", "Read", "ToolSearch",
                     "DeferredToolPlaceholder", "Write"]
    messages.append(loaded_by("TaskCreate", "Read", "Nope"))  # only deferred names count
    assert tools.loaded() == ["TaskCreate"]
    second = tools.definitions()
    assert [d["name"] for d in second][-2:] == ["DeferredToolPlaceholder", "Write"]
    assert [d for d in second if d["name"] == "TaskCreate"][0]["defer_loading"] is True
    assert PLACEHOLDER in second and "TaskCreate" not in tools.deferred()


def test_a_forks_loads_stay_in_the_fork() -> None:
    parent_messages: list[Message] = [UserMessage.text("hi")]
    parent = toolset(parent_messages)
    child_messages = list(parent_messages)  # a fork starts from a copy
    child = Toolset(parent.registry, lambda: child_messages, search=True)
    child_messages.append(loaded_by("TodoWrite"))
    assert child.loaded() == ["TodoWrite"] and parent.loaded() == []


def test_what_a_compaction_carried_over_stays_loaded() -> None:
    messages: list[Message] = [CompactBoundaryMessage("summary", loaded_tools=["TaskList"])]
    assert toolset(messages).loaded() == ["TaskList"]


def test_search_ranks_names_before_hints_and_load_skips_what_is_loaded() -> None:
    messages: list[Message] = [loaded_by("TaskList")]
    tools = toolset(messages)
    assert tools.search("task list", 3)[0] == "TaskList"
    assert tools.search("checklist", 5) == ["TodoWrite"]
    assert tools.search("zzz", 5) == []
    assert tools.load(["TaskList", "TaskGet", "TaskGet", "Read"]) == ["TaskGet"]


def test_keywords_find_notebook_edit() -> None:
    tools = toolset([])
    assert "NotebookEdit" in tools.deferred()
    assert tools.search("notebook jupyter", 5)[0] == "NotebookEdit"
    assert tools.search("ipynb", 5) == ["NotebookEdit"]


def test_the_announcement_names_what_waits_once() -> None:
    messages: list[Message] = []
    tools = toolset(messages)
    [text] = tools.announcement()
    assert "TaskCreate: add a task to the task list" in text.splitlines()
    assert not any(line.startswith("Read") for line in text.splitlines()[1:])
    messages.append(UserMessage.text(text, is_meta=True))
    assert tools.announcement() == [] and "TodoWrite" in announced(messages)


def test_an_announcement_in_the_earlier_wording_still_counts() -> None:
    earlier = ('<system-reminder>\nDeferred tools (their definitions are not loaded yet; load '
               'them with ToolSearch, "select:Name[,Name…]" or keywords, before calling them):\n'
               "WebFetch: fetch a web page\nTodoWrite: write the checklist\n</system-reminder>")
    assert announced([UserMessage.text(earlier, is_meta=True)]) == {"WebFetch", "TodoWrite"}


def test_off_every_definition_goes_in_full() -> None:
    tools = toolset([], search=False)
    assert not tools.defers and tools.announcement() == []
    assert not any(d.get("defer_loading") for d in tools.definitions())
    assert "TaskCreate" in tools.offered()


def test_on_for_anthropic_off_elsewhere_unless_told() -> None:
    assert tool_search_enabled({}, None)
    assert tool_search_enabled({}, "https://api.anthropic.com")
    assert not tool_search_enabled({}, "http://127.0.0.1:8080")
    assert tool_search_enabled({"ENABLE_TOOL_SEARCH": "true"}, "http://127.0.0.1:8080")
    assert not tool_search_enabled({"ENABLE_TOOL_SEARCH": "false"}, None)
