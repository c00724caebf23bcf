from __future__ import annotations

from cc.tools.web.convert import Binary, to_text
from tests.tools.web.pages import PAGE


def test_html_becomes_markdown_without_scripts() -> None:
    assert to_text(PAGE, "text/html", "utf-8") == (
        "Widgets\n\n# Widget guide\n\nThe [spec](/spec) says **42 widgets**.\n\n- red\n- blue")


def test_tables_and_code_blocks_survive() -> None:
    html = b"<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>" \
           b"<pre><code>x = 1\ny = 2</code></pre>"
    assert to_text(html, "text/html", None) == (
        "| a | b |\n| --- | --- |\n| 1 | 2 |\n\n```\nx = 1\ny = 2\n```")


def test_text_json_and_markdown_pass_as_they_are() -> None:
    for kind in ("text/plain", "application/json", "text/markdown", "application/ld+json"):
        assert to_text(b"# a <b>", kind, None) == "# a <b>"


def test_charset_is_used() -> None:
    assert to_text("café".encode("latin-1"), "text/plain", "latin-1") == "café"


def test_binary_is_refused() -> None:
    assert to_text(b"\x89PNG", "image/png", None) == Binary("image/png")
    assert to_text(b"\x00\x01", "", None) == Binary("application/octet-stream")
    assert to_text(b"<!DOCTYPE html><p>hi</p>", "", None) == "hi"
