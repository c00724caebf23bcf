"""`@path` mentions attach file contents to the user message."""

from __future__ import annotations

from pathlib import Path

from cc.input.mentions import expand_mentions, find_mentions, project_files
from cc.models.content_blocks import TextBlock


def texts(message: object) -> list[str]:
    return [b.text for b in message.content if isinstance(b, TextBlock)]  # type: ignore[attr-defined]


def test_file_mention_attaches_numbered_contents(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src/calc.py").write_text("def add(a, b):\n    return a - b\n")
    message = expand_mentions("fix @src/calc.py, please", tmp_path)
    assert texts(message) == [
        "fix @src/calc.py, please",
        "<system-reminder>\nContents of src/calc.py:\n1\tdef add(a, b):\n2\t    return a - b\n"
        "3\t\n</system-reminder>",
    ]


def test_missing_paths_emails_and_duplicates(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("A")
    message = expand_mentions("mail me@example.com about @nope.txt and @a.txt and @a.txt", tmp_path)
    assert texts(message)[1:] == ["<system-reminder>\nContents of a.txt:\n1\tA\n</system-reminder>"]


def test_quoted_path_line_range_and_absolute(tmp_path: Path) -> None:
    f = tmp_path / "my file.txt"
    f.write_text("".join(f"line {i}\n" for i in range(1, 11)))
    (m,) = find_mentions('see @"my file.txt"', tmp_path)
    assert m.path == f
    ranged = expand_mentions(f'look at @"{f}"#L3-4', tmp_path / "elsewhere")
    assert texts(ranged)[1] == (
        f"<system-reminder>\nContents of {f} (lines 3-4):\n3\tline 3\n4\tline 4\n</system-reminder>"
    )


def test_folder_gets_a_listing_and_binary_a_note(tmp_path: Path) -> None:
    (tmp_path / "pkg/sub").mkdir(parents=True)
    (tmp_path / "pkg/a.py").write_text("")
    (tmp_path / "pkg/.git").mkdir()
    (tmp_path / "blob.bin").write_bytes(b"\x00\x01\x02")
    out = texts(expand_mentions("@pkg/ and @blob.bin", tmp_path))
    assert out[1] == "<system-reminder>\nContents of the folder pkg/:\n- a.py\n- sub/\n</system-reminder>"
    assert out[2] == "<system-reminder>\nblob.bin is a binary file; its contents are not included.\n</system-reminder>"


def test_project_files_skip_git_and_node_modules(tmp_path: Path) -> None:
    for p in ("src/a.py", ".git/config", "node_modules/x/index.js", "README.md"):
        (tmp_path / p).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / p).write_text("")
    assert project_files(tmp_path) == ["src/", "README.md", "src/a.py"]


def test_project_files_honour_gitignore_unless_told_not_to(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("*.log\nbuild/\n")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "out.bin").write_text("x")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / ".gitignore").write_text("secret.py\n")
    for name in ("app.log", "src/a.py", "src/secret.py"):
        (tmp_path / name).write_text("x")
    assert project_files(tmp_path) == ["src/", ".gitignore", "src/.gitignore", "src/a.py"]
    assert project_files(tmp_path, respect_gitignore=False) == [
        "build/", "src/", ".gitignore", "app.log", "build/out.bin", "src/.gitignore",
        "src/a.py", "src/secret.py"]
