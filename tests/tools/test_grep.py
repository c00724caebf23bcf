"""The Grep tool on real files, with the real rg and with the pure-Python fallback."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from cc.tools.base import ToolContext, ToolResult
from cc.tools.grep import GrepInput, GrepTool, split_globs
from cc.tools.ripgrep import SearchError, SearchTimeout, find_rg, run_rg
from tests.waiting import DEADLINE, wait_for_async

REFERENCE = Path("/work/shared/reference/tool_input_schemas.json")
RG = find_rg()


@pytest.fixture(params=["rg", "python"])
def tool(request: pytest.FixtureRequest) -> GrepTool:
    if request.param == "rg":
        assert RG is not None, "the ripgrep wheel should provide rg"
        return GrepTool(rg_path=RG)
    return GrepTool(rg_path="")


def write(path: Path, text: str, mtime: float | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


APP = "def main():\n    print('Hello')\n    return 0\n"
UTIL = "def helper(x):\n    return x * 2\n\n\ndef other():\n    pass\n"
NOTES = "hello world\nHELLO again\nnothing here\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A small tree that is not a git repository but has a .gitignore."""
    write(tmp_path / ".gitignore", "build/\n*.log\n")
    write(tmp_path / "src" / "app.py", APP, mtime=3_000)
    write(tmp_path / "src" / "util.py", UTIL, mtime=2_000)
    write(tmp_path / "docs" / "notes.txt", NOTES, mtime=1_000)
    write(tmp_path / "build" / "gen.py", "def generated():\n    pass\n")
    write(tmp_path / "debug.log", "def in_a_log\n")
    write(tmp_path / ".git" / "hooks" / "pre.py", "def hook():\n    pass\n")
    return tmp_path


async def grep(tool: GrepTool, cwd: Path, pattern: str, **kw: Any) -> ToolResult:
    inp = GrepInput.model_validate({"pattern": pattern, **kw})
    return await tool.call(inp, ToolContext(cwd=cwd))


# --- files_with_matches ------------------------------------------------------------------


async def test_files_with_matches_is_the_default(tool: GrepTool, project: Path) -> None:
    r = await grep(tool, project, r"def \w+")
    assert not r.is_error
    app, util = project / "src/app.py", project / "src/util.py"
    assert r.content == f"Found 2 files\n{app}\n{util}"
    assert r.data == {
        "mode": "files_with_matches",
        "numFiles": 2,
        "filenames": [str(app), str(util)],
    }
    assert r.summary == "Found 2 files"


async def test_files_are_ordered_newest_first(tool: GrepTool, project: Path) -> None:
    os.utime(project / "src/util.py", (9_000, 9_000))
    r = await grep(tool, project, "def")
    assert r.data["filenames"] == [str(project / "src/util.py"), str(project / "src/app.py")]


async def test_gitignored_and_git_folder_are_not_searched(tool: GrepTool, project: Path) -> None:
    write(project / ".config" / "settings.py", "def from_hidden():\n    pass\n")
    r = await grep(tool, project, "def")
    found = {str(Path(f).relative_to(project)) for f in r.data["filenames"]}
    assert found == {"src/app.py", "src/util.py", ".config/settings.py"}


async def test_no_match(tool: GrepTool, project: Path) -> None:
    r = await grep(tool, project, "zebra")
    assert not r.is_error
    assert r.content == "No files found"
    assert r.data == {"mode": "files_with_matches", "numFiles": 0, "filenames": []}
    r = await grep(tool, project, "zebra", output_mode="content")
    assert r.content == "No matches found"
    r = await grep(tool, project, "zebra", output_mode="count")
    assert r.content == "No matches found"


# --- content -----------------------------------------------------------------------------


async def test_content_lines_with_numbers(tool: GrepTool, project: Path) -> None:
    r = await grep(tool, project, "return", output_mode="content", path="src/util.py")
    f = project / "src/util.py"
    assert r.content == f"{f}:2:    return x * 2"
    r = await grep(tool, project, r"def \w+", output_mode="content")
    app, util = project / "src/app.py", project / "src/util.py"
    assert r.content == f"{app}:1:def main():\n{util}:1:def helper(x):\n{util}:5:def other():"
    assert r.data == {
        "mode": "content",
        "numFiles": 0,
        "filenames": [],
        "content": r.content,
        "numLines": 3,
    }
    assert r.summary == "Found 3 lines"


async def test_content_without_line_numbers(tool: GrepTool, project: Path) -> None:
    r = await grep(tool, project, "pass", output_mode="content", **{"-n": False})
    assert r.content == f"{project / 'src/util.py'}:    pass"


async def test_case_insensitive(tool: GrepTool, project: Path) -> None:
    notes = project / "docs/notes.txt"
    r = await grep(tool, project, "hello", output_mode="content", glob="*.txt")
    assert r.content == f"{notes}:1:hello world"
    r = await grep(tool, project, "hello", output_mode="content", glob="*.txt", **{"-i": True})
    assert r.content == f"{notes}:1:hello world\n{notes}:2:HELLO again"


async def test_context_lines(tool: GrepTool, tmp_path: Path) -> None:
    f = write(tmp_path / "c.txt", "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n")
    r = await grep(tool, tmp_path, "two|seven", output_mode="content", **{"-C": 1})
    assert r.content == "\n".join(
        [f"{f}-1-one", f"{f}:2:two", f"{f}-3-three", "--"]
        + [f"{f}-6-six", f"{f}:7:seven", f"{f}-8-eight"]
    )
    assert await grep(tool, tmp_path, "two|seven", output_mode="content", context=1) == r
    r = await grep(tool, tmp_path, "four", output_mode="content", **{"-A": 1, "-B": 2})
    assert r.content == f"{f}-2-two\n{f}-3-three\n{f}:4:four\n{f}-5-five"
    # -A and -B win over -C for their own side.
    r = await grep(tool, tmp_path, "four", output_mode="content", **{"-C": 2, "-A": 0})
    assert r.content == f"{f}-2-two\n{f}-3-three\n{f}:4:four"


async def test_context_groups_of_different_files_are_separated(
    tool: GrepTool, tmp_path: Path
) -> None:
    a = write(tmp_path / "a.txt", "x\nhit\ny\n", mtime=2_000)
    b = write(tmp_path / "b.txt", "hit\nz\n", mtime=1_000)
    r = await grep(tool, tmp_path, "hit", output_mode="content", **{"-A": 1})
    assert r.content == f"{a}:2:hit\n{a}-3-y\n--\n{b}:1:hit\n{b}-2-z"


async def test_only_matching(tool: GrepTool, project: Path) -> None:
    r = await grep(tool, project, r"def \w+", output_mode="content", path="src", **{"-o": True})
    app, util = project / "src/app.py", project / "src/util.py"
    assert r.content == f"{app}:1:def main\n{util}:1:def helper\n{util}:5:def other"


async def test_multiline_match_spans_lines(tool: GrepTool, project: Path) -> None:
    r = await grep(tool, project, r"helper.*?return", output_mode="content")
    assert r.content == "No matches found"
    r = await grep(tool, project, r"helper.*?return", output_mode="content", multiline=True)
    util = project / "src/util.py"
    assert r.content == f"{util}:1:def helper(x):\n{util}:2:    return x * 2"


async def test_paths_with_colons_and_dashes(tool: GrepTool, tmp_path: Path) -> None:
    f = write(tmp_path / "a-1-b:2:c.txt", "before\nneedle\n")
    r = await grep(tool, tmp_path, "needle", output_mode="content", **{"-B": 1})
    assert r.content == f"{f}-1-before\n{f}:2:needle"


async def test_long_lines_are_omitted(tool: GrepTool, tmp_path: Path) -> None:
    f = write(tmp_path / "min.js", "needle " + "x" * 600 + "\nneedle short\n")
    r = await grep(tool, tmp_path, "needle", output_mode="content")
    assert r.content == f"{f}:1:[Omitted long matching line]\n{f}:2:needle short"


async def test_big_output_is_cut_with_a_note(tool: GrepTool, tmp_path: Path) -> None:
    write(tmp_path / "big.txt", "".join(f"match line {i:05} {'.' * 60}\n" for i in range(2_000)))
    r = await grep(tool, tmp_path, "match", output_mode="content", head_limit=0)
    assert isinstance(r.content, str)
    assert len(r.content) < 30_500
    assert r.content.endswith("not shown. Use head_limit and offset, or a narrower search.]")
    assert "Output cut at 30000 characters" in r.content
    assert "appliedLimit" not in r.data


# --- count -------------------------------------------------------------------------------


async def test_count_totals(tool: GrepTool, project: Path) -> None:
    os.utime(project / "src/util.py", (9_000, 9_000))
    r = await grep(tool, project, "e", output_mode="count", type="py")
    app, util = project / "src/app.py", project / "src/util.py"
    # "e" occurs 6 times in util.py (def, helper x2, return, def, other)
    # and 3 times in app.py (def, Hello, return).
    assert r.content == f"{util}:6\n{app}:3\n\nFound 9 total occurrences across 2 files."
    assert r.data == {
        "mode": "count",
        "numFiles": 2,
        "filenames": [],
        "content": f"{util}:6\n{app}:3",
        "numMatches": 9,
    }
    assert r.summary == "Found 9 matches in 2 files"


# --- filters -----------------------------------------------------------------------------


async def test_glob_filter(tool: GrepTool, project: Path) -> None:
    r = await grep(tool, project, "e", glob="*.txt")
    assert r.data["filenames"] == [str(project / "docs/notes.txt")]
    r = await grep(tool, project, "e", glob="*.{txt,py}")
    assert len(r.data["filenames"]) == 3
    r = await grep(tool, project, "e", glob="src/app.py docs/*.txt")
    assert r.data["filenames"] == [str(project / "src/app.py"), str(project / "docs/notes.txt")]
    # Globs with a folder in them are read from the searched folder.
    write(project / "src" / "sub" / "deep.py", "e\n", mtime=500)
    r = await grep(tool, project, "e", path="src", glob="sub/*.py")
    assert r.data["filenames"] == [str(project / "src/sub/deep.py")]


async def test_type_filter(tool: GrepTool, project: Path) -> None:
    r = await grep(tool, project, "e", type="py")
    assert r.data["filenames"] == [str(project / "src/app.py"), str(project / "src/util.py")]


async def test_a_file_named_outright_skips_the_filters(tool: GrepTool, project: Path) -> None:
    notes = str(project / "docs/notes.txt")
    r = await grep(tool, project, "hello", path=notes, type="py", glob="*.py")
    assert r.data["filenames"] == [notes]
    r = await grep(tool, project, "in_a_log", path="debug.log")
    assert r.data["filenames"] == [str(project / "debug.log")]


def test_split_globs() -> None:
    assert split_globs("*.py") == ["*.py"]
    assert split_globs("*.{ts,tsx} *.js") == ["*.{ts,tsx}", "*.js"]
    assert split_globs("*.py,*.txt") == ["*.py", "*.txt"]
    assert split_globs(None) == []


# --- head_limit and offset -----------------------------------------------------------------


async def test_head_limit_and_offset(tool: GrepTool, tmp_path: Path) -> None:
    f = write(tmp_path / "n.txt", "".join(f"line {i}\n" for i in range(1, 11)))
    r = await grep(tool, tmp_path, "line", output_mode="content", head_limit=3, offset=2)
    assert r.content == (
        f"{f}:3:line 3\n{f}:4:line 4\n{f}:5:line 5\n\n"
        "[Paginated (limit 3, offset 2): showing entries 3-5 of 10.]"
    )
    assert r.data["appliedLimit"] == 3 and r.data["appliedOffset"] == 2
    assert r.data["numLines"] == 3
    # A limit that cuts nothing is not reported.
    r = await grep(tool, tmp_path, "line", output_mode="content", head_limit=50)
    assert "appliedLimit" not in r.data and "Paginated" not in r.content
    # Offset alone.
    r = await grep(tool, tmp_path, "line", output_mode="content", offset=8)
    assert r.content.startswith(f"{f}:9:line 9\n{f}:10:line 10\n\n[Paginated")
    assert r.data["appliedOffset"] == 8 and "appliedLimit" not in r.data


async def test_pagination_of_files_and_counts(tool: GrepTool, tmp_path: Path) -> None:
    for i in range(5):
        write(tmp_path / f"f{i}.txt", "hit\n" * (i + 1), mtime=1_000 + i)
    r = await grep(tool, tmp_path, "hit", head_limit=2, offset=1)
    assert r.data["filenames"] == [str(tmp_path / "f3.txt"), str(tmp_path / "f2.txt")]
    assert r.content.startswith("Found 2 files\n")
    r = await grep(tool, tmp_path, "hit", output_mode="count", head_limit=2)
    assert r.data["content"] == f"{tmp_path / 'f4.txt'}:5\n{tmp_path / 'f3.txt'}:4"
    assert r.data["numMatches"] == 15 and r.data["appliedLimit"] == 2


async def test_default_limit_is_250_entries(tool: GrepTool, tmp_path: Path) -> None:
    write(tmp_path / "many.txt", "hit\n" * 300)
    r = await grep(tool, tmp_path, "hit", output_mode="content")
    assert r.data["numLines"] == 250 and r.data["appliedLimit"] == 250
    r = await grep(tool, tmp_path, "hit", output_mode="content", head_limit=0)
    assert r.data["numLines"] == 300 and "appliedLimit" not in r.data


# --- errors and odd patterns -------------------------------------------------------------


async def test_invalid_regex_is_an_error(tool: GrepTool, project: Path) -> None:
    r = await grep(tool, project, "foo(")
    assert r.is_error
    assert isinstance(r.content, str)
    assert r.content.startswith("<tool_use_error>Search failed: ")
    assert "regex parse error" in r.content


async def test_invalid_regex_quotes_rg(project: Path) -> None:
    assert RG is not None
    r = await grep(GrepTool(rg_path=RG), project, "foo(")
    assert "unclosed group" in str(r.content)


async def test_unknown_type_is_an_error(tool: GrepTool, project: Path) -> None:
    r = await grep(tool, project, "x", type="nosuchtype")
    assert r.is_error and "unrecognized file type: nosuchtype" in str(r.content)


async def test_missing_path_is_an_error(tool: GrepTool, tmp_path: Path) -> None:
    r = await grep(tool, tmp_path, "x", path="missing")
    assert r.is_error
    missing = tmp_path / "missing"
    assert r.content == f"<tool_use_error>Path does not exist: {missing}</tool_use_error>"


async def test_pattern_starting_with_a_dash(tool: GrepTool, tmp_path: Path) -> None:
    f = write(tmp_path / "flags.txt", "use --verbose here\nplain\n")
    r = await grep(tool, tmp_path, "--verbose", output_mode="content")
    assert r.content == f"{f}:1:use --verbose here"


def test_negative_numbers_are_refused() -> None:
    with pytest.raises(ValidationError):
        GrepInput.model_validate({"pattern": "x", "-A": -1})
    with pytest.raises(ValidationError):
        GrepInput.model_validate({"pattern": "x", "unknown": 1})


# --- schema and flags ----------------------------------------------------------------------


def test_schema_matches_the_reference() -> None:
    tool = GrepTool()
    reference = json.loads(REFERENCE.read_text())["Grep"]
    schema = tool.input_schema()
    props = {
        name: {key: value for key, value in prop.items() if key != "description"}
        for name, prop in schema["properties"].items()
    }
    assert props == reference["properties"]
    assert schema["required"] == reference["required"]
    assert schema["additionalProperties"] is False
    inp = GrepInput(pattern="x")
    assert tool.is_read_only(inp) and tool.is_concurrency_safe(inp)
    assert tool.description().startswith("Searches file contents")


# --- running rg ----------------------------------------------------------------------------


async def test_run_rg_lines_and_no_match(tmp_path: Path) -> None:
    assert RG is not None
    write(tmp_path / "a.txt", "alpha\nbeta\n")
    out = await run_rg(RG, ["--no-config", "-N", "-e", "a", "--", str(tmp_path / "a.txt")])
    assert out.lines == ["alpha", "beta"] and not out.truncated
    out = await run_rg(RG, ["--no-config", "-e", "zzz", "--", str(tmp_path)])
    assert out.lines == []


async def test_run_rg_error_carries_stderr(tmp_path: Path) -> None:
    assert RG is not None
    with pytest.raises(SearchError, match="No such file or directory"):
        await run_rg(RG, ["--no-config", "-e", "a", "--", str(tmp_path / "missing")])


async def test_run_rg_caps_output(tmp_path: Path) -> None:
    assert RG is not None
    write(tmp_path / "a.txt", "hit\n" * 10_000)
    args = ["--no-config", "-N", "-e", "hit", "--", str(tmp_path / "a.txt")]
    out = await run_rg(RG, args, max_bytes=1_000)
    assert out.truncated and out.lines == ["hit"] * 250


def _sleeper(pid_file: Path) -> list[str]:
    """A real child process (sh, quick to start) that records its pid and then sleeps."""
    return ["-c", f'echo $$ > "{pid_file}"; exec sleep 30']


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


async def _pid(pid_file: Path) -> int:
    text = await wait_for_async(
        lambda: pid_file.exists() and pid_file.read_text().strip(), what="the child starting"
    )
    return int(text)


async def test_run_rg_times_out_and_kills(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    with pytest.raises(SearchTimeout):
        await run_rg("sh", _sleeper(pid_file), timeout=2.0)  # 2 s: time to write the pid
    assert _gone(await _pid(pid_file))


async def test_run_rg_cancelled_kills(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    task = asyncio.create_task(run_rg("sh", _sleeper(pid_file), timeout=DEADLINE))
    pid = await _pid(pid_file)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert _gone(pid)
