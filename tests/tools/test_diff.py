"""structuredPatch hunks and unified diff text."""

from __future__ import annotations

import difflib

from cc.tools.diff import (
    NO_NEWLINE,
    count_changes,
    describe_changes,
    structured_patch,
    unified_diff_text,
)


def test_matches_the_real_transcript_sample() -> None:
    old = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"
    new = old.replace("    return a - b", "    return a - b\n\n\ndef mul(a, b):\n    return a * b")
    assert structured_patch(old, new) == [
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
    ]


def test_replacement_in_the_middle_has_three_lines_of_context() -> None:
    old = "".join(f"{n}\n" for n in range(1, 11))
    new = old.replace("5\n", "five\n")
    assert structured_patch(old, new) == [
        {
            "oldStart": 2,
            "oldLines": 7,
            "newStart": 2,
            "newLines": 7,
            "lines": [" 2", " 3", " 4", "-5", "+five", " 6", " 7", " 8"],
        }
    ]


def test_far_apart_changes_make_two_hunks_and_near_ones_one() -> None:
    old = "".join(f"{n}\n" for n in range(1, 21))
    far = old.replace("2\n", "two\n", 1).replace("18\n", "eighteen\n")
    assert [h["oldStart"] for h in structured_patch(old, far)] == [1, 15]
    near = old.replace("2\n", "two\n", 1).replace("8\n", "eight\n", 1)
    assert len(structured_patch(old, near)) == 1


def test_equal_texts_have_no_hunks() -> None:
    assert structured_patch("a\nb\n", "a\nb\n") == []
    assert unified_diff_text("f", "a\n", "a\n") == ""


def test_from_and_to_an_empty_file() -> None:
    assert structured_patch("", "x\ny\n") == [
        {"oldStart": 1, "oldLines": 0, "newStart": 1, "newLines": 2, "lines": ["+x", "+y"]}
    ]
    assert structured_patch("x\n", "") == [
        {"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 0, "lines": ["-x"]}
    ]


def test_missing_final_newline_is_marked() -> None:
    [hunk] = structured_patch("a\nb", "a\nb\n")
    assert hunk["lines"] == [" a", "-b", NO_NEWLINE, "+b"]
    [hunk] = structured_patch("a\nb", "A\nb")
    assert hunk["lines"] == ["-a", "+A", " b", NO_NEWLINE]


def test_counts_and_description() -> None:
    hunks = structured_patch("a\nb\nc\n", "a\nB\nc\nd\n")
    assert count_changes(hunks) == (2, 1)
    assert describe_changes(hunks) == "2 additions and 1 removal"
    assert describe_changes(structured_patch("a\n", "b\n")) == "1 addition and 1 removal"


def test_unified_text_agrees_with_difflib() -> None:
    old = "".join(f"line {n}\n" for n in range(1, 30))
    new = old.replace("line 3\n", "").replace("line 20\n", "line 20\nnew\n")
    expected = "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True),
            new.splitlines(keepends=True),
            "src/a.py",
            "src/a.py",
            lineterm="\n",
        )
    )
    assert unified_diff_text("src/a.py", old, new) == expected


def test_unified_text_small_example() -> None:
    assert unified_diff_text("f.txt", "", "hi\n") == "--- f.txt\n+++ f.txt\n@@ -0,0 +1 @@\n+hi\n"
    assert unified_diff_text("f.txt", "a\nb\n", "a\nc\n") == (
        "--- f.txt\n+++ f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
    )
