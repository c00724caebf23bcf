"""The Read tool on real files."""

from __future__ import annotations

import base64
import os
import struct
import zlib
from pathlib import Path

import pytest
from pydantic import ValidationError

from cc.tools.base import ToolContext, ToolResult
from cc.tools.read import ReadInput, ReadTool
from tests.privileges import unprivileged


def make_png(width: int = 2, height: int = 1) -> bytes:
    """A real, valid RGB PNG built by hand."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    rows = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


@pytest.fixture
def ctx(tmp_path: Path) -> ToolContext:
    return ToolContext(cwd=tmp_path)


async def read(ctx: ToolContext, file_path: str | Path, **kw: object) -> ToolResult:
    return await ReadTool().call(ReadInput(file_path=str(file_path), **kw), ctx)


def write(path: Path, data: str | bytes) -> Path:
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return path


# --- text -----------------------------------------------------------------


async def test_matches_the_real_sample(tmp_path: Path, ctx: ToolContext) -> None:
    f = write(tmp_path / "README.md", "# Demo\nThis project computes primes.\n")
    r = await read(ctx, f)
    assert not r.is_error
    assert r.content == "1\t# Demo\n2\tThis project computes primes.\n3\t"
    assert r.data == {
        "type": "text",
        "file": {
            "filePath": str(f),
            "content": "# Demo\nThis project computes primes.\n",
            "numLines": 3,
            "startLine": 1,
            "totalLines": 3,
        },
    }
    assert r.summary == "Read 3 lines"


async def test_no_trailing_newline(tmp_path: Path, ctx: ToolContext) -> None:
    r = await read(ctx, write(tmp_path / "a.txt", "a\nb"))
    assert r.content == "1\ta\n2\tb"
    assert r.data["file"]["totalLines"] == 2
    assert r.data["file"]["content"] == "a\nb"


async def test_crlf_stripped_in_display_only(tmp_path: Path, ctx: ToolContext) -> None:
    r = await read(ctx, write(tmp_path / "w.txt", "one\r\ntwo\r\n"))
    assert r.content == "1\tone\n2\ttwo\n3\t"
    assert r.data["file"]["content"] == "one\r\ntwo\r\n"


async def test_offset_and_limit_window(tmp_path: Path, ctx: ToolContext) -> None:
    f = write(tmp_path / "n.txt", "".join(f"line{i}\n" for i in range(1, 11)))
    r = await read(ctx, f, offset=3, limit=2)
    assert r.content.startswith("3\tline3\n4\tline4\n\n<system-reminder>")
    assert "11 lines" in r.content and "offset" in r.content
    assert r.data["file"] == {
        "filePath": str(f),
        "content": "line3\nline4",
        "numLines": 2,
        "startLine": 3,
        "totalLines": 11,
    }
    assert r.summary == "Read 2 lines"


async def test_window_to_the_end_has_no_note(tmp_path: Path, ctx: ToolContext) -> None:
    f = write(tmp_path / "n.txt", "a\nb\nc\n")
    r = await read(ctx, f, offset=2)
    assert r.content == "2\tb\n3\tc\n4\t"
    assert r.data["file"]["startLine"] == 2
    # Only the empty line after the final newline is left: not worth a note.
    r = await read(ctx, f, limit=3)
    assert r.content == "1\ta\n2\tb\n3\tc"


async def test_offset_zero_means_one(tmp_path: Path, ctx: ToolContext) -> None:
    r = await read(ctx, write(tmp_path / "z.txt", "x\ny"), offset=0)
    assert r.content == "1\tx\n2\ty"
    assert r.data["file"]["startLine"] == 1


async def test_default_limit_is_2000_lines(tmp_path: Path, ctx: ToolContext) -> None:
    f = write(tmp_path / "long.txt", "".join(f"{i}\n" for i in range(1, 2501)))
    r = await read(ctx, f)
    assert isinstance(r.content, str)
    body, note = r.content.split("\n\n")
    assert body.splitlines()[-1] == "2000\t2000"
    assert len(body.splitlines()) == 2000
    assert "2501 lines" in note and note.startswith("<system-reminder>")
    assert r.data["file"]["numLines"] == 2000
    assert r.data["file"]["totalLines"] == 2501


async def test_long_lines_are_cut(tmp_path: Path, ctx: ToolContext) -> None:
    f = write(tmp_path / "wide.txt", "x" * 2500 + "\nshort")
    r = await read(ctx, f)
    first, second = r.content.split("\n")
    assert first.startswith("1\t" + "x" * 2000)
    assert "x" * 2001 not in first
    assert first.endswith("[line truncated]")
    assert second == "2\tshort"
    assert r.data["file"]["content"].startswith("x" * 2500)


async def test_empty_file_warns(tmp_path: Path, ctx: ToolContext) -> None:
    f = write(tmp_path / "empty.txt", "")
    r = await read(ctx, f)
    assert not r.is_error
    assert r.content.startswith("<system-reminder>") and "empty" in r.content
    assert r.data["file"]["numLines"] == 0
    assert r.data["file"]["content"] == ""
    assert str(f) in ctx.read_files


async def test_offset_past_end_warns(tmp_path: Path, ctx: ToolContext) -> None:
    f = write(tmp_path / "s.txt", "a\nb\nc")
    r = await read(ctx, f, offset=10)
    assert not r.is_error
    assert r.content.startswith("<system-reminder>")
    assert "shorter" in r.content and "10" in r.content and "3 lines" in r.content
    assert r.data["file"]["numLines"] == 0
    assert r.data["file"]["totalLines"] == 3


async def test_bom_stripped_and_bad_bytes_survive(tmp_path: Path, ctx: ToolContext) -> None:
    r = await read(ctx, write(tmp_path / "bom.txt", b"\xef\xbb\xbfhello\n"))
    assert r.content == "1\thello\n2\t"
    r = await read(ctx, write(tmp_path / "latin.txt", b"caf\xe9\n"))
    assert r.content == "1\tcafé\n2\t"
    r = await read(ctx, write(tmp_path / "utf8.txt", "naïve ✓"))
    assert r.content == "1\tnaïve ✓"


async def test_relative_path_uses_cwd(tmp_path: Path, ctx: ToolContext) -> None:
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub" / "r.txt", "rel")
    r = await read(ctx, "sub/r.txt")
    assert r.content == "1\trel"
    assert r.data["file"]["filePath"] == str(tmp_path / "sub" / "r.txt")


async def test_success_records_the_read(tmp_path: Path, ctx: ToolContext) -> None:
    f = write(tmp_path / "rec.txt", "a\nb\nc\n")
    await read(ctx, f, offset=2, limit=1)
    record = ctx.read_files[str(f)]
    assert record.mtime_ns == os.stat(f).st_mtime_ns
    assert (record.offset, record.limit) == (2, 1)


# --- errors ---------------------------------------------------------------


async def test_missing_file(tmp_path: Path, ctx: ToolContext) -> None:
    r = await read(ctx, tmp_path / "nope.txt")
    assert r.is_error
    assert r.content.startswith("<tool_use_error>File does not exist.")
    assert "Did you mean" not in r.content
    assert not ctx.read_files


async def test_missing_file_suggests_similar_name(tmp_path: Path, ctx: ToolContext) -> None:
    write(tmp_path / "Config.yaml", "k: v")
    r = await read(ctx, tmp_path / "config.yml")
    assert r.is_error
    assert f"Did you mean {tmp_path / 'Config.yaml'}?" in r.content


async def test_directory_is_refused(tmp_path: Path, ctx: ToolContext) -> None:
    r = await read(ctx, tmp_path)
    assert r.is_error
    assert "directory" in r.content and "ls" in r.content and "Glob" in r.content


async def test_special_files_are_refused(tmp_path: Path, ctx: ToolContext) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    r = await read(ctx, fifo)  # would block forever if opened
    assert r.is_error and "not a regular file" in r.content


async def test_permission_denied(open_tmp: Path, ctx: ToolContext) -> None:
    f = write(open_tmp / "secret.txt", "s")
    f.chmod(0)
    with unprivileged():  # as root too: the file is really unreadable
        r = await read(ctx, f)
    assert r.is_error and "Permission denied" in r.content


async def test_binary_by_content(tmp_path: Path, ctx: ToolContext) -> None:
    r = await read(ctx, write(tmp_path / "blob.txt", b"abc\x00def"))
    assert r.is_error and "binary" in r.content
    assert not ctx.read_files


async def test_binary_by_extension(tmp_path: Path, ctx: ToolContext) -> None:
    r = await read(ctx, write(tmp_path / "a.zip", b"PK\x03\x04 looks like text"))
    assert r.is_error and "binary" in r.content


async def test_pdf_not_supported(tmp_path: Path, ctx: ToolContext) -> None:
    r = await read(ctx, write(tmp_path / "doc.pdf", b"%PDF-1.4\n"), pages="1-2")
    assert r.is_error and "PDF" in r.content


async def test_pages_ignored_for_text(tmp_path: Path, ctx: ToolContext) -> None:
    r = await read(ctx, write(tmp_path / "t.txt", "hi"), pages="1-3")
    assert r.content == "1\thi"


async def test_oversize_needs_offset_or_limit(tmp_path: Path, ctx: ToolContext) -> None:
    f = write(tmp_path / "big.txt", ("y" * 99 + "\n") * 3000)  # ~293 KB
    r = await read(ctx, f)
    assert r.is_error
    assert "293 KB" in r.content and "offset" in r.content and "limit" in r.content
    r = await read(ctx, f, offset=2999, limit=5)
    assert not r.is_error
    assert r.content == f"2999\t{'y' * 99}\n3000\t{'y' * 99}\n3001\t"


# --- images ---------------------------------------------------------------


async def test_png_image(tmp_path: Path, ctx: ToolContext) -> None:
    png = make_png()
    f = write(tmp_path / "dot.png", png)
    r = await read(ctx, f)
    assert not r.is_error
    b64 = base64.b64encode(png).decode()
    assert r.content == [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": b64}}
    ]
    assert r.data == {
        "type": "image",
        "file": {"base64": b64, "type": "image/png", "originalSize": len(png)},
    }
    assert str(f) in ctx.read_files


async def test_media_type_comes_from_the_bytes(tmp_path: Path, ctx: ToolContext) -> None:
    r = await read(ctx, write(tmp_path / "really_png.jpg", make_png()))
    assert r.content[0]["source"]["media_type"] == "image/png"
    r = await read(ctx, write(tmp_path / "g.gif", b"GIF89a" + b"\x00" * 20))
    assert r.data["file"]["type"] == "image/gif"


async def test_fake_image_is_refused(tmp_path: Path, ctx: ToolContext) -> None:
    r = await read(ctx, write(tmp_path / "fake.png", "just text"))
    assert r.is_error and "image" in r.content


async def test_huge_image_is_refused(tmp_path: Path, ctx: ToolContext) -> None:
    f = write(tmp_path / "huge.png", make_png() + b"\x00" * (5 * 1024 * 1024))
    r = await read(ctx, f)
    assert r.is_error and "MB" in r.content and "resize" in r.content


# --- input ----------------------------------------------------------------


def test_tool_flags() -> None:
    tool = ReadTool()
    inp = ReadInput(file_path="/x")
    assert tool.name == "Read"
    assert tool.is_read_only(inp) and tool.is_concurrency_safe(inp)
    assert tool.description().startswith("Reads a file")


def test_input_schema() -> None:
    schema = ReadTool().input_schema()
    for prop in schema["properties"].values():
        assert prop.pop("description")
    assert schema == {
        "type": "object",
        "properties": {
            "file_path": {"type": "string"},
            "offset": {"type": "integer", "minimum": 0},
            "limit": {"type": "integer", "exclusiveMinimum": 0},
            "pages": {"type": "string"},
        },
        "required": ["file_path"],
        "additionalProperties": False,
    }


@pytest.mark.parametrize(
    "bad",
    [
        {},
        {"file_path": 3},
        {"file_path": "/x", "limit": 0},
        {"file_path": "/x", "offset": -1},
        {"file_path": "/x", "unknown": True},
    ],
)
def test_bad_input_is_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        ReadInput.model_validate(bad)


async def test_utf16_file_with_bom_is_text(tmp_path: Path) -> None:
    path = tmp_path / "wide.txt"
    path.write_bytes(b"\xff\xfe" + "hello\nwörld\n".encode("utf-16-le"))
    ctx = ToolContext(cwd=tmp_path)
    result = await ReadTool().call(ReadInput(file_path=str(path)), ctx)
    assert not result.is_error
    assert result.content == "1\thello\n2\twörld\n3\t"
