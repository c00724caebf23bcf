"""Custom slash commands: Markdown files whose body becomes the prompt.

    .claude/commands/review.md            /review            (project)
    .claude/commands/frontend/comp.md     /comp, /frontend:comp   (project:frontend)
    <config>/commands/commit.md           /commit            (user)

Frontmatter (YAML): `description`, `argument-hint`, `allowed-tools`, `model`,
`disable-model-invocation`, `arguments` (names for positional arguments).
Expansion, in order:
  1. arguments: `$ARGUMENTS` (all), `$ARGUMENTS[N]` and `$N` (0-based, split
     shell-style), named `$name`; `\\$` escapes; an unmatched `$N` stays as typed;
     without any placeholder the arguments are appended as "ARGUMENTS: …";
     `${CLAUDE_SESSION_ID}`, `${CLAUDE_PROJECT_DIR}`, `${CLAUDE_SKILL_DIR}`;
  2. `@path` mentions attach files (`mentions.py`);
  3. `` !`cmd` `` runs the command and puts its output in place (not re-scanned).
A project command beats a user command of the same name.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "CommandError", "CustomCommand", "ExpandedCommand", "expand_command", "load_custom_commands",
    "split_arguments", "split_frontmatter", "substitute_arguments",
]

from cc.config.env import commands_disabled, simple_mode
from cc.config.frontmatter import split_frontmatter, split_list
from cc.errors import CommandError
from cc.input.inline_bash import run_inline_bash
from cc.input.mentions import mention_blocks
from cc.models.content_blocks import TextBlock
from cc.models.messages import UserMessage

_PLACEHOLDER = re.compile(
    r"\\\$|\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS(?![\w\[])|\$(\d+)|\$\{(CLAUDE_[A-Z_]+)\}|\$([A-Za-z_]\w*)"
)


@dataclass(frozen=True)
class CustomCommand:
    name: str
    scope: str  #: "project" or "user"
    path: Path
    body: str
    namespace: str | None = None  #: the subfolder, e.g. "frontend"
    description: str = ""
    argument_hint: str | None = None
    allowed_tools: tuple[str, ...] = ()
    model: str | None = None
    disable_model_invocation: bool = False
    argument_names: tuple[str, ...] = ()
    #: A skill's folder (`cc.input.skills`); None for a command file.
    base_dir: Path | None = None

    @property
    def label(self) -> str:
        """What /help shows after the description: "(project)", "(user:git)",
        "(project skill)"."""
        if self.base_dir is not None:
            return f"({self.scope} skill)"
        return f"({self.scope}:{self.namespace})" if self.namespace else f"({self.scope})"

    @property
    def qualified_name(self) -> str:
        """`folder:name` for a command in a subfolder, else the name."""
        return f"{self.namespace}:{self.name}" if self.namespace else self.name


@dataclass(frozen=True)
class ExpandedCommand:
    command: CustomCommand
    args: str
    prompt: str  #: the body after expansion
    message: UserMessage  #: what goes to the model
    attachments: list[TextBlock] = field(default_factory=list)


def command_dirs(cwd: Path, config_dir: Path) -> list[tuple[str, Path]]:
    return [("project", cwd / ".claude" / "commands"), ("user", config_dir / "commands")]


def load_custom_commands(cwd: Path, config_dir: Path) -> list[CustomCommand]:
    """Every skill and command file found; of two with the same name and folder, a
    skill beats a command, and a project's beats a user's."""
    from cc.input.skills import load_skills

    found: dict[str, CustomCommand] = {s.name: s for s in load_skills(cwd, config_dir).skills}
    off = simple_mode() or commands_disabled()  # (--bare keeps skills, not command files)
    for scope, root in () if off else command_dirs(cwd, config_dir):
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*.md")):
            if not path.is_file():
                continue
            folder = path.parent.relative_to(root).as_posix()
            namespace = None if folder == "." else folder.replace("/", ":")
            try:
                command = parse_command_file(path, scope, namespace)
            except OSError:
                continue
            found.setdefault(command.qualified_name, command)
    return list(found.values())


def find_custom(commands: list[CustomCommand], name: str) -> CustomCommand | None:
    """The command `/name` runs: `folder:name` exactly, else a plain name (a skill
    before a command, a project's before a user's, one at the top before one in a
    folder)."""
    for command in commands:
        if command.namespace and command.qualified_name == name:
            return command
    plain = [c for c in commands if c.name == name]
    plain.sort(key=lambda c: (c.base_dir is None, c.namespace is not None,
                              c.scope != "project"))
    return plain[0] if plain else None


def parse_command_file(path: Path, scope: str, namespace: str | None = None) -> CustomCommand:
    meta, body = split_frontmatter(path.read_text(encoding="utf-8", errors="replace"))
    return command_from(meta, body, name=path.stem, scope=scope, path=path,
                        namespace=namespace, argument_names=tuple(_names(meta.get("arguments"))))


def command_from(meta: Mapping[str, Any], body: str, **fields: Any) -> CustomCommand:
    """A command (or skill) from its frontmatter's shared keys (`description`,
    `argument-hint`, `allowed-tools`, `model`, `disable-model-invocation`) and body, with
    `fields` (its name, scope, path…) beside them."""
    return CustomCommand(
        body=body,
        description=_text(meta.get("description")) or _first_line(body),
        argument_hint=_text(meta.get("argument-hint")) or None,
        allowed_tools=tuple(split_list(meta.get("allowed-tools"))),
        model=_text(meta.get("model")) or None,
        disable_model_invocation=_flag(meta.get("disable-model-invocation")),
        **fields,
    )


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def _flag(value: Any) -> bool:
    return value is True or str(value).strip().lower() in ("true", "yes", "1")


def _first_line(body: str) -> str:
    for line in body.splitlines():
        line = line.strip().lstrip("#").strip()
        if line:
            return line if len(line) <= 100 else line[:99] + "…"
    return ""


def _names(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(v).strip() for v in value if str(v).strip()]
    return _text(value).replace(",", " ").split()


# --- expansion ----------------------------------------------------------------------


def split_arguments(args: str) -> list[str]:
    """Shell-style words (`"hello world"` is one); unbalanced quotes fall back to spaces."""
    try:
        return shlex.split(args)
    except ValueError:
        return args.split()


def substitute_arguments(
    body: str,
    args: str,
    *,
    names: tuple[str, ...] = (),
    variables: Mapping[str, str] | None = None,
) -> str:
    """`body` with the argument placeholders filled in (step 1 above)."""
    words = split_arguments(args)
    variables = variables or {}
    used = False

    def fill(m: re.Match[str]) -> str:
        nonlocal used
        whole, index, number, var, name = m.group(0), m.group(1), m.group(2), m.group(3), m.group(4)
        if whole == "\\$":
            return "$"
        if var is not None:
            return variables.get(var, whole)
        if name is not None:
            if name in names:
                used = True
                i = names.index(name)
                return words[i] if i < len(words) else ""
            return whole
        used = True
        if index is not None:
            i = int(index)
            return words[i] if i < len(words) else ""
        if number is not None:
            i = int(number)
            return words[i] if i < len(words) else whole
        return args

    out = _PLACEHOLDER.sub(fill, body)
    if not used and args.strip():
        out = out.rstrip("\n") + f"\n\nARGUMENTS: {args.strip()}"
    return out


def command_tags(command: CustomCommand, args: str) -> str:
    """How a slash invocation is recorded in the conversation (Claude Code's tags)."""
    return (
        f"<command-name>/{command.name}</command-name>\n"
        f"<command-message>{command.name}</command-message>\n"
        f"<command-args>{args}</command-args>"
    )


async def expand_command(
    command: CustomCommand,
    args: str,
    *,
    cwd: Path,
    session_id: str = "",
    permit: Callable[[str], Awaitable[bool]] | None = None,
) -> ExpandedCommand:
    """The prompt and user message for `/name args`. Raises CommandError."""
    variables = {
        "CLAUDE_SESSION_ID": session_id,
        "CLAUDE_PROJECT_DIR": str(cwd),
        "CLAUDE_SKILL_DIR": str(command.base_dir or command.path.parent),
    }
    text = substitute_arguments(
        command.body, args.strip(), names=command.argument_names, variables=variables
    )
    if command.base_dir is not None:  # a skill says where its files are
        from cc.input.skills import base_line

        text = f"{base_line(command.base_dir)}\n\n{text.strip()}"
    attachments = mention_blocks(text, cwd)
    text = await run_inline_bash(text, cwd, permit=permit)
    blocks = [TextBlock(command_tags(command, args.strip()))]
    if text.strip():
        blocks.append(TextBlock(text))
    message = UserMessage([*blocks, *attachments])
    return ExpandedCommand(command, args.strip(), text, message, attachments)
