"""The Write tool on real files."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from pydantic import ValidationError

from cc.tools.base import FileReadRecord, ToolContext, ToolResult
from cc.tools.edit import EditInput, EditTool
from cc.tools.write import WriteInput, WriteTool
from tests.tools.conftest import NOT_READ
from tests.tools.conftest import read_first as read


async def write(ctx: ToolContext, path: Path | str, content: str) -> ToolResult:
    return await WriteTool().call(WriteInput(file_path=str(path), content=content), ctx)


async def test_create_matches_the_real_sample(tmp_path: Path, ctx: ToolContext) -> None:
    f = tmp_path / "f.txt"
    r = await write(ctx, f, "x\n")
    assert not r.is_error
    assert r.content == f"File created successfully at: {f}"
    assert r.data == {
        "type": "create",
        "filePath": str(f),
        "content": "x\n",
        "structuredPatch": [],
        "originalFile": None,
    }
    assert r.summary == "Wrote 1 line to f.txt"
    assert f.read_bytes() == b"x\n"


async def test_create_makes_parent_folders_and_keeps_line_endings(
    tmp_path: Path, ctx: ToolContext
) -> None:
    f = tmp_path / "a" / "b" / "c.txt"
    assert not (await write(ctx, "a/b/c.txt", "one\r\ntwo\r\n")).is_error
    assert f.read_bytes() == b"one\r\ntwo\r\n"


async def test_overwrite_needs_a_read(tmp_path: Path, ctx: ToolContext) -> None:
    f = tmp_path / "a.txt"
    f.write_text("old\n")
    r = await write(ctx, f, "new\n")
    assert r.is_error and r.content == NOT_READ
    assert f.read_text() == "old\n"


async def test_overwrite_after_read(tmp_path: Path, ctx: ToolContext) -> None:
    f = tmp_path / "a.txt"
    f.write_text("a\nb\nc\n")
    await read(ctx, f)
    r = await write(ctx, f, "a\nB\nc\n")
    assert not r.is_error
    assert r.content == f"The file {f} has been updated successfully."
    assert r.data == {
        "type": "update",
        "filePath": str(f),
        "content": "a\nB\nc\n",
        "structuredPatch": [
            {
                "oldStart": 1,
                "oldLines": 3,
                "newStart": 1,
                "newLines": 3,
                "lines": [" a", "-b", "+B", " c"],
            }
        ],
        "originalFile": "a\nb\nc\n",
    }
    assert r.summary == "Updated a.txt with 1 addition and 1 removal"
    assert f.read_text() == "a\nB\nc\n"


async def test_stale_file_is_refused(tmp_path: Path, ctx: ToolContext) -> None:
    f = tmp_path / "a.txt"
    f.write_text("a\n")
    await read(ctx, f)
    st = f.stat()
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    r = await write(ctx, f, "b\n")
    assert r.is_error and "modified" in r.content and "Read it again" in r.content
    assert f.read_text() == "a\n"


async def test_written_file_can_be_edited_and_rewritten(tmp_path: Path, ctx: ToolContext) -> None:
    f = tmp_path / "a.txt"
    assert not (await write(ctx, f, "one\n")).is_error
    inp = EditInput(file_path=str(f), old_string="one", new_string="two")
    assert not (await EditTool().call(inp, ctx)).is_error
    assert not (await write(ctx, f, "three\n")).is_error
    assert f.read_text() == "three\n"


async def test_overwrite_keeps_crlf(tmp_path: Path, ctx: ToolContext) -> None:
    f = tmp_path / "w.txt"
    f.write_bytes(b"a\r\nb\r\n")
    await read(ctx, f)
    assert not (await write(ctx, f, "x\ny\n")).is_error
    assert f.read_bytes() == b"x\r\ny\r\n"


async def test_overwrite_keeps_bom_and_utf16(tmp_path: Path, ctx: ToolContext) -> None:
    f = tmp_path / "b.txt"
    f.write_bytes(b"\xef\xbb\xbfold\n")
    await read(ctx, f)
    assert not (await write(ctx, f, "new é\n")).is_error
    assert f.read_bytes() == b"\xef\xbb\xbfnew \xc3\xa9\n"

    g = tmp_path / "u.txt"
    g.write_bytes(b"\xfe\xff" + "old\n".encode("utf-16-be"))
    ctx.read_files[str(g)] = FileReadRecord(g.stat().st_mtime_ns)
    r = await write(ctx, g, "neu ☃\n")
    assert not r.is_error and r.data["originalFile"] == "old\n"
    assert g.read_bytes() == b"\xfe\xff" + "neu ☃\n".encode("utf-16-be")


async def test_latin1_round_trip_and_upgrade(tmp_path: Path, ctx: ToolContext) -> None:
    f = tmp_path / "l.txt"
    f.write_bytes("größe\n".encode("latin-1"))
    await read(ctx, f)
    assert not (await write(ctx, f, "Größe\n")).is_error
    assert f.read_bytes() == "Größe\n".encode("latin-1")
    # Text latin-1 cannot hold makes the file UTF-8 rather than failing.
    assert not (await write(ctx, f, "☃\n")).is_error
    assert f.read_bytes() == "☃\n".encode()


async def test_file_mode_is_kept(tmp_path: Path, ctx: ToolContext) -> None:
    f = tmp_path / "run.sh"
    f.write_text("echo hi\n")
    f.chmod(0o700)
    await read(ctx, f)
    assert not (await write(ctx, f, "echo bye\n")).is_error
    assert stat.S_IMODE(f.stat().st_mode) == 0o700


async def test_symlink_is_followed_not_replaced(tmp_path: Path, ctx: ToolContext) -> None:
    real = tmp_path / "real.txt"
    real.write_text("a\n")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    await read(ctx, link)
    assert not (await write(ctx, link, "b\n")).is_error
    assert link.is_symlink() and real.read_text() == "b\n"


async def test_directory_is_refused(tmp_path: Path, ctx: ToolContext) -> None:
    r = await write(ctx, tmp_path, "x")
    assert r.is_error and "directory" in r.content


def test_input_schema() -> None:
    schema = WriteTool().input_schema()
    for prop in schema["properties"].values():
        assert prop.pop("description")
    assert schema == {
        "type": "object",
        "properties": {"file_path": {"type": "string"}, "content": {"type": "string"}},
        "required": ["file_path", "content"],
        "additionalProperties": False,
    }


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValidationError):
        WriteInput.model_validate({"file_path": "/x"})


def test_flags_and_description() -> None:
    tool = WriteTool()
    inp = WriteInput(file_path="/x", content="")
    assert not tool.is_read_only(inp) and not tool.is_concurrency_safe(inp)
    text = tool.description()
    assert "Read" in text and "Edit" in text and "README" in text


def test_write_bytes_writes_the_resolved_target_and_keeps_the_link(tmp_path: Path) -> None:
    from cc.tools import file_io

    outside = tmp_path / "outside.txt"
    outside.write_text("keep")
    link = tmp_path / "link.txt"
    link.symlink_to(outside)
    # The resolved target is written, never a link found at open time.
    file_io.write_bytes(link, b"new")
    assert outside.read_text() == "new" and link.is_symlink()
