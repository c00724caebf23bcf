"""Assemble the system prompt from its sections.

The prompt is a list of sections, not one string: the seven static sections come first and
never change between requests or sessions (the cacheable prefix); the dynamic ones follow
(environment, language, output style, tools, memory index, CLAUDE.md), so CLAUDE.md
lands last, where it weighs most. An output style (`with_output_style`) rewords the intro,
may leave out the section on coding tasks, and adds its instructions after the
environment; it and the language are the same on every turn, so the prompt stays
byte-stable for the cache. Section text lives in `cc/prompts/sections/*.md`; dynamic ones are `string.Template`
files, and a paragraph of a template whose placeholder has no value is left out.
"""

from __future__ import annotations

import dataclasses
import os
import platform
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from string import Template
from typing import TYPE_CHECKING

from cc.prompts import load_text

if TYPE_CHECKING:
    from cc.prompts.output_styles import OutputStyle

_STATIC_SECTIONS = (
    ("intro", "01_intro.md"),
    ("system", "02_system.md"),
    ("doing_tasks", "03_doing_tasks.md"),
    ("actions_with_care", "04_actions_with_care.md"),
    ("using_tools", "05_using_tools.md"),
    ("tone_style", "06_tone_style.md"),
    ("output_efficiency", "07_output_efficiency.md"),
)


@dataclass(frozen=True)
class PromptSection:
    name: str
    text: str
    cacheable: bool  # part of the stable prefix that prompt caching can reuse
    #: How the section reads for another model (the environment section names it).
    for_model: Callable[[str], PromptSection] | None = field(default=None, compare=False,
                                                               repr=False)


@dataclass(frozen=True)
class PromptEnv:
    cwd: Path
    is_git_repo: bool
    platform: str  # sys.platform spelling, as Claude Code reports it: linux, darwin, win32
    shell: str
    os_version: str
    model: str
    today: date


def environment_for(cwd: Path, model: str, today: date | None = None) -> PromptEnv:
    """Facts about the session, gathered without starting a subprocess."""
    cwd = cwd.absolute()
    return PromptEnv(
        cwd=cwd,
        is_git_repo=_inside_git_repo(cwd),
        platform=sys.platform,
        shell=os.environ.get("SHELL") or os.environ.get("COMSPEC") or "unknown",
        os_version=f"{platform.system()} {platform.release()}".strip() or "unknown",
        model=model,
        today=today or date.today(),
    )


def build_system_prompt(
    env: PromptEnv,
    *,
    tool_names: Sequence[str],
    deferred_tool_names: Sequence[str] = (),
    claude_md: str | None = None,
    memory_index: str | None = None,
    memory_dir: Path | None = None,
    override: str | None = None,
    append: str | None = None,
    commit_trailer: str | None = None,
    pr_trailer: str | None = None,
    language: str | None = None,
    output_style: OutputStyle | None = None,
) -> list[PromptSection]:
    """The system prompt as ordered sections.

    `override` (`--system-prompt`) replaces every default section, CLAUDE.md included;
    `append` (`--append-system-prompt`) always comes last. `commit_trailer` and
    `pr_trailer` (settings `attribution`) are the lines git commits and pull request
    descriptions should end with; `language` (settings `language`) the language of
    the replies; `output_style` (settings `outputStyle`) how they are shaped.
    """
    if override is not None:
        sections = [PromptSection("override", override, cacheable=True)]
    else:
        sections = [
            PromptSection(name, _section_text(file), cacheable=True)
            for name, file in _STATIC_SECTIONS
        ]
        sections.append(environment_section(env, commit_trailer, pr_trailer))
        if language:
            sections.append(_dynamic("language", "13_language.md", {"language": language}))
        sections.append(
            _dynamic(
                "tools",
                "09_tools.md",
                {
                    "tool_names": _names(tool_names),
                    "deferred_tool_names": _names(deferred_tool_names),
                },
            )
        )
        if memory_index is not None and memory_index.strip():
            sections.append(
                _dynamic(
                    "memory",
                    "10_memory.md",
                    {
                        "memory_index": memory_index.strip("\n"),
                        "memory_dir": str(memory_dir) if memory_dir is not None else None,
                    },
                )
            )
        if claude_md is not None and claude_md.strip():
            sections.append(
                _dynamic("claude_md", "11_claude_md.md", {"claude_md": claude_md.strip("\n")})
            )
        if output_style is not None:
            sections = with_output_style(sections, output_style)
    if append is not None:
        sections.append(PromptSection("append", append, cacheable=False))
    return sections


def with_output_style(sections: Sequence[PromptSection],
                      style: OutputStyle) -> list[PromptSection]:
    """The same prompt under `style` (the default style: the usual prompt). A prompt
    that `--system-prompt` replaced (no intro section) is left as it is."""
    names = [s.name for s in sections]
    if "intro" not in names:
        return list(sections)
    out = [s for s in sections if s.name not in ("output_style", "doing_tasks")]
    intro = _section_text("01_intro.md")
    if not style.is_default:
        intro = _section_text("01_intro_styled.md") + "\n\n" + intro.split("\n\n", 1)[1]
    out[names.index("intro")] = PromptSection("intro", intro, cacheable=True)
    if style.keep_coding_instructions:
        file = dict(_STATIC_SECTIONS)["doing_tasks"]
        kept = [s.name for s in out]
        at = kept.index("system" if "system" in kept else "intro") + 1
        out.insert(at, PromptSection("doing_tasks", _section_text(file), cacheable=True))
    if not style.is_default:
        after = max((i for i, s in enumerate(out) if s.name in ("environment", "language")),
                    default=len(out) - 1)
        out.insert(after + 1, _dynamic("output_style", "12_output_style.md",
                                       {"name": style.name, "prompt": style.prompt}))
    return out


def build_subagent_prompt(env: PromptEnv, agent_prompt: str) -> list[PromptSection]:
    """A sub-agent's system prompt: its own text and the environment, nothing of the main
    prompt's sections (the launching agent's message says what to do)."""
    return [PromptSection("agent", agent_prompt.strip(), cacheable=True),
            environment_section(env, None)]


def environment_section(env: PromptEnv, commit_trailer: str | None,
                        pr_trailer: str | None = None) -> PromptSection:
    """The environment section; it says which model answers, and follows a change."""
    values = {**_environment_values(env), "commit_trailer": commit_trailer,
              "pr_trailer": pr_trailer}
    section = _dynamic("environment", "08_environment.md", values)
    return dataclasses.replace(section, for_model=lambda model: environment_section(
        dataclasses.replace(env, model=model), commit_trailer, pr_trailer))


def with_model(sections: Sequence[PromptSection], model: str) -> list[PromptSection]:
    """The same prompt, its model line saying `model`."""
    return [s.for_model(model) if s.for_model is not None else s for s in sections]


def render(sections: Iterable[PromptSection]) -> str:
    """The whole prompt as one string, sections separated by a blank line."""
    return "\n\n".join(section.text for section in sections)


def _section_text(file: str) -> str:
    return load_text(f"sections/{file}").strip()


def _dynamic(name: str, file: str, values: dict[str, str | None]) -> PromptSection:
    return PromptSection(name, fill(_section_text(file), values), cacheable=False)


def fill(template: str, values: dict[str, str | None]) -> str:
    """Substitute `values`, dropping each paragraph that uses a placeholder set to None."""
    kept = []
    for paragraph in template.split("\n\n"):
        piece = Template(paragraph)
        if any(values[name] is None for name in piece.get_identifiers()):
            continue
        kept.append(piece.substitute({k: v for k, v in values.items() if v is not None}))
    return "\n\n".join(kept)


def _environment_values(env: PromptEnv) -> dict[str, str | None]:
    return {
        "cwd": str(env.cwd),
        "is_git_repo": "Yes" if env.is_git_repo else "No",
        "platform": env.platform,
        "shell": env.shell,
        "os_version": env.os_version,
        "today": env.today.isoformat(),
        "model_name": model_display_name(env.model),
        "model_id": env.model,
    }


def _names(names: Sequence[str]) -> str | None:
    return ", ".join(names) if names else None


_NEW_STYLE = re.compile(r"claude-(opus|sonnet|haiku)-(\d+)(?:-(\d{1,2}))?(?:-\d{8})?(?:\[1m\])?")
_OLD_STYLE = re.compile(r"claude-(\d+)(?:-(\d{1,2}))?-(opus|sonnet|haiku)(?:-\d{8})?(?:-latest)?")


def model_display_name(model: str) -> str:
    """"Claude Sonnet 4.5" for `claude-sonnet-4-5-20250929`; the id itself when unknown."""
    if match := _NEW_STYLE.fullmatch(model):
        family, major, minor = match.groups()
        return f"Claude {family.title()} {major}{f'.{minor}' if minor else ''}"
    if match := _OLD_STYLE.fullmatch(model):
        major, minor, family = match.groups()
        return f"Claude {major}{f'.{minor}' if minor else ''} {family.title()}"
    return model


def _inside_git_repo(cwd: Path) -> bool:
    for folder in (cwd, *cwd.parents):
        try:
            if (folder / ".git").exists():
                return True
        except OSError:
            return False
    return False
