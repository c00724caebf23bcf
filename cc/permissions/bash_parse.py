"""Shell commands, parsed with tree-sitter-bash into the simple commands they would run.

Every simple command counts, wherever it sits: in a list (`&&`, `||`, `;`, `&`, newlines),
a pipeline (`|`, `|&`), a subshell, a `{ }` group, a loop or `if`, or nested inside an
argument or a double-quoted string as `$(…)`, backticks or `<(…)`/`>(…)`. Redirections
are collected with the commands they apply to. A tree with ERROR or MISSING nodes is
reported as `error`, and callers must not trust it.

tree-sitter is imported on first use, so start-up does not pay for it.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Language, Node, Parser

_NESTING = frozenset({
    "command_substitution", "process_substitution", "subshell", "compound_statement",
    "if_statement", "while_statement", "for_statement", "c_style_for_statement",
    "case_statement", "function_definition",
})
_SUBSTITUTIONS = frozenset({"command_substitution", "process_substitution"})
_REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})
_WRITE_OPS = frozenset({">", ">>", "&>", "&>>", ">|"})
_GLOB = re.compile(r"(?<!\\)[*?\[]")
#: What `<(…)` is, as an argument: the pipe the shell hands the command.
PIPE_PATH = "/dev/fd/63"
_BRACE = re.compile(r"\{[^{}]*(?:,|\.\.)[^{}]*\}")


@dataclass(frozen=True)
class Word:
    """One shell word: its source text and, when known before it runs, its value."""

    raw: str
    #: None when the word holds an expansion or substitution (its value is not known).
    value: str | None
    #: Unquoted `*`, `?` or `[`: the shell expands it as a file pattern.
    glob: bool = False
    #: Starts with an unquoted `~/` (or is `~`): relative to the home folder.
    tilde: bool = False

    @property
    def text(self) -> str:
        return self.value if self.value is not None else self.raw


@dataclass(frozen=True)
class Redirect:
    op: str
    target: Word | None  # None: a heredoc, or a process substitution
    fd: str | None = None

    @property
    def writes(self) -> bool:
        if self.target is None:
            return False
        if self.op == ">&":
            return not _fd_like(self.target)
        return self.op in _WRITE_OPS

    @property
    def reads(self) -> bool:
        return self.target is not None and self.op == "<"


def _fd_like(word: Word) -> bool:
    return word.value is not None and (word.value.isdigit() or word.value == "-")


@dataclass
class SimpleCommand:
    assignments: list[Word]
    words: list[Word]
    #: Redirections that apply to it (its own and those of enclosing groups).
    redirects: list[Redirect] = field(default_factory=list)
    #: "command", "assignment" (bare `X=1`), "declaration" (export, local…), "test" (`[[ ]]`).
    kind: str = "command"
    source: str = ""


@dataclass
class ParsedCommand:
    commands: list[SimpleCommand]
    redirects: list[Redirect]
    error: bool
    depth: int


@cache
def _language() -> Language:
    import tree_sitter
    import tree_sitter_bash

    return tree_sitter.Language(tree_sitter_bash.language())


_local = threading.local()


def _parser() -> Parser:
    """One parser per thread (checks run in worker threads, maybe several at once)."""
    parser = getattr(_local, "parser", None)
    if parser is None:
        import tree_sitter

        parser = _local.parser = tree_sitter.Parser(_language())
    return parser


def parse(source: str) -> ParsedCommand:
    tree = _parser().parse(source.encode("utf-8", "surrogateescape"))
    walker = _Walker()
    walker.run(tree.root_node)
    return ParsedCommand(walker.commands, walker.redirects, tree.root_node.has_error,
                         walker.depth)


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "surrogateescape")


_Task = tuple["Node", int, tuple[Redirect, ...], bool]  # node, nesting, redirects, statement?


class _Walker:
    """Walks the tree with an explicit stack: a long `a && b && …` chain or deep nesting
    cannot exhaust Python's recursion limit (and hide a command from the checks)."""

    def __init__(self) -> None:
        self.commands: list[SimpleCommand] = []
        self.redirects: list[Redirect] = []
        self.depth = 0
        self._todo: list[_Task] = []

    def run(self, root: Node) -> None:
        self._todo.append((root, 0, (), True))
        while self._todo:
            self.visit(*self._todo.pop())

    def _push(self, nodes: list[Node], depth: int, inherited: tuple[Redirect, ...],
              statement: bool | list[bool]) -> None:
        flags = statement if isinstance(statement, list) else [statement] * len(nodes)
        for node, flag in reversed(list(zip(nodes, flags, strict=True))):
            self._todo.append((node, depth, inherited, flag))

    def visit(self, node: Node, depth: int, inherited: tuple[Redirect, ...],
              statement: bool) -> None:
        kind = node.type
        if kind in _NESTING:
            depth += 1
            self.depth = max(self.depth, depth)
        if kind in _SUBSTITUTIONS:
            inherited, statement = (), True
        if kind == "redirected_statement":
            own = [r for child in _field_children(node, "redirect")
                   for r in self.redirect(child, depth)]
            self._push(_field_children(node, "body"), depth, inherited + tuple(own), True)
            return
        if kind == "command":
            self.command(node, depth, inherited)
            return
        if kind in _REDIRECTS:
            self.redirect(node, depth)
            return
        if statement and kind in ("declaration_command", "unset_command", "test_command",
                                  "variable_assignment", "variable_assignments"):
            label = {"test_command": "test", "declaration_command": "declaration",
                     "unset_command": "declaration"}.get(kind, "assignment")
            assigns: list[Word] = []
            words: list[Word] = []
            if label == "assignment":
                nodes = [node] if kind == "variable_assignment" else node.named_children
                assigns = [_word([n]) for n in nodes]
            else:
                words = _group(list(node.children))
            self.commands.append(SimpleCommand(assigns, words, list(inherited), label,
                                               _text(node)))
            statement = False
        children = list(node.children)
        if kind == "c_style_for_statement":  # `i=0` in `for ((i=0; …))` is arithmetic
            flags = [node.field_name_for_child(i) == "body" for i in range(len(children))]
            self._push(children, depth, inherited, flags)
        else:
            self._push(children, depth, inherited, statement)

    def command(self, node: Node, depth: int, inherited: tuple[Redirect, ...]) -> None:
        assigns: list[Word] = []
        parts: list[Node] = []
        own: list[Redirect] = []
        nested: list[Node] = []
        for i, child in enumerate(node.children):
            name = node.field_name_for_child(i)
            if child.type in _REDIRECTS or name == "redirect":
                own.extend(self.redirect(child, depth))
                continue
            if child.type == "variable_assignment" and not parts:
                assigns.append(_word([child]))
            elif child.type == "command_name":
                parts.extend(child.children)
            else:
                parts.append(child)
            nested.append(child)
        self.commands.append(SimpleCommand(assigns, _group(parts), list(inherited) + own,
                                           "command", _text(node)))
        self._push(nested, depth, (), False)

    def redirect(self, node: Node, depth: int) -> list[Redirect]:
        out: list[Redirect] = []
        if node.type == "file_redirect":
            fd = node.child_by_field_name("descriptor")
            op = next((_text(c) for c in node.children if not c.is_named), "")
            dest = _field_children(node, "destination")
            target = None
            if dest and not any(d.type == "process_substitution" for d in dest):
                target = _word(dest)
            out.append(Redirect(op, target, _text(fd) if fd else None))
        elif node.type == "herestring_redirect":
            out.append(Redirect("<<<", None))
        elif node.type == "heredoc_redirect":
            out.append(Redirect("<<", None))
        self.redirects.extend(out)
        rest = []
        for child in node.children:
            if child.type in _REDIRECTS:
                out.extend(self.redirect(child, depth))
            else:
                rest.append(child)
        self._push(rest, depth, (), False)
        return out


def _field_children(node: Node, name: str) -> list[Node]:
    return [c for i, c in enumerate(node.children) if node.field_name_for_child(i) == name]


def _group(nodes: list[Node]) -> list[Word]:
    """Adjacent nodes (no space between) form one word, e.g. `$"x"` or `a"b"c`."""
    groups: list[list[Node]] = []
    for node in nodes:
        if node.type == "comment":
            continue
        if groups and groups[-1][-1].end_byte == node.start_byte:
            groups[-1].append(node)
        else:
            groups.append([node])
    return [_word(g) for g in groups]


def _word(nodes: list[Node]) -> Word:
    raw = "".join(_text(n) for n in nodes)
    values: list[str] = []
    glob = False
    for i, node in enumerate(nodes):
        part = _value(node)
        if part is None:
            return Word(raw, None)
        value, part_glob = part
        if node.type == "word" and i == 0 and value.startswith("~"):
            if not (_text(node) == "~" or _text(node).startswith("~/")):
                return Word(raw, None)  # ~user
        values.append(value)
        glob = glob or part_glob
    tilde = nodes[0].type == "word" and (_text(nodes[0]) == "~" or
                                         _text(nodes[0]).startswith("~/"))
    return Word(raw, "".join(values), glob, tilde)


def _value(node: Node) -> tuple[str, bool] | None:
    """(value, has unquoted glob) of a static node; None if it expands at run time."""
    kind, raw = node.type, _text(node)
    if not node.is_named:
        return None if raw == "$" else (raw, False)
    if kind == "word":
        if _BRACE.search(raw):
            return None  # brace expansion: {a,b} or {1..3}
        return _unescape(raw), _GLOB.search(raw) is not None
    if kind == "number":
        return raw, False
    if kind == "process_substitution" and raw.startswith("<("):
        # The shell passes a pipe it reads from; its producer is checked as a command.
        return PIPE_PATH, False
    if kind == "raw_string":
        return raw[1:-1], False
    if kind == "ansi_c_string":
        inner = raw[2:-1]
        return None if "\\" in inner else (inner, False)
    if kind == "string":
        out = []
        for child in node.named_children:
            if child.type != "string_content":
                return None
            out.append(re.sub(r'\\([$`"\\\n])', lambda m: "" if m.group(1) == "\n"
                              else m.group(1), _text(child)))
        return "".join(out), False
    if kind == "concatenation":
        if _BRACE.search(raw):
            return None
        parts = [_value(c) for c in node.children]
        if any(p is None for p in parts):
            return None
        return "".join(p[0] for p in parts if p), any(p[1] for p in parts if p)
    if kind == "variable_assignment":
        value = node.child_by_field_name("value")
        name = node.child_by_field_name("name")
        if name is None:
            return None
        if value is None:
            return _text(name) + "=", False
        inner = _value(value)
        return None if inner is None else (_text(name) + "=" + inner[0], False)
    return None


def _unescape(raw: str) -> str:
    return re.sub(r"\\(.)", lambda m: "" if m.group(1) == "\n" else m.group(1), raw,
                  flags=re.DOTALL)
