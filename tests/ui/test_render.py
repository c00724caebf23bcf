"""Golden tests of what the terminal shows, printed to a 100-column colourless console."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

from rich.console import Console

from cc.models.usage import UsageTotals
from cc.permissions.ask import PermissionRequest
from cc.tools.base import ToolResult
from cc.tools.diff import structured_patch
from cc.ui import render

CWD = Path("/work/proj")
OLD = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n"
NEW = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"


def console() -> Console:
    return Console(file=StringIO(), width=100, color_system=None)


def shown(c: Console) -> str:
    out = c.file.getvalue()  # type: ignore[attr-defined]
    return "\n".join(line.rstrip() for line in out.splitlines())


def test_read_line() -> None:
    c = console()
    render.render_tool(c, "Read", {"file_path": "/work/proj/src/calc.py"}, ToolResult("…", summary="Read 12 lines"), CWD)
    assert shown(c) == "● Read(src/calc.py)\n  ⎿  Read 12 lines"


def test_bash_line_outside_cwd_path_and_long_command() -> None:
    c = console()
    render.render_tool(c, "Bash", {"command": "npm test -- --watch=false"}, ToolResult("ok", summary="exit 0 · 3 lines"), CWD)
    render.render_tool(c, "Read", {"file_path": "/etc/hosts"}, ToolResult("…", summary="Read 2 lines"), CWD)
    render.render_tool(c, "Bash", {"command": "echo " + "x" * 200 + "\nls"}, ToolResult("", summary="exit 0"), CWD)
    assert shown(c) == (
        "● Bash(npm test -- --watch=false)\n  ⎿  ok\n"
        "● Read(/etc/hosts)\n  ⎿  Read 2 lines\n"
        f"● Bash(echo {'x' * 86}…)\n  ⎿  (No output)"
    )


def test_bash_line_previews_the_first_lines_of_output() -> None:
    c = console()
    out = "\x1b[32mPASS\x1b[0m a.test.js\n\tPASS b.test.js\nTests: 2 passed\nTime: 1s\nDone\n"
    render.render_tool(c, "Bash", {"command": "npm test"}, ToolResult(out, summary="exit 0 · 5 lines"), CWD)
    render.render_tool(c, "Bash", {"command": "seq 3"}, ToolResult("1\n2\n3\n", summary="exit 0 · 3 lines"), CWD)
    render.render_tool(c, "Bash", {"command": "seq 4"}, ToolResult("1\n2\n3\n4", summary="exit 0 · 4 lines"), CWD)
    failed = ToolResult("Exit code 1\nFAIL a.test.js\n  expected 3\n  got 4\nTests: 1 failed", is_error=True, summary="exit 1")
    render.render_tool(c, "Bash", {"command": "npm test"}, failed, CWD)
    assert shown(c) == (
        "● Bash(npm test)\n"
        "  ⎿  PASS a.test.js\n"
        "             PASS b.test.js\n"
        "     Tests: 2 passed\n"
        "     … +2 lines\n"
        "● Bash(seq 3)\n  ⎿  1\n     2\n     3\n"
        "● Bash(seq 4)\n  ⎿  1\n     2\n     3\n     … +1 line\n"
        "● Bash(npm test)\n"
        "  ⎿  Error: Exit code 1\n"
        "     FAIL a.test.js\n"
        "       expected 3\n"
        "     … +2 lines"
    )
    assert "\x1b" not in c.file.getvalue()  # type: ignore[attr-defined]


def test_grep_and_glob_lines() -> None:
    c = console()
    render.render_tool(c, "Grep", {"pattern": "def add", "path": "/work/proj/src"}, ToolResult("", summary="Found 2 files"), CWD)
    render.render_tool(c, "Glob", {"pattern": "**/*.py"}, ToolResult("", summary="Found 7 files"), CWD)
    assert shown(c) == (
        '● Grep(pattern: "def add", path: "src")\n  ⎿  Found 2 files\n'
        '● Glob(pattern: "**/*.py")\n  ⎿  Found 7 files'
    )


def test_error_line_is_the_first_line_without_tags() -> None:
    c = console()
    result = ToolResult.error("String to replace not found in file.\nString: foo")
    render.render_tool(c, "Edit", {"file_path": "/work/proj/a.py"}, result, CWD)
    bash = ToolResult("Exit code 2\nls: cannot access 'x'", is_error=True, summary="exit 2")
    render.render_tool(c, "Bash", {"command": "ls x"}, bash, CWD)
    render.render_error(c, "API Error: 401 invalid x-api-key\nmore detail")
    assert shown(c) == (
        "● Update(a.py)\n  ⎿  Error: String to replace not found in file.\n"
        "● Bash(ls x)\n  ⎿  Error: Exit code 2\n     ls: cannot access 'x'\n"
        "  ⎿  API Error: 401 invalid x-api-key"
    )


def test_edit_diff() -> None:
    c = console()
    data = {"filePath": "/work/proj/calc.py", "structuredPatch": structured_patch(OLD, NEW)}
    result = ToolResult("ok", data=data, summary="Updated calc.py with 1 addition and 1 removal")
    render.render_tool(c, "Edit", {"file_path": "/work/proj/calc.py"}, result, CWD)
    assert shown(c) == (
        "● Update(calc.py)\n"
        "  ⎿  Updated calc.py with 1 addition and 1 removal\n"
        "      1   def add(a, b):\n"
        "      2 -     return a - b\n"
        "      2 +     return a + b\n"
        "      3\n"
        "      4\n"
        "      5   def sub(a, b):"
    )


def test_notebook_cell_diff() -> None:
    c = console()
    data = {"cell_id": "c1", "edit_mode": "replace", "old_source": "print(1)\nx = 2",
            "new_source": "print(2)\nx = 2", "notebook_path": "/work/proj/n.ipynb"}
    result = ToolResult("ok", data=data, summary="Updated cell c1")
    render.render_tool(c, "NotebookEdit", {"notebook_path": "/work/proj/n.ipynb"}, result, CWD)
    assert shown(c) == (
        "● NotebookEdit(n.ipynb)\n"
        "  ⎿  Updated cell c1\n"
        "      1 - print(1)\n"
        "      1 + print(2)\n"
        "      2   x = 2"
    )
    c = console()
    deleted = {**data, "edit_mode": "delete", "new_source": ""}
    render.render_tool(c, "NotebookEdit", {"notebook_path": "/work/proj/n.ipynb"},
                       ToolResult("ok", data=deleted, summary="Deleted cell c1"), CWD)
    assert "- print(1)" in shown(c) and "+" not in shown(c).split("Deleted cell c1")[1]


def test_diff_with_two_hunks_and_wide_line_numbers() -> None:
    old = "".join(f"line {i}\n" for i in range(1, 121))
    new = old.replace("line 2\n", "line two\n").replace("line 110\n", "")
    c = console()
    render.render_diff(c, structured_patch(old, new, context=1))
    assert shown(c) == (
        "        1   line 1\n"
        "        2 - line 2\n"
        "        2 + line two\n"
        "        3   line 3\n"
        "      …\n"
        "      109   line 109\n"
        "      110 - line 110\n"
        "      110   line 111"
    )


def test_write_diff_and_new_file() -> None:
    c = console()
    update = {"type": "update", "structuredPatch": structured_patch("a\nb\n", "a\nB\nc\n")}
    render.render_tool(c, "Write", {"file_path": "/work/proj/notes.txt"}, ToolResult("ok", data=update, summary="Updated notes.txt with 2 additions and 1 removal"), CWD)
    content = "".join(f"row {i}\n" for i in range(1, 13))
    create = {"type": "create", "content": content, "structuredPatch": []}
    render.render_tool(c, "Write", {"file_path": "/work/proj/new.txt"}, ToolResult("ok", data=create, summary="Wrote 12 lines to new.txt"), CWD)
    assert shown(c) == (
        "● Write(notes.txt)\n"
        "  ⎿  Updated notes.txt with 2 additions and 1 removal\n"
        "      1   a\n"
        "      2 - b\n"
        "      2 + B\n"
        "      3 + c\n"
        "● Write(new.txt)\n"
        "  ⎿  Wrote 12 lines to new.txt\n"
        + "".join(f"      {i:>2} + row {i}\n" for i in range(1, 11))
        + "      … +2 lines"
    )


def test_markdown_with_a_code_block() -> None:
    c = console()
    render.render_markdown(c, "Use **this**:\n\n```python\ndef add(a, b):\n    return a + b\n```\n\n- one\n- two\n")
    render.render_markdown(c, "A later paragraph.", first=False)
    assert shown(c) == (
        "● Use this:\n"
        "\n"
        "  def add(a, b):\n"
        "      return a + b\n"
        "\n"
        "   • one\n"
        "   • two\n"
        "  A later paragraph."
    )


def test_cost_table() -> None:
    usage = UsageTotals()
    usage.add("claude-opus-5-5", {"input_tokens": 12_345, "output_tokens": 678, "cache_read_input_tokens": 45_000})
    usage.add("claude-haiku-4-5", {"input_tokens": 900, "output_tokens": 40, "cache_creation_input_tokens": 2_000})
    usage.api_duration_ms = 12_300
    c = console()
    render.render_cost(c, usage, 125.4, lines_added=12, lines_removed=1)
    assert shown(c) == (
        "Total cost:            $0.0755\n"
        "Total duration (API):  12.3s\n"
        "Total duration (wall): 2m 5.4s\n"
        "Total code changes:    12 lines added, 1 line removed\n"
        "Usage by model:\n"
        "     claude-opus-5-5:  12.3k input, 678 output, 45.0k cache read, 0 cache write ($0.0719)\n"
        "    claude-haiku-4-5:  900 input, 40 output, 0 cache read, 2.0k cache write ($0.0036)"
    )


def test_permission_dialog_for_an_edit() -> None:
    request = PermissionRequest(
        "Edit", {"file_path": "/work/proj/calc.py", "old_string": "a - b", "new_string": "a + b"},
        "toolu_1", "Edit calc.py",
    )
    c = console()
    render.render_permission_dialog(c, request, CWD, selected=0, hunks=structured_patch(OLD, NEW, context=1))
    bar = "─" * 98
    assert shown(c) == "\n".join(line.ljust(98) if not line.startswith(("╭", "╰")) else line for line in [
        f"╭{bar}╮",
        "│ Edit file" + " " * 88 + "│",
        "│" + " " * 98 + "│",
        "│   calc.py" + " " * 88 + "│",
        "│   1   def add(a, b):" + " " * 77 + "│",
        "│   2 -     return a - b" + " " * 75 + "│",
        "│   2 +     return a + b" + " " * 75 + "│",
        "│   3" + " " * 94 + "│",
        "│" + " " * 98 + "│",
        "│ Do you want to make this edit to calc.py?" + " " * 56 + "│",
        "│ ❯ 1. Yes" + " " * 89 + "│",
        "│   2. Yes, allow all edits during this session (shift+tab)" + " " * 40 + "│",
        "│   3. No, and tell Claude what to do differently (esc)" + " " * 44 + "│",
        f"╰{bar}╯",
    ])


def test_permission_dialog_for_a_command_with_a_suggestion() -> None:
    request = PermissionRequest(
        "Bash", {"command": "npm test", "description": "Run the tests"}, "toolu_2",
        "Bash command: npm test", suggestions=["Bash(npm test:*)"], reason="no rule allows it",
    )
    c = Console(file=StringIO(), width=60, color_system=None)
    render.render_permission_dialog(c, request, CWD, selected=1)
    body = [line[1:-1].rstrip() for line in shown(c).splitlines()[1:-1]]
    assert body == [
        " Bash command",
        "",
        "   npm test",
        "   Run the tests",
        "   no rule allows it",
        "",
        " Do you want to proceed?",
        "   1. Yes",
        " ❯ 2. Yes, and don't ask again for Bash(npm test:*)",
        "   3. No, and tell Claude what to do differently (esc)",
    ]
    c = Console(file=StringIO(), width=60, color_system=None)
    render.render_permission_dialog(c, request, CWD, feedback="")
    assert "Tell Claude what to do differently" in shown(c)
    assert "1. Yes" not in shown(c)


def test_long_lines_in_a_permission_dialog_wrap_inside_the_box() -> None:
    command = "echo " + " ".join(f"word{i}" for i in range(30)) + " \x1b[2J " + "y" * 70
    request = PermissionRequest(
        "Bash", {"command": command}, "toolu_3", "Bash command", suggestions=["Bash(echo " + "z" * 60 + ":*)"],
    )
    fetch = PermissionRequest("WebFetch", {"url": "https://example.com/" + "a/" * 30, "prompt": "p"}, "t", "")
    c = Console(file=StringIO(), width=60, color_system=None)
    render.render_permission_dialog(c, request, CWD)
    render.render_permission_dialog(c, fetch, CWD)
    body = [line[1:-1].rstrip() for line in shown(c).splitlines() if line.startswith("│")]
    assert all(len(line) == 60 for line in c.file.getvalue().splitlines())  # type: ignore[attr-defined]
    assert body == [
        " Bash command",
        "",
        "   echo word0 word1 word2 word3 word4 word5 word6 word7",
        "   word8 word9 word10 word11 word12 word13 word14 word15",
        "   word16 word17 word18 word19 word20 word21 word22",
        "   word23 word24 word25 word26 word27 word28 word29 ^[[2J",  # an escape is shown, not run
        "   " + "y" * 54,
        "   " + "y" * 16,
        "",
        " Do you want to proceed?",
        " ❯ 1. Yes",
        "   2. Yes, and don't ask again for Bash(echo",
        "      " + "z" * 51,
        "      " + "z" * 9 + ":*)",
        "   3. No, and tell Claude what to do differently (esc)",
        " Fetch",
        "",
        "   Fetch(https://example.com/a/a/a/a/a/a/a/a/a/a/a/a/a/a/",  # whole, not cut
        "   a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/)",
        "",
        " Do you want to proceed?",
        " ❯ 1. Yes",
        "   2. No, and tell Claude what to do differently (esc)",
    ]


def test_a_long_diff_line_wraps_beside_its_number() -> None:
    c = Console(file=StringIO(), width=40, color_system=None)
    render.render_diff(c, structured_patch("x = 1\n", "x = " + " + ".join(["1"] * 12) + "\n"))
    assert shown(c) == (
        "      1 - x = 1\n"
        "      1 + x = 1 + 1 + 1 + 1 + 1 + 1 + 1\n"
        "          + 1 + 1 + 1 + 1 + 1"
    )


def test_agent_line_and_its_summary_or_failure() -> None:
    c = console()
    inp = {"description": "Count the lines", "prompt": "Count the lines of a.txt"}
    data = {"agentId": "a0123456789abcdef", "status": "completed"}
    render.render_tool(c, "Agent", inp, ToolResult("report", data=data,
                       summary="Done (2 tool uses · 1,234 tokens · 3.1s)"), CWD)
    failed = {**data, "status": "failed"}
    render.render_tool(c, "Agent", inp, ToolResult([{"type": "text", "text": "<tools-used-before-summary>"}],
                       is_error=True, data=failed, summary="Done (1 tool use · 56 tokens · 0.4s)"), CWD)
    render.render_tool(c, "Agent", inp, ToolResult.error("Agent type 'nope' not found."), CWD)
    assert shown(c) == (
        "● Agent(Count the lines)\n"
        "  ⎿  Done (2 tool uses · 1,234 tokens · 3.1s)\n"
        "● Agent(Count the lines)\n"
        "  ⎿  Failed (1 tool use · 56 tokens · 0.4s)\n"
        "● Agent(Count the lines)\n"
        "  ⎿  Error: Agent type 'nope' not found."
    )


def test_web_fetch_and_web_search_lines() -> None:
    c = console()
    render.render_tool(c, "WebFetch", {"url": "https://example.com/guide", "prompt": "p"},
                       ToolResult("…", summary="Received 12.3KB (200 OK)"), CWD)
    render.render_tool(c, "WebSearch", {"query": "widgets 2026"},
                       ToolResult("…", summary="Did 1 search, 5 results"), CWD)
    render.render_tool(c, "WebFetch", {"url": "https://example.com/x", "prompt": "p"},
                       ToolResult.error("Fetching https://example.com/x timed out"), CWD)
    assert shown(c) == (
        "● Fetch(https://example.com/guide)\n  ⎿  Received 12.3KB (200 OK)\n"
        '● Web Search("widgets 2026")\n  ⎿  Did 1 search, 5 results\n'
        "● Fetch(https://example.com/x)\n  ⎿  Error: Fetching https://example.com/x timed out")
