"""The Edit tool on real files."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from pydantic import ValidationError

from cc.tools.base import FileReadRecord, ToolContext, ToolResult
from cc.tools.edit import EditInput, EditTool
from tests.tools.conftest import NOT_READ
from tests.tools.conftest import read_first as read


def mark_read(ctx: ToolContext, path: Path) -> None:
    """For files Read cannot show (e.g. UTF-16): record the read by hand."""
    ctx.read_files[str(path)] = FileReadRecord(os.stat(path).st_mtime_ns)


async def edit(ctx: ToolContext, path: Path | str, old: str, new: str, **kw: bool) -> ToolResult:
    inp = EditInput(file_path=str(path), old_string=old, new_string=new, **kw)
    return await EditTool().call(inp, ctx)


async def made(ctx: ToolContext, path: Path, data: str | bytes) -> Path:
    """A file with `data` that the conversation has read."""
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    mark_read(ctx, path)
    return path


# --- success ---------------------------------------------------------------


async def test_edit_after_read(tmp_path: Path, ctx: ToolContext) -> None:
    f = tmp_path / "src" / "calc.py"
    f.parent.mkdir()
    original = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"
    f.write_text(original)
    await read(ctx, f)
    new = "    return a - b\n\n\ndef mul(a, b):\n    return a * b"
    r = await edit(ctx, f, "    return a - b", new)
    assert not r.is_error
    assert r.content == f"The file {f} has been updated successfully."
    assert f.read_text() == original.replace("    return a - b", new)
    assert r.data == {
        "filePath": str(f),
        "oldString": "    return a - b",
        "newString": new,
        "originalFile": original,
        "structuredPatch": [
            {
                "oldStart": 4,
                "oldLines": 3,
                "newStart": 4,
                "newLines": 7,
                "lines": [
                    " ",
                    " def sub(a, b):",
                    "     return a - b",
                    "+",
                    "+",
                    "+def mul(a, b):",
                    "+    return a * b",
                ],
            }
        ],
        "userModified": False,
        "replaceAll": False,
    }
    assert r.summary == "Updated src/calc.py with 4 additions and 0 removals"


async def test_second_edit_needs_no_new_read(tmp_path: Path, ctx: ToolContext) -> None:
    f = tmp_path / "a.txt"
    f.write_text("one\ntwo\n")
    await read(ctx, f)
    assert not (await edit(ctx, f, "one", "1")).is_error
    assert not (await edit(ctx, f, "two", "2")).is_error
    assert f.read_text() == "1\n2\n"


async def test_relative_path_is_taken_from_cwd(tmp_path: Path, ctx: ToolContext) -> None:
    f = await made(ctx, tmp_path / "r.txt", "x = 1\n")
    r = await edit(ctx, "r.txt", "1", "2")
    assert r.content == f"The file {f} has been updated successfully."
    assert f.read_text() == "x = 2\n"


async def test_read_under_another_spelling_counts(tmp_path: Path, ctx: ToolContext) -> None:
    (tmp_path / "sub").mkdir()
    real = tmp_path / "real.txt"
    real.write_text("a\n")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    await read(ctx, tmp_path / "sub" / ".." / "real.txt")
    assert not (await edit(ctx, real, "a", "b")).is_error
    assert not (await edit(ctx, link, "b", "c")).is_error
    assert link.is_symlink() and real.read_text() == "c\n"


async def test_replace_all(tmp_path: Path, ctx: ToolContext) -> None:
    f = await made(ctx, tmp_path / "a.py", "x = 1\ny = x + x\n")
    r = await edit(ctx, f, "x", "value", replace_all=True)
    assert f.read_text() == "value = 1\ny = value + value\n"
    assert r.content == (
        f"The file {f} has been updated. All occurrences of 'x' were successfully "
        "replaced with 'value'."
    )
    assert r.data["replaceAll"] is True


async def test_replace_all_message_cuts_long_strings(tmp_path: Path, ctx: ToolContext) -> None:
    long = "y" * 500
    f = await made(ctx, tmp_path / "a.txt", "x\nx\n")
    r = await edit(ctx, f, "x", long, replace_all=True)
    assert not r.is_error
    assert isinstance(r.content, str) and len(r.content) < 300 and "…" in r.content


async def test_empty_old_string_creates_a_missing_file(tmp_path: Path, ctx: ToolContext) -> None:
    f = tmp_path / "new" / "dir" / "f.txt"
    r = await edit(ctx, f, "", "hello\n")
    assert not r.is_error
    assert f.read_text() == "hello\n"
    assert r.data["originalFile"] == ""
    assert r.data["structuredPatch"][0]["lines"] == ["+hello"]
    assert not (await edit(ctx, f, "hello", "bye")).is_error  # recorded as known


async def test_empty_old_string_fills_an_empty_file(tmp_path: Path, ctx: ToolContext) -> None:
    f = await made(ctx, tmp_path / "e.txt", "")
    assert not (await edit(ctx, f, "", "text\n")).is_error
    assert f.read_text() == "text\n"


# --- refusals --------------------------------------------------------------


async def test_unread_file_is_refused(tmp_path: Path, ctx: ToolContext) -> None:
    f = tmp_path / "a.txt"
    f.write_text("a\n")
    r = await edit(ctx, f, "a", "b")
    assert r.is_error and r.content == NOT_READ
    assert f.read_text() == "a\n"


async def test_file_changed_since_read_is_refused(tmp_path: Path, ctx: ToolContext) -> None:
    f = tmp_path / "a.txt"
    f.write_text("a\n")
    await read(ctx, f)
    f.write_text("changed\n")
    st = f.stat()
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    r = await edit(ctx, f, "changed", "b")
    assert r.is_error
    assert "modified" in r.content and "linter" in r.content and "Read it again" in r.content
    assert f.read_text() == "changed\n"
    await read(ctx, f)
    assert not (await edit(ctx, f, "changed", "b")).is_error


async def test_same_strings_are_refused(tmp_path: Path, ctx: ToolContext) -> None:
    f = await made(ctx, tmp_path / "a.txt", "a\n")
    r = await edit(ctx, f, "a", "a")
    assert r.is_error and "nothing to change" in r.content


async def test_missing_file(tmp_path: Path, ctx: ToolContext) -> None:
    r = await edit(ctx, tmp_path / "nope.txt", "a", "b")
    assert r.content == (
        f"<tool_use_error>File does not exist. Current working directory: {tmp_path}"
        "</tool_use_error>"
    )


async def test_empty_old_string_on_a_non_empty_file(tmp_path: Path, ctx: ToolContext) -> None:
    f = await made(ctx, tmp_path / "a.txt", "a\n")
    r = await edit(ctx, f, "", "b")
    assert r.is_error and "Write" in r.content and "old_string" in r.content
    assert f.read_text() == "a\n"


async def test_not_found(tmp_path: Path, ctx: ToolContext) -> None:
    f = await made(ctx, tmp_path / "a.txt", "alpha\n")
    r = await edit(ctx, f, "beta", "gamma")
    assert r.content == (
        "<tool_use_error>String to replace not found in file.\nString: beta</tool_use_error>"
    )


async def test_several_matches_without_replace_all(tmp_path: Path, ctx: ToolContext) -> None:
    f = await made(ctx, tmp_path / "a.txt", "x\nx\nx\n")
    r = await edit(ctx, f, "x", "y")
    assert r.content == (
        "<tool_use_error>Found 3 matches of the string to replace, but replace_all is false. "
        "To replace all occurrences, set replace_all to true. To replace only one occurrence, "
        "please provide more context to uniquely identify the instance.\nString: x"
        "</tool_use_error>"
    )
    assert f.read_text() == "x\nx\nx\n"


async def test_directory_and_binary_are_refused(tmp_path: Path, ctx: ToolContext) -> None:
    r = await edit(ctx, tmp_path, "a", "b")
    assert r.is_error and "directory" in r.content
    f = await made(ctx, tmp_path / "b.dat", b"\x00\x01abc")
    r = await edit(ctx, f, "abc", "def")
    assert r.is_error and "binary" in r.content


# --- near misses -----------------------------------------------------------


async def test_tabs_against_spaces_is_explained(tmp_path: Path, ctx: ToolContext) -> None:
    f = await made(ctx, tmp_path / "m.go", "func f() {\n\tx := 1\n\treturn x\n}\n")
    r = await edit(ctx, f, "    x := 1\n    return x", "\treturn 1")
    assert r.is_error
    assert r.content.startswith("<tool_use_error>String to replace not found in file.\n")
    assert "line 2" in r.content and "the file indents these lines with tabs" in r.content
    assert r.content.endswith("String:     x := 1\n    return x</tool_use_error>")
    assert f.read_text() == "func f() {\n\tx := 1\n\treturn x\n}\n"


async def test_spaces_against_tabs_is_explained(tmp_path: Path, ctx: ToolContext) -> None:
    f = await made(ctx, tmp_path / "m.py", "if x:\n    y = 1\n")
    r = await edit(ctx, f, "if x:\n\ty = 1", "if x:\n\ty = 2")
    assert "indents these lines with spaces; old_string uses tabs" in r.content


async def test_trailing_whitespace_is_explained(tmp_path: Path, ctx: ToolContext) -> None:
    f = await made(ctx, tmp_path / "a.txt", "one  \ntwo\n")
    r = await edit(ctx, f, "one\ntwo", "1\n2")
    assert r.is_error and "String to replace not found in file." in r.content
    assert "end of some of these lines" in r.content and "line 1" in r.content
    assert f.read_text() == "one  \ntwo\n"


async def test_line_number_prefixes_are_explained(tmp_path: Path, ctx: ToolContext) -> None:
    f = await made(ctx, tmp_path / "a.txt", "alpha\nbeta\n")
    r = await edit(ctx, f, "1\talpha\n2\tbeta", "x")
    assert r.is_error and "line numbers" in r.content


async def test_straight_quotes_match_curly_ones(tmp_path: Path, ctx: ToolContext) -> None:
    f = await made(ctx, tmp_path / "a.md", "She said “hello” and it’s fine.\n")
    r = await edit(ctx, f, 'said "hello" and it\'s', 'said "bye" and it\'s')
    assert not r.is_error
    assert f.read_text() == "She said “bye” and it’s fine.\n"


# --- encodings and line endings --------------------------------------------


async def test_crlf_is_kept(tmp_path: Path, ctx: ToolContext) -> None:
    f = tmp_path / "w.txt"
    f.write_bytes(b"one\r\ntwo\r\nthree\r\n")
    await read(ctx, f)
    r = await edit(ctx, f, "one\ntwo", "1\n2\n2.5")
    assert not r.is_error
    assert f.read_bytes() == b"1\r\n2\r\n2.5\r\nthree\r\n"
    r = await edit(ctx, f, "three\r\n", "3\r\n")
    assert f.read_bytes() == b"1\r\n2\r\n2.5\r\n3\r\n"


async def test_utf8_bom_is_kept(tmp_path: Path, ctx: ToolContext) -> None:
    f = tmp_path / "b.txt"
    f.write_bytes(b"\xef\xbb\xbfcaf\xc3\xa9\n")
    await read(ctx, f)
    assert not (await edit(ctx, f, "café", "thé")).is_error
    assert f.read_bytes() == b"\xef\xbb\xbfth\xc3\xa9\n"


async def test_utf16_with_bom_round_trip(tmp_path: Path, ctx: ToolContext) -> None:
    f = await made(ctx, tmp_path / "u.txt", b"\xff\xfe" + "naïve\r\nline\r\n".encode("utf-16-le"))
    assert not (await edit(ctx, f, "naïve", "naive ☃")).is_error
    assert f.read_bytes() == b"\xff\xfe" + "naive ☃\r\nline\r\n".encode("utf-16-le")


async def test_latin1_round_trip(tmp_path: Path, ctx: ToolContext) -> None:
    f = tmp_path / "l.txt"
    f.write_bytes("größe = 1\n".encode("latin-1"))
    await read(ctx, f)
    assert not (await edit(ctx, f, "1", "2 # ½")).is_error
    assert f.read_bytes() == "größe = 2 # ½\n".encode("latin-1")
    r = await edit(ctx, f, "2", "☃")
    assert r.is_error and "latin-1" in r.content


async def test_file_mode_is_kept(tmp_path: Path, ctx: ToolContext) -> None:
    f = await made(ctx, tmp_path / "run.sh", "echo hi\n")
    f.chmod(0o751)
    mark_read(ctx, f)
    assert not (await edit(ctx, f, "hi", "bye")).is_error
    assert stat.S_IMODE(f.stat().st_mode) == 0o751


# --- schema and description ------------------------------------------------


def test_input_schema() -> None:
    schema = EditTool().input_schema()
    for prop in schema["properties"].values():
        assert prop.pop("description")
    assert schema == {
        "type": "object",
        "properties": {
            "file_path": {"type": "string"},
            "old_string": {"type": "string"},
            "new_string": {"type": "string"},
            "replace_all": {"type": "boolean", "default": False},
        },
        "required": ["file_path", "old_string", "new_string"],
        "additionalProperties": False,
    }


def test_unknown_keys_are_refused() -> None:
    with pytest.raises(ValidationError):
        EditInput.model_validate({"file_path": "/x", "old_string": "a", "new_string": "b", "z": 1})


def test_flags_and_description() -> None:
    tool = EditTool()
    inp = EditInput(file_path="/x", old_string="a", new_string="b")
    assert not tool.is_read_only(inp) and not tool.is_concurrency_safe(inp)
    text = tool.description()
    assert "Read" in text and "replace_all" in text and "line-number" in text
