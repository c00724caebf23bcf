"""Frontmatter of Markdown files: strict parsing for agent files, lenient for commands."""

from __future__ import annotations

import pytest

from cc.config.frontmatter import FrontmatterError, parse_frontmatter, split_frontmatter, split_list


def test_mapping_and_body() -> None:
    meta, body = parse_frontmatter("---\nname: r\ntools:\n  - Read\n  - Bash\n---\nBody\n")
    assert meta == {"name": "r", "tools": ["Read", "Bash"]}
    assert body == "Body\n"


def test_no_frontmatter_or_an_empty_one() -> None:
    assert parse_frontmatter("just text\n---\n") == ({}, "just text\n---\n")
    assert parse_frontmatter("---\n\n---\nbody") == ({}, "body")


def test_a_plain_value_holding_a_colon_is_read_as_text() -> None:
    meta, _ = parse_frontmatter("---\ndescription: Use when: tests fail\nmodel: haiku\n---\n")
    assert meta == {"description": "Use when: tests fail", "model": "haiku"}


@pytest.mark.parametrize("raw, problem", [
    ("tools: [Read, Bash\n", "line"),
    ("- just\n- a list\n", "not a mapping"),
    ("name: x\n  bad: indent\n", "line 3"),
])
def test_what_is_not_a_mapping_raises(raw: str, problem: str) -> None:
    with pytest.raises(FrontmatterError, match=problem):
        parse_frontmatter(f"---\n{raw}---\nbody")


def test_split_frontmatter_falls_back_to_key_value_lines() -> None:
    meta, body = split_frontmatter("---\ntools: [Read\nmodel: opus\n---\nbody")
    assert meta == {"tools": "[Read", "model": "opus"} and body == "body"


def test_split_list() -> None:
    assert split_list("Read, Bash(git add:*, git commit:*),Grep") == [
        "Read", "Bash(git add:*, git commit:*)", "Grep"]
    assert split_list([" Read", "", "Bash"]) == ["Read", "Bash"]
    assert split_list(None) == [] and split_list("") == []
