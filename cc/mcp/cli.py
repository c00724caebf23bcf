"""`python -m cc mcp …`: configuring MCP servers from the command line, handled here
and never sent to the model.

    add, add-json, remove, reset-project-choices   cc.mcp.cli_edit
    list, get                                      cc.mcp.cli_show (with health checks)
    serve, add-from-claude-desktop, login, logout  not in cc yet: said so, exit 1

Arguments are read as Claude Code reads them (`cc.subcommand_args`); results go to the
`Context`'s two writers, and `run_mcp` returns the exit code.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from cc.subcommand_args import Grammar, Option, Parsed, parse

__all__ = ["PROGRAM", "Context", "run_mcp"]

#: How the help and the hints name cc's command line.
PROGRAM = "python -m cc"
SCOPE = Option("--scope", "-s", "value")


@dataclass(frozen=True)
class Context:
    cwd: Path
    #: CLAUDE_CONFIG_DIR, else ~/.claude.
    config: Path
    out: Callable[[str], None]
    err: Callable[[str], None]
    read_stdin: Callable[[], str]


@dataclass(frozen=True)
class Command:
    name: str
    grammar: Grammar
    usage: str
    about: str
    details: str = ""


COMMANDS = (
    Command("add", Grammar((
        SCOPE, Option("--transport", "-t", "value"), Option("--env", "-e", "list"),
        Option("--header", "-H", "list"), Option("--client-id", None, "value"),
        Option("--callback-port", None, "value"), Option("--client-secret")),
        ("name", "command-or-url"), rest="args"),
        "add [options] <name> <command-or-url> [args...]", "Add an MCP server",
        f"""For a local (stdio) server give its command and arguments, after "--" when they
have options of their own; for a remote one give --transport and its URL.

  {PROGRAM} mcp add files -- npx -y @modelcontextprotocol/server-filesystem .
  {PROGRAM} mcp add --transport http docs https://example.com/mcp -H "X-Api-Key: k"

Options:
  -s, --scope <scope>          local (the default: you, in this folder), project
                               (.mcp.json, shared) or user (you, in every folder)
  -t, --transport <transport>  stdio (the default), http or sse
  -e, --env <KEY=value...>     environment of a stdio server (repeatable)
  -H, --header <header...>     "Name: value" header of an HTTP or SSE server
                               (repeatable)
  --client-id <id>             OAuth client id of an HTTP or SSE server
  --callback-port <port>       fixed OAuth callback port of an HTTP or SSE server"""),
    Command("add-json", Grammar((SCOPE, Option("--client-secret")), ("name", "json")),
            "add-json [options] <name> <json>",
            "Add an MCP server from its JSON entry (-: stdin)",
            """The entry is what the configuration files hold under "mcpServers", e.g.
  '{"type": "http", "url": "https://example.com/mcp"}' or
  '{"command": "uvx", "args": ["mcp-server-time"]}'

Options:
  -s, --scope <scope>  local (the default), project or user"""),
    Command("list", Grammar(), "list",
            "List the MCP servers, checking each"),
    Command("get", Grammar((), ("name",)), "get <name>",
            "Show one MCP server, checking it"),
    Command("remove", Grammar((SCOPE,), ("name",)), "remove [options] <name>",
            "Remove an MCP server",
            """Options:
  -s, --scope <scope>  local, project or user; without it, the one scope that has it"""),
    Command("reset-project-choices", Grammar(), "reset-project-choices",
            "Forget this folder's .mcp.json approvals"),
)
#: Claude Code's other mcp commands, which cc does not have yet.
MISSING = ("serve", "add-from-claude-desktop", "login", "logout")


def run_mcp(argv: Sequence[str], ctx: Context) -> int:
    if not argv:
        ctx.err(_overview())
        return 1
    name, rest = argv[0], list(argv[1:])
    if name in ("-h", "--help"):
        ctx.out(_overview())
        return 0
    if name == "help":
        if rest and (command := _command(rest[0])) is not None:
            ctx.out(_help(command))
        else:
            ctx.out(_overview())
        return 0
    if name in MISSING:
        ctx.err(f'cc does not implement "mcp {name}" yet.')
        return 1
    command = _command(name)
    if command is None:
        close = difflib.get_close_matches(name, [c.name for c in COMMANDS] + list(MISSING), 1)
        hint = f' (did you mean "{close[0]}"?)' if close else ""
        ctx.err(f'error: unknown mcp command "{name}"{hint}\n'
                f"Run `{PROGRAM} mcp --help` to see the commands.")
        return 1
    parsed = parse(rest, command.grammar)
    if isinstance(parsed, str):
        hint = ""
        if name == "add" and parsed.startswith("unknown option"):
            hint = "\n(A server command with options of its own goes after `--`.)"
        ctx.err(f"error: mcp {name}: {parsed}{hint}")
        return 1
    if parsed.help:
        ctx.out(_help(command))
        return 0
    return _dispatch(command.name, parsed, ctx)


def _dispatch(name: str, parsed: Parsed, ctx: Context) -> int:
    if name in ("list", "get"):
        from cc.mcp import cli_show

        return cli_show.run_list(ctx) if name == "list" else cli_show.run_get(parsed, ctx)
    from cc.mcp import cli_edit

    handlers = {"add": cli_edit.run_add, "add-json": cli_edit.run_add_json,
                "remove": cli_edit.run_remove,
                "reset-project-choices": cli_edit.run_reset_project_choices}
    return handlers[name](parsed, ctx)


def _command(name: str) -> Command | None:
    return next((c for c in COMMANDS if c.name == name), None)


def _overview() -> str:
    width = max(len(c.usage) for c in COMMANDS) + 2
    rows = "\n".join(f"  {c.usage.ljust(width)}{c.about}" for c in COMMANDS)
    return (f"Usage: {PROGRAM} mcp <command> [options]\n\n"
            f"Configure the MCP servers cc connects to.\n\nCommands:\n{rows}\n\n"
            f"Not in cc yet: {', '.join(MISSING)}.\n"
            f"`{PROGRAM} mcp <command> --help` shows a command's options.")


def _help(command: Command) -> str:
    text = f"Usage: {PROGRAM} mcp {command.usage}\n\n{command.about}."
    return f"{text}\n\n{command.details}" if command.details else text
