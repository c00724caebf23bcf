"""How the conversation looks in a terminal: pure functions that print to a rich Console.

    ● Read(src/calc.py)                      tool_line + result_line, after the call
      ⎿  Read 12 lines
    ● Update(src/calc.py)
      ⎿  Updated src/calc.py with 1 addition and 1 removal
           2 -    return a - b                   diff (green +, red -, line numbers)
           2 +    return a + b
    ● Agent(Count the lines)                 a sub-agent's run, once it is over
      ⎿  Done (2 tool uses · 1,234 tokens · 3.1s)

Nothing here reads files, the clock or the environment: callers pass what is shown, so
golden tests can print to `Console(file=StringIO(), width=100, color_system=None)`.
This module imports rich; the REPL imports it after the prompt is up.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from cc.figures import cost_report

if TYPE_CHECKING:
    from cc.models.content_blocks import OpaqueBlock
    from cc.models.usage import UsageTotals
    from cc.permissions.ask import PermissionRequest
    from cc.tools.base import ToolResult

DOT = "●"
RESULT = "  ⎿  "
MAX_ARG_CHARS = 160
WRITE_PREVIEW_LINES = 10
#: Lines of a Bash command's output shown under its tool line; the rest is counted.
BASH_PREVIEW_LINES = 3
#: A longer output line is cut: the preview is a glance, not the whole output.
MAX_PREVIEW_LINE_CHARS = 400
#: Names shown for tools whose Claude Code display name differs from the API name.
DISPLAY_NAMES = {"Edit": "Update", "TodoWrite": "Update Todos", "WebFetch": "Fetch",
                 "WebSearch": "Web Search"}
#: How TodoWrite's list shows an item of each status.
TODO_MARKS = {"pending": "☐", "in_progress": "◼", "completed": "☒"}
_TOOL_ERROR = re.compile(r"</?tool_use_error>")


# --- tool calls ----------------------------------------------------------------------


def shown_path(path: str, cwd: Path) -> str:
    """`path` relative to `cwd` when it lies inside it."""
    p = Path(path)
    if p.is_absolute():
        try:
            return str(p.relative_to(cwd)) or "."
        except ValueError:
            return path
    return path


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def visible(text: str) -> str:
    """`text` with control characters (escape sequences, carriage returns) shown as ^X,
    so what a command would do is what the user reads, and no box is broken by it."""
    return _CONTROL.sub(lambda m: "^" + chr(ord(m.group()) ^ 0x40), text)


def _cut(text: str, limit: int | None = MAX_ARG_CHARS) -> str:
    text = " ".join(text.split()) if "\n" in text else text
    if limit is None or len(text) <= limit:
        return text
    return text[: limit - 1] + "…"


def tool_argument(
    name: str, tool_input: dict[str, Any], cwd: Path, limit: int | None = MAX_ARG_CHARS
) -> str:
    """The main argument, as Claude Code shows it between the parentheses (whole if no `limit`)."""
    inp = tool_input
    if name == "TodoWrite":
        return ""
    if name == "Bash":
        return _cut(str(inp.get("command", "")), limit)
    if name == "WebSearch" and isinstance(inp.get("query"), str):
        return _cut(f'"{inp["query"]}"', limit)
    if name == "SendMessage" and isinstance(inp.get("to"), str):
        return _cut(inp["to"], limit)
    if name in ("Grep", "Glob"):
        parts = [f'pattern: "{inp.get("pattern", "")}"']
        if inp.get("path"):
            parts.append(f'path: "{shown_path(str(inp["path"]), cwd)}"')
        return _cut(", ".join(parts), limit)
    for key in ("file_path", "notebook_path", "path"):
        if isinstance(inp.get(key), str):
            return shown_path(inp[key], cwd)
    if isinstance(inp.get("taskId"), str):
        return "#" + inp["taskId"].removeprefix("#")
    for key in ("url", "query", "task_id", "subject", "description", "prompt"):
        if isinstance(inp.get(key), str):
            return _cut(inp[key], limit)
    return _cut(json.dumps(inp, ensure_ascii=False), limit) if inp else ""


def fit(label: str, width: int) -> str:
    """`label` cut to `width` columns, keeping its closing parenthesis."""
    if len(label) <= width:
        return label
    tail = "…)" if label.endswith(")") else "…"
    return label[: max(1, width - len(tail))] + tail


def tool_label(
    name: str, tool_input: dict[str, Any], cwd: Path, limit: int | None = MAX_ARG_CHARS
) -> str:
    arg = tool_argument(name, tool_input, cwd, limit)
    shown = DISPLAY_NAMES.get(name, name)
    return f"{shown}({arg})" if arg else shown


def _content_text(result: ToolResult) -> str:
    content = result.content
    if not isinstance(content, str):
        content = " ".join(b.get("text", "") for b in content if isinstance(b, dict))
    return _TOOL_ERROR.sub("", content)


def error_line(result: ToolResult) -> str:
    """The first line of a failed call's error, tags removed."""
    lines = [ln.strip() for ln in _content_text(result).splitlines() if ln.strip()]
    return lines[0] if lines else (result.summary or "failed")


def agent_failure(result: ToolResult) -> str | None:
    """The line for a sub-agent run that failed: its summary under its status
    ("Failed (2 tool uses · 1,234 tokens · 3.1s)"); None for any other result."""
    data = result.data
    if not (result.is_error and result.summary and isinstance(data, dict) and "agentId" in data):
        return None
    status = str(data.get("status") or "failed").capitalize()
    _, paren, rest = result.summary.partition(" (")
    return f"{status} ({rest}" if paren else status


def _plural_lines(n: int) -> str:
    return f"{n} line" if n == 1 else f"{n} lines"


def render_bash_result(console: Console, result: ToolResult) -> None:
    """The command's first lines of output, then how many more there are.

        ⎿  PASS src/calc.test.js
           PASS src/util.test.js
           Tests: 12 passed
           … +3 lines

    A failure shows the same way in red, its first line after "Error: ".
    """
    body = _content_text(result).strip("\n")
    lines = body.split("\n") if body.strip() else ["(No output)"]
    shown = lines if len(lines) <= BASH_PREVIEW_LINES else lines[:BASH_PREVIEW_LINES]
    style = "red" if result.is_error else ""
    grid = Table.grid()
    grid.add_column(width=len(RESULT), no_wrap=True)
    grid.add_column(overflow="fold")
    for i, line in enumerate(shown):
        line = line.rstrip().expandtabs()
        if len(line) > MAX_PREVIEW_LINE_CHARS:
            line = line[: MAX_PREVIEW_LINE_CHARS - 1] + "…"
        text = Text.from_ansi(line, style=style)  # keeps colours, drops other escapes
        if i == 0 and result.is_error:
            text = Text("Error: ", style=style) + text
        grid.add_row(RESULT if i == 0 else "", text)
    if len(shown) < len(lines):
        grid.add_row("", Text(f"… +{_plural_lines(len(lines) - len(shown))}", style="dim"))
    console.print(grid)


def render_tool_use(
    console: Console, name: str, tool_input: dict[str, Any], cwd: Path, *, failed: bool = False
) -> None:
    line = Text()
    line.append(DOT + " ", style="red" if failed else "green")
    line.append(fit(tool_label(name, tool_input, cwd), console.width - 2), style="bold")
    console.print(line, overflow="fold")


def result_line(console: Console, text: str, style: str = "") -> None:
    """`  ⎿  text`, wrapped lines indented under the text."""
    grid = Table.grid()
    grid.add_column(width=len(RESULT), no_wrap=True)
    grid.add_column(overflow="fold")
    grid.add_row(RESULT, Text(text, style=style))
    console.print(grid)


def render_tool_result(
    console: Console, name: str, tool_input: dict[str, Any], result: ToolResult, cwd: Path
) -> None:
    if name == "Bash" and not (isinstance(result.data, dict) and
                               result.data.get("backgroundTaskId")):
        render_bash_result(console, result)
        return
    if result.is_error:
        failed_run = agent_failure(result)
        result_line(console, failed_run or "Error: " + error_line(result), "red")
        return
    data = result.data if isinstance(result.data, dict) else {}
    if name == "TodoWrite" and isinstance(data.get("newTodos"), list):
        render_todos(console, data["newTodos"])
        return
    result_line(console, result.summary or "Done")
    hunks = data.get("structuredPatch")
    if name == "NotebookEdit" and isinstance(data.get("new_source"), str):
        hunks = _cell_patch(data)  # the cell's old source against its new one
    if name in ("Edit", "Write", "MultiEdit", "NotebookEdit") and hunks:
        render_diff(console, hunks)
    elif name == "Write" and data.get("type") == "create" and isinstance(data.get("content"), str):
        render_new_file(console, data["content"])


def _cell_patch(data: dict[str, Any]) -> list[dict[str, Any]]:
    """A notebook cell's change as hunks: replaced (old → new), inserted (all new) or
    deleted (all old)."""
    from cc.tools.diff import structured_patch

    old, new = data.get("old_source") or "", data["new_source"]
    if data.get("edit_mode") == "delete":
        old, new = old or new, ""
    return [dict(h) for h in structured_patch(str(old), str(new))]


def render_tool(
    console: Console, name: str, tool_input: dict[str, Any], result: ToolResult, cwd: Path
) -> None:
    """A finished tool call: its line, then its result."""
    render_tool_use(console, name, tool_input, cwd, failed=result.is_error)
    render_tool_result(console, name, tool_input, result, cwd)


def render_todos(console: Console, todos: Sequence[Any]) -> None:
    """The checklist TodoWrite wrote, one item a line under the call:

        ⎿  ☒ Read the failing test
           ◼ Fix the off-by-one in range()
           ☐ Run the whole suite
    """
    grid = Table.grid()
    grid.add_column(width=len(RESULT), no_wrap=True)
    grid.add_column(overflow="fold")
    items = [t for t in todos if isinstance(t, dict)]
    for i, todo in enumerate(items):
        status = str(todo.get("status", "pending"))
        style = {"in_progress": "bold", "completed": "dim strike"}.get(status, "")
        mark = TODO_MARKS.get(status, TODO_MARKS["pending"])
        content = visible(str(todo.get("content", "")))
        grid.add_row(RESULT if i == 0 else "", Text(f"{mark} {content}", style=style))
    if not items:
        grid.add_row(RESULT, Text("(no todos)", style="dim"))
    console.print(grid)


# --- diffs ---------------------------------------------------------------------------


def diff_text(hunks: Sequence[dict[str, Any]], indent: int = 6) -> Table:
    """Hunks as numbered lines: context plain, removals red, additions green.

    A long line wraps beside its number, not under it."""
    width = 1
    for h in hunks:
        ends = (h["oldStart"] + h["oldLines"], h["newStart"] + h["newLines"])
        width = max(width, *(len(str(n)) for n in ends))
    grid = Table.grid()
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    pad = " " * indent
    for i, hunk in enumerate(hunks):
        if i:
            grid.add_row(pad + "…", "", style="dim")
        old, new = hunk["oldStart"], hunk["newStart"]
        for line in hunk["lines"]:
            sign, body = line[:1], Text(visible(line[1:]).expandtabs().rstrip())
            if sign == "\\":
                continue
            if sign == "-":
                grid.add_row(f"{pad}{old:>{width}} - ", body, style="red")
                old += 1
            elif sign == "+":
                grid.add_row(f"{pad}{new:>{width}} + ", body, style="green")
                new += 1
            else:
                grid.add_row(f"{pad}{new:>{width}}   ", body)
                old += 1
                new += 1
    return grid


def render_diff(console: Console, hunks: Sequence[dict[str, Any]], indent: int = 6) -> None:
    console.print(diff_text(hunks, indent))


def new_file_hunk(content: str) -> tuple[dict[str, Any], int]:
    """A created file's first lines as one hunk of additions, and how many lines are left out."""
    lines = content.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    shown = lines[:WRITE_PREVIEW_LINES]
    hunk = {"oldStart": 1, "oldLines": 0, "newStart": 1, "newLines": len(shown),
            "lines": ["+" + ln for ln in shown]}
    return hunk, len(lines) - len(shown)


def render_new_file(console: Console, content: str, indent: int = 6) -> None:
    hunk, more = new_file_hunk(content)
    render_diff(console, [hunk], indent)
    if more:
        console.print(Text(f"{' ' * indent}… +{more} lines", style="dim"))


# --- assistant text, notices, errors --------------------------------------------------


_markdown_class: Any = None


def _markdown_type() -> Any:
    """rich's Markdown, with code blocks on the terminal's own background and no padding."""
    global _markdown_class
    if _markdown_class is None:
        from rich.markdown import CodeBlock, Heading, Markdown
        from rich.syntax import Syntax

        class _Code(CodeBlock):
            def __rich_console__(self, console: Any, options: Any) -> Any:
                yield Syntax(str(self.text).rstrip(), self.lexer_name, theme=self.theme,
                             word_wrap=True, background_color="default")

        class _Heading(Heading):
            LEVEL_ALIGN = dict.fromkeys(Heading.LEVEL_ALIGN, "left")  # type: ignore[arg-type]

        class _Markdown(Markdown):
            elements = {**Markdown.elements, "fence": _Code, "code_block": _Code,
                        "heading_open": _Heading}

        _markdown_class = _Markdown
    return _markdown_class


def markdown(text: str) -> RenderableType:
    return _markdown_type()(text, code_theme="monokai", hyperlinks=False)  # type: ignore[no-any-return]


def render_markdown(console: Console, text: str, *, first: bool = True) -> None:
    """Assistant text as Markdown, after a "●" (or its indent, for a later part)."""
    from rich.segment import SegmentLines

    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=1, no_wrap=True)
    grid.add_column(ratio=1)
    grid.add_row(DOT if first else "", markdown(text.strip("\n")))
    lines = console.render_lines(grid, pad=False)
    blank = [not "".join(seg.text for seg in line).strip() for line in lines]
    first_line = blank.index(False) if False in blank else len(lines)
    last_line = len(blank) - blank[::-1].index(False) if False in blank else first_line
    console.print(SegmentLines(lines[first_line:last_line], new_lines=True), end="")


def render_user_prompt(console: Console, text: str) -> None:
    console.print(Text("> " + text.replace("\n", "\n  "), style="dim"), overflow="fold")


def render_error(console: Console, message: str) -> None:
    first = next((ln for ln in message.splitlines() if ln.strip()), message)
    result_line(console, first, "red")


def render_notice(console: Console, message: str, style: str = "dim") -> None:
    result_line(console, message, style)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def render_retry(console: Console, summary: str) -> None:
    """A retry's (or a model fallback's) one-line summary, in the warning colour."""
    render_notice(console, summary, style="yellow")


def render_opaque(console: Console, block: OpaqueBlock) -> None:
    """A block cc carries without understanding it (a server tool's call or result)."""
    raw = block.to_api()
    label = block.type if "name" not in raw else f"{block.type} · {raw['name']}"
    detail = raw.get("input")
    line = Text("● ", style="dim")
    line.append(label, style="dim bold")
    if detail:
        line.append(" " + _clip(json.dumps(detail, ensure_ascii=False), 100), style="dim")
    console.print(line, overflow="ellipsis", no_wrap=True)


def render_shell(
    console: Console, command: str, stdout: str, stderr: str, code: int | None
) -> None:
    """A typed `!command` and its output."""
    console.print(Text("! " + command, style="magenta"), overflow="fold")
    body = stdout.rstrip("\n") + ("\n" + stderr.rstrip("\n") if stderr.strip() else "")
    body = body.strip("\n")
    lines = body.splitlines() or ["(No output)"]
    for i, line in enumerate(lines):
        console.print(Text((RESULT if i == 0 else "     ") + line), overflow="fold")
    if code not in (0, None):
        render_notice(console, f"exit {code}", style="red")


# --- /cost ---------------------------------------------------------------------------


def render_cost(
    console: Console,
    usage: UsageTotals,
    wall_s: float,
    lines_added: int = 0,
    lines_removed: int = 0,
) -> None:
    console.print(Text(cost_report(usage, wall_s, lines_added, lines_removed)), overflow="fold")


# --- the permission dialog ------------------------------------------------------------


def permission_title(request: PermissionRequest) -> str:
    return {"Bash": "Bash command", "Edit": "Edit file", "Write": "Write file",
            "Read": "Read file", "WebFetch": "Fetch"}.get(request.tool_name, request.tool_name)


#: Tools whose "don't ask again" means "accept edits for this session" when no rule is offered.
EDIT_TOOLS = ("Edit", "Write", "MultiEdit", "NotebookEdit")


def permission_choices(request: PermissionRequest) -> list[tuple[str, str]]:
    """(kind, label) of each choice, in order: "yes", then "always" or "accept_edits", then "no"."""
    choices = [("yes", "Yes")]
    if request.suggestions:
        choices.append(("always", "Yes, and don't ask again for " + ", ".join(request.suggestions)))
    elif request.tool_name in EDIT_TOOLS:
        choices.append(("accept_edits", "Yes, allow all edits during this session (shift+tab)"))
    choices.append(("no", "No, and tell Claude what to do differently (esc)"))
    return choices


def permission_options(request: PermissionRequest) -> list[str]:
    return [label for _, label in permission_choices(request)]


def _question(request: PermissionRequest, cwd: Path) -> str:
    path = request.tool_input.get("file_path")
    if request.tool_name == "Edit" and isinstance(path, str):
        return f"Do you want to make this edit to {Path(path).name}?"
    if request.tool_name == "Write" and isinstance(path, str):
        return f"Do you want to write {Path(path).name}?"
    return "Do you want to proceed?"


def _indented(text: str, style: str = "", indent: int = 2) -> RenderableType:
    """A paragraph of the dialog: wrapped lines keep its indent, inside the box."""
    from rich.padding import Padding

    return Padding(Text(visible(text), style=style), (0, 0, 0, indent))


def _dialog_body(
    request: PermissionRequest, cwd: Path, hunks: Sequence[dict[str, Any]] | None
) -> list[RenderableType]:
    inp = request.tool_input
    body: list[RenderableType] = []
    if request.tool_name == "Bash":
        body.append(_indented(str(inp.get("command", ""))))
        if inp.get("description"):
            body.append(_indented(str(inp["description"]), style="dim"))
    elif request.tool_name in ("Edit", "Write") and isinstance(inp.get("file_path"), str):
        body.append(_indented(shown_path(inp["file_path"], cwd), style="bold"))
        if hunks:
            body.append(diff_text(hunks, indent=2))
        elif request.tool_name == "Write" and isinstance(inp.get("content"), str):
            body.append(diff_text([new_file_hunk(inp["content"])[0]], indent=2))
    else:
        body.append(_indented(tool_label(request.tool_name, inp, cwd, limit=None)))
        if request.description:
            body.append(_indented(request.description, style="dim"))
    if request.reason:
        body.append(_indented(request.reason, style="dim"))
    return body


def permission_dialog(
    request: PermissionRequest,
    cwd: Path,
    selected: int = 0,
    hunks: Sequence[dict[str, Any]] | None = None,
    feedback: str | None = None,
) -> RenderableType:
    """The dialog; `feedback` (not None) once "No" is chosen and a reason is being typed."""
    from rich.panel import Panel

    parts: list[RenderableType] = [Text(permission_title(request), style="bold"), Text("")]
    parts += _dialog_body(request, cwd, hunks)
    parts.append(Text(""))
    if feedback is not None:
        parts.append(Text("Tell Claude what to do differently (enter to send, esc to stop the turn):"))
    else:
        parts.append(Text(_question(request, cwd)))
        parts.append(option_lines(permission_options(request), selected))
    return Panel(Group(*parts), border_style="yellow", padding=(0, 1), expand=True)


def option_lines(options: Sequence[str], selected: int) -> Table:
    """`❯ 1. Yes` and the others; a long option wraps under its own text."""
    grid = Table.grid()
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    for i, option in enumerate(options):
        mark = "❯ " if i == selected else "  "
        grid.add_row(f"{mark}{i + 1}. ", Text(visible(option)),
                     style="cyan" if i == selected else "")
    return grid


def render_permission_dialog(
    console: Console,
    request: PermissionRequest,
    cwd: Path,
    selected: int = 0,
    hunks: Sequence[dict[str, Any]] | None = None,
    feedback: str | None = None,
) -> None:
    console.print(permission_dialog(request, cwd, selected, hunks, feedback))


def choice_dialog(title: str, options: Sequence[str], selected: int = 0) -> RenderableType:
    """A picker (/resume, /memory): ↑/↓ or a number, Enter, Esc to cancel."""
    from rich.panel import Panel

    parts: list[RenderableType] = [Text(title, style="bold"), Text("")]
    parts.append(option_lines(options, selected))
    parts += [Text(""), Text("↑/↓ to move · enter to choose · esc to cancel", style="dim")]
    return Panel(Group(*parts), border_style="blue", padding=(0, 1), expand=True)
