"""The Glob tool on real files, with the real rg and with the pure-Python fallback."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cc.tools.base import ToolContext, ToolResult
from cc.tools.glob import GlobInput, GlobTool, split_pattern
from cc.tools.ripgrep import find_rg

REFERENCE = Path("/work/shared/reference/tool_input_schemas.json")
RG = find_rg()


@pytest.fixture(params=["rg", "python"])
def tool(request: pytest.FixtureRequest) -> GlobTool:
    if request.param == "rg":
        assert RG is not None, "the ripgrep wheel should provide rg"
        return GlobTool(rg_path=RG)
    return GlobTool(rg_path="")


def write(path: Path, text: str = "x\n", mtime: float | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A small tree that is not a git repository but has a .gitignore."""
    write(tmp_path / ".gitignore", "build/\n*.log\n")
    write(tmp_path / "setup.py", mtime=1_000)
    write(tmp_path / "src" / "app.py", mtime=3_000)
    write(tmp_path / "src" / "util.py", mtime=2_000)
    write(tmp_path / "src" / "web" / "page.ts", mtime=4_000)
    write(tmp_path / "src" / "web" / "deep" / "part.ts", mtime=5_000)
    write(tmp_path / "build" / "gen.py")
    write(tmp_path / "debug.log")
    write(tmp_path / ".hidden" / "secret.py")
    write(tmp_path / ".github" / "workflows" / "ci.yml")
    write(tmp_path / "node_modules" / "pkg" / "index.py")
    write(tmp_path / ".git" / "hooks" / "pre.py")
    return tmp_path


async def glob(tool: GlobTool, cwd: Path, pattern: str, path: str | None = None) -> ToolResult:
    return await tool.call(GlobInput(pattern=pattern, path=path), ToolContext(cwd=cwd))


def names(result: ToolResult, root: Path) -> list[str]:
    return [str(Path(f).relative_to(root)) for f in result.data["filenames"]]


# --- matching -----------------------------------------------------------------


async def test_double_star_finds_python_files_newest_first(tool: GlobTool, project: Path) -> None:
    r = await glob(tool, project, "**/*.py")
    assert not r.is_error
    assert names(r, project) == ["src/app.py", "src/util.py", "setup.py"]
    assert r.content == "\n".join(str(project / n) for n in names(r, project))
    assert r.summary == "Found 3 files"
    assert set(r.data) == {"filenames", "durationMs", "numFiles", "truncated"}
    assert r.data["numFiles"] == 3 and r.data["truncated"] is False
    assert isinstance(r.data["durationMs"], int)


async def test_single_star_stays_in_the_folder(tool: GlobTool, project: Path) -> None:
    r = await glob(tool, project, "*.py")
    assert names(r, project) == ["setup.py"]


async def test_pattern_with_folder_prefix(tool: GlobTool, project: Path) -> None:
    r = await glob(tool, project, "src/**/*.ts")
    assert names(r, project) == ["src/web/deep/part.ts", "src/web/page.ts"]
    r = await glob(tool, project, "src/*/*.{ts,py}")
    assert names(r, project) == ["src/web/page.ts"]


async def test_path_sets_the_folder(tool: GlobTool, project: Path) -> None:
    r = await glob(tool, project, "*.ts", path="src/web")
    assert names(r, project) == ["src/web/page.ts"]
    r = await glob(tool, Path("/"), "**/*.py", path=str(project / "src"))
    assert names(r, project) == ["src/app.py", "src/util.py"]


async def test_absolute_pattern(tool: GlobTool, project: Path) -> None:
    r = await glob(tool, Path("/"), f"{project}/src/*.py")
    assert names(r, project) == ["src/app.py", "src/util.py"]


async def test_literal_path_names_one_file(tool: GlobTool, project: Path) -> None:
    r = await glob(tool, project, "src/app.py")
    assert names(r, project) == ["src/app.py"]


async def test_no_match(tool: GlobTool, project: Path) -> None:
    r = await glob(tool, project, "**/*.rs")
    assert not r.is_error
    assert r.content == "No files found"
    assert r.data["filenames"] == [] and r.data["numFiles"] == 0
    assert r.summary == "Found 0 files"
    r = await glob(tool, project, "nowhere/**/*.py")
    assert r.content == "No files found"


# --- what is left out ---------------------------------------------------------------


async def test_gitignored_hidden_and_node_modules_are_left_out(
    tool: GlobTool, project: Path
) -> None:
    everything = names(await glob(tool, project, "**"), project)
    assert sorted(everything) == [
        "setup.py",
        "src/app.py",
        "src/util.py",
        "src/web/deep/part.ts",
        "src/web/page.ts",
    ]


async def test_nested_gitignore(tool: GlobTool, project: Path) -> None:
    write(project / "src" / ".gitignore", "util.py\n")
    r = await glob(tool, project, "**/*.py")
    assert names(r, project) == ["src/app.py", "setup.py"]


async def test_hidden_folder_named_in_the_pattern_is_searched(
    tool: GlobTool, project: Path
) -> None:
    r = await glob(tool, project, ".github/**/*.yml")
    assert names(r, project) == [".github/workflows/ci.yml"]
    r = await glob(tool, project, "**/.*")
    assert names(r, project) == [".gitignore"]


# --- ordering and the cap ---------------------------------------------------------------


async def test_equal_times_are_ordered_by_path(tool: GlobTool, tmp_path: Path) -> None:
    for name in ["b.txt", "a.txt", "c.txt"]:
        write(tmp_path / name, mtime=5_000)
    write(tmp_path / "z_old.txt", mtime=100)
    r = await glob(tool, tmp_path, "*.txt")
    assert names(r, tmp_path) == ["a.txt", "b.txt", "c.txt", "z_old.txt"]


async def test_more_than_100_files_are_cut_with_a_note(tool: GlobTool, tmp_path: Path) -> None:
    for i in range(120):
        write(tmp_path / "many" / f"f{i:03}.txt", mtime=10_000 + i)
    r = await glob(tool, tmp_path, "**/*.txt")
    assert r.data["numFiles"] == 100
    assert r.data["truncated"] is True
    # Newest first: f119 down to f020.
    assert names(r, tmp_path)[0] == "many/f119.txt"
    assert names(r, tmp_path)[-1] == "many/f020.txt"
    lines = r.content.split("\n")
    assert len(lines) == 101
    assert "100" in lines[-1] and "120" in lines[-1]
    assert r.summary == "Found 100 files"


# --- errors ---------------------------------------------------------------------------


async def test_missing_path_is_an_error(tool: GlobTool, tmp_path: Path) -> None:
    r = await glob(tool, tmp_path, "*.py", path="nope")
    assert r.is_error
    assert r.content == f"<tool_use_error>Path does not exist: {tmp_path / 'nope'}</tool_use_error>"


async def test_file_as_path_is_an_error(tool: GlobTool, project: Path) -> None:
    r = await glob(tool, project, "*.py", path="setup.py")
    assert r.is_error
    assert "not a directory" in str(r.content)


# --- the rest -------------------------------------------------------------------------


def test_split_pattern(tmp_path: Path) -> None:
    assert split_pattern(tmp_path, "**/*.py") == (tmp_path, "/**/*.py")
    assert split_pattern(tmp_path, "./src/lib/*.py") == (tmp_path / "src/lib", "/*.py")
    assert split_pattern(tmp_path / "a", "../b/*.py") == (tmp_path / "b", "/*.py")
    assert split_pattern(tmp_path, "/etc/*.conf") == (Path("/etc"), "/*.conf")
    assert split_pattern(tmp_path, "src/main.py") == (tmp_path / "src", "/main.py")


def test_flags_and_schema() -> None:
    tool = GlobTool()
    inp = GlobInput(pattern="*")
    assert tool.is_read_only(inp) and tool.is_concurrency_safe(inp)
    reference = json.loads(REFERENCE.read_text())["Glob"]
    schema = tool.input_schema()
    props = {
        name: {key: value for key, value in prop.items() if key != "description"}
        for name, prop in schema["properties"].items()
    }
    assert props == reference["properties"]
    assert schema["required"] == reference["required"]
    assert tool.description().startswith("Finds files by name")


def test_env_var_empty_forces_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC_RG_PATH", "")
    assert find_rg() is None
    monkeypatch.setenv("CC_RG_PATH", "/opt/rg")
    assert find_rg() == "/opt/rg"
    monkeypatch.delenv("CC_RG_PATH")
    found = find_rg()
    assert found is not None and Path(found).name == "rg"
