"""A fetched body as text the model can read: HTML as Markdown (markdownify), text,
JSON, XML and Markdown as they are; anything else is binary and refused."""

from __future__ import annotations

import re
from dataclasses import dataclass

TEXT_TYPES = frozenset({
    "application/json", "application/xml", "application/javascript", "application/x-yaml",
    "application/yaml", "application/toml", "application/x-sh", "application/ld+json",
    "application/xhtml+xml", "application/rss+xml", "application/atom+xml",
})
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})


@dataclass(frozen=True)
class Binary:
    content_type: str


def is_text_type(content_type: str) -> bool:
    return (content_type.startswith("text/") or content_type in TEXT_TYPES
            or content_type.endswith(("+json", "+xml")))


def to_text(body: bytes, content_type: str, charset: str | None) -> str | Binary:
    """The body as Markdown or text; `Binary` for images, archives and the like."""
    if content_type and not is_text_type(content_type):
        return Binary(content_type)
    if not content_type and b"\x00" in body[:4096]:
        return Binary("application/octet-stream")
    text = body.decode(charset or "utf-8", errors="replace")
    if content_type in HTML_TYPES or (not content_type and _looks_like_html(text)):
        return html_to_markdown(text)
    return text


#: Elements whose text is not the page's (code, styles, hidden templates).
DROPPED = ("script", "style", "noscript", "template", "svg", "iframe")


def html_to_markdown(html: str) -> str:
    from bs4 import BeautifulSoup
    from markdownify import MarkdownConverter

    soup = BeautifulSoup(html, "html.parser")
    for element in soup.find_all(DROPPED):
        element.decompose()
    converter = MarkdownConverter(heading_style="ATX", bullets="-")
    markdown = converter.convert_soup(soup)
    return re.sub(r"\n{3,}", "\n\n", markdown).strip()


def _looks_like_html(text: str) -> bool:
    head = text.lstrip()[:200].lower()
    return head.startswith(("<!doctype html", "<html"))
