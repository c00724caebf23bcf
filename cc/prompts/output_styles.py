"""Output styles: how the agent shapes its replies (settings `outputStyle`).

    built-in   default (no style: the usual prompt), Explanatory, Learning
               (`cc/prompts/output_styles/*.md`, our own words)
    user       <config>/output-styles/*.md
    project    <cwd>/.claude/output-styles/*.md

A style file is Markdown with frontmatter `name` (else the file's stem), `description`
and `keep-coding-instructions` (default false: the prompt's section on doing coding
tasks is left out); its body is the style's instructions. A later source replaces an
earlier style of the same name. A file that cannot be read or whose frontmatter is
broken is skipped with a warning that names it; the other styles stay.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cc.config.frontmatter import FrontmatterError, parse_frontmatter
from cc.prompts import load_text

DEFAULT_STYLE = "default"
BUILT_IN = ("Explanatory", "Learning")
DEFAULT_DESCRIPTION = "The usual way of working: gets the task done, with short replies"


@dataclass(frozen=True)
class OutputStyle:
    name: str
    description: str
    #: The style's instructions; empty for the default style.
    prompt: str
    keep_coding_instructions: bool
    source: str  # "built-in", "user" or "project"
    path: Path | None = None

    @property
    def is_default(self) -> bool:
        return self.name == DEFAULT_STYLE


DEFAULT = OutputStyle(DEFAULT_STYLE, DEFAULT_DESCRIPTION, "", True, "built-in")


def style_folders(cwd: Path, config_dir: Path) -> dict[str, Path]:
    return {"user": config_dir / "output-styles", "project": cwd / ".claude" / "output-styles"}


def load_styles(cwd: Path, config_dir: Path) -> tuple[list[OutputStyle], list[str]]:
    """Every style by name (default first, then built-in, user and project ones), and
    a warning for each file skipped."""
    found: dict[str, OutputStyle] = {DEFAULT_STYLE: DEFAULT}
    for name in BUILT_IN:
        style, _ = _parse(load_text(f"output_styles/{name}.md"), name, "built-in", None)
        found[name.lower()] = style
    warnings: list[str] = []
    for source, folder in style_folders(cwd, config_dir).items():
        try:
            paths = sorted(folder.glob("*.md"))
        except OSError:
            continue
        for path in paths:
            try:
                text = path.read_text(encoding="utf-8-sig")
            except (OSError, UnicodeDecodeError) as exc:
                warnings.append(f"Skipped output style {path}: {getattr(exc, 'strerror', None) or exc}")
                continue
            style, problem = _parse(text, path.stem, source, path)
            if problem is not None:
                warnings.append(f"Skipped output style {path}: {problem}")
                continue
            if style.name.lower() == DEFAULT_STYLE:
                warnings.append(f"Skipped output style {path}: \"default\" is the name of "
                                "the usual style")
                continue
            found[style.name.lower()] = style
    return list(found.values()), warnings


def find_style(styles: list[OutputStyle], name: str) -> OutputStyle | None:
    """The style called `name` (exact spelling first, then any case)."""
    for style in styles:
        if style.name == name:
            return style
    return next((s for s in styles if s.name.lower() == name.strip().lower()), None)


def resolve_style(name: object, cwd: Path, config_dir: Path) -> tuple[OutputStyle, list[str]]:
    """The style settings' `outputStyle` names (the default when unset), and warnings:
    a style that does not exist or a value that is not a name gives the default."""
    if name is None:
        return DEFAULT, []
    if not isinstance(name, str) or not name.strip():
        return DEFAULT, [f"outputStyle must be the name of an output style, not {name!r}; "
                         "using the default style"]
    styles, warnings = load_styles(cwd, config_dir)
    style = find_style(styles, name)
    if style is None:
        known = ", ".join(s.name for s in styles)
        return DEFAULT, [*warnings, f'Output style "{name}" not found (there are: {known}); '
                                    "using the default style"]
    return style, warnings


def _parse(text: str, stem: str, source: str,
           path: Path | None) -> tuple[OutputStyle, str | None]:
    try:
        meta, body = parse_frontmatter(text)
    except FrontmatterError as exc:
        return DEFAULT, str(exc)
    name = _text(meta.get("name")) or stem
    description = _text(meta.get("description")) or f"Custom {source} output style"
    keep = _flag(meta.get("keep-coding-instructions"))
    if keep is None:
        return DEFAULT, "keep-coding-instructions must be true or false"
    prompt = body.strip()
    if not prompt:
        return DEFAULT, "the style has no instructions (the file's body is empty)"
    return OutputStyle(name, description, prompt, keep, source, path), None


def _text(value: Any) -> str:
    return str(value).strip() if isinstance(value, (str, int, float)) else ""


def _flag(value: Any) -> bool | None:
    if value is None:
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return None
