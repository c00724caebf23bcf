"""The tools, and what every tool is. Tools never check permissions and never print.

    base.py           Tool, ToolInput, ToolResult, ToolContext, EngineRef
    services.py       what a tool may ask of its agent (channel, mode, side_query,
                      toolset, agents, task_hooks, end_turn): small protocols
    catalog.py        every built-in tool as an entry, eager or deferred, built lazily
    registry.py       a conversation's tools by name and alias (entries load on use)
    tool_search.py    ToolSearch: load deferred tools (select: or keywords)
    read.py read_text.py          Read
    edit.py write.py file_io.py diff.py   Edit, Write (encodings, read-before-edit, patches)
    glob.py grep.py ripgrep.py search_fallback.py   Glob, Grep (ripgrep, or Python)
    bash.py shell/    Bash: the shell session, runs, background commands, confinement
    task_output.py task_stop.py   background commands' output; stopping agents and commands
    task_create.py task_get.py task_list.py task_update.py   the task list (cc.tasks)
    todo_write.py     TodoWrite, the single agent's checklist
    web/              WebFetch (a page, answered by a side request), WebSearch (server search)
    agent_tasks.py    the conversation's agents table (background, continued)
"""
