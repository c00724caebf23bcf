"""Command-line flags, spelled as Claude Code spells them."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import Any, TypeVar

from cc import __version__

N = TypeVar("N", int, float)

OUTPUT_FORMATS = ("text", "json", "stream-json")
PERMISSION_MODES = ("default", "acceptEdits", "plan", "bypassPermissions", "dontAsk", "manual")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(1, f"error: {message}\n")


#: How `--help` names a flag's value, where its destination says it badly.
_VALUE_NAMES = {
    "output_format": "format", "input_format": "format", "permission_prompt_tool": "tool",
    "fallback_model": "models", "thinking": "mode", "max_thinking_tokens": "tokens",
    "thinking_display": "display", "task_budget": "tokens", "max_turns": "turns",
    "max_budget_usd": "amount", "system_prompt": "prompt", "system_prompt_file": "path",
    "append_system_prompt": "prompt", "append_system_prompt_file": "path",
    "permission_mode": "mode", "allowed_tools": "tools", "disallowed_tools": "tools",
    "settings": "file-or-json", "setting_sources": "sources", "add_dir": "directories",
    "resume": "value", "session_id": "uuid", "mcp_config": "configs", "json_schema": "schema",
    "plugin_dirs": "path", "agents": "json", "resume_session_at": "uuid",
    "resume_drops_turn": "uuid", "permission_prompts": "target",
}


class _HelpFormatter(argparse.HelpFormatter):
    """`--help` laid out as Claude Code's (commander's): `Usage:`, `Arguments:` and
    `Options:`, `-c, --continue`, values as `<name>` (`[name]` when optional), and
    descriptions starting with a capital."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, max_help_position=40, width=100)

    def _format_usage(self, usage: str | None, actions: Any, groups: Any,
                      prefix: str | None) -> str:
        return f"Usage: {self._prog} [options] [command] [prompt]\n\n"

    def _format_action_invocation(self, action: argparse.Action) -> str:
        if not action.option_strings:
            return action.dest
        names = ", ".join(action.option_strings)
        if action.nargs == 0:
            return names
        value = self._metavar(action)
        optional = action.nargs in ("?", "*")
        more = "..." if action.nargs in ("+", "*") else ""
        return f"{names} {'[' if optional else '<'}{value}{more}{']' if optional else '>'}"

    def _metavar(self, action: argparse.Action) -> str:
        if isinstance(action.metavar, str):
            return action.metavar
        return _VALUE_NAMES.get(action.dest, action.dest.removesuffix("_").replace("_", "-"))

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help
        return text[:1].upper() + text[1:] if text else text


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="python -m cc",
        allow_abbrev=False,  # as in Claude Code, `--max-turn` is no `--max-turns`
        description="cc - a terminal coding agent: an interactive session by default, "
        "-p/--print to answer once and exit",
        epilog="Commands: mcp, doctor, update, auth, agents (python -m cc <command> --help)",
        formatter_class=_HelpFormatter,
        add_help=False,
    )
    p._positionals.title = "Arguments"
    p._optionals.title = "Options"
    p.add_argument("-h", "--help", action="help", help="display help for command")
    p.add_argument("prompt", nargs="*", help="the prompt (print mode) or a first message")
    p.add_argument("-p", "--print", dest="print_mode", action="store_true",
                   help="print the response and exit (non-interactive)")
    p.add_argument("-v", "--version", action="version", version=f"{__version__} (cc)",
                   help="output the version number")
    p.add_argument("--output-format", choices=OUTPUT_FORMATS, default="text",
                   help="print-mode output: text (default), json, or stream-json")
    p.add_argument("--input-format", choices=("text", "stream-json"), default="text",
                   help="print-mode input: text (default), or stream-json (messages and "
                   "control requests on stdin, one JSON object per line)")
    p.add_argument("--permission-prompt-tool", dest="permission_prompt_tool",
                   help='who answers permission prompts in print mode: "stdio" asks the '
                   "program driving cc (stream-json)")
    p.add_argument("--replay-user-messages", action="store_true",
                   help="with stream-json input: echo each user message back")
    p.add_argument("--verbose", action="store_true", help="full turn-by-turn output")
    p.add_argument("--include-partial-messages", action="store_true",
                   help="with stream-json: the response stream's events as they arrive")
    p.add_argument("--include-hook-events", action="store_true",
                   help="with stream-json: each hook command's start and end")
    p.add_argument("--model", help="model for the session: an alias (opus, sonnet, haiku, "
                   "fable, opusplan; [1m] for the 1M window) or a model's full id")
    p.add_argument("--fallback-model", help="models to move a turn to when its model is "
                   "overloaded or missing (comma-separated, in order)")
    p.add_argument("--betas", nargs="+", action="extend", default=[],
                   help="more anthropic-beta headers for model requests")
    p.add_argument("--thinking", choices=("enabled", "adaptive", "disabled"),
                   help="thinking: the model paces it (adaptive, enabled) or none")
    p.add_argument("--max-thinking-tokens", type=int,
                   help="a fixed thinking budget in tokens (0: no thinking)")
    p.add_argument("--thinking-display", choices=("summarized", "omitted", "highlights"),
                   help="how the model's thinking text comes back")
    p.add_argument("--effort", help="how hard the model works: low, medium, high, xhigh, max")
    p.add_argument("--task-budget", type=_positive(int, "a positive whole number"),
                   help="the task's token budget, which the model is told of")
    p.add_argument("--max-turns", type=int, help="stop after this many model turns (print mode)")
    p.add_argument("--max-budget-usd", type=_positive(float, "a number greater than 0"),
                   help="stop once the estimated cost reaches this many dollars (print mode)")
    p.add_argument("--tools", help='built-in tools to offer, e.g. "Read,Bash"; "" for none')
    p.add_argument("--system-prompt", help="replace the default system prompt")
    p.add_argument("--system-prompt-file", help="replace the system prompt with a file's text")
    p.add_argument("--append-system-prompt", help="append text to the system prompt")
    p.add_argument("--append-system-prompt-file", help="append a file's text to the system prompt")
    p.add_argument("--permission-mode", choices=PERMISSION_MODES)
    p.add_argument("--dangerously-skip-permissions", action="store_true",
                   help="run every tool without asking (bypassPermissions)")
    # (a list flag given twice keeps both lists, as Claude Code's does)
    p.add_argument("--allowedTools", "--allowed-tools", dest="allowed_tools", nargs="+",
                   action="extend", default=[], help="permission rules to allow")
    p.add_argument("--disallowedTools", "--disallowed-tools", dest="disallowed_tools",
                   nargs="+", action="extend", default=[], help="permission rules to deny")
    p.add_argument("--agents", help='custom sub-agents as JSON: '
                   '{"name": {"description": "...", "prompt": "...", "tools": [...]}}')
    p.add_argument("--settings", help="a settings file or JSON string")
    p.add_argument("--setting-sources", help="which settings to load: user,project,local")
    p.add_argument("--add-dir", dest="add_dir", nargs="+", action="extend", default=[],
                   help="more folders the tools may work in")
    p.add_argument("-c", "--continue", dest="continue_", action="store_true",
                   help="continue the most recent conversation in this folder")
    p.add_argument("-r", "--resume", nargs="?", const="", help="resume a conversation by id")
    p.add_argument("--session-id", help="use this UUID as the session id")
    p.add_argument("--fork-session", action="store_true")
    p.add_argument("--session-mirror", action="store_true",
                   help="with stream-json: every transcript line also as a frame on stdout")
    p.add_argument("--resume-session-at", help="with --resume: the conversation as it stood "
                   "at this message (uuid)")
    p.add_argument("--resume-drops-turn", help="with --resume-session-at: refuse unless what "
                   "is left out is the turn of this prompt (uuid)")
    p.add_argument("--no-session-persistence", action="store_true")
    p.add_argument("--mcp-config", dest="mcp_config", nargs="+", action="extend", default=[],
                   help="MCP servers from JSON files or strings: {\"mcpServers\": {...}}")
    p.add_argument("--strict-mcp-config", action="store_true",
                   help="use only the MCP servers of --mcp-config")
    p.add_argument("--json-schema", dest="json_schema",
                   help="print mode: the answer as JSON conforming to this JSON Schema "
                        "(the result's structured_output)")
    p.add_argument("--plugin-dir", dest="plugin_dirs", action="append", default=[],
                   help="(accepted; cc loads no plugins yet)")
    p.add_argument("--debug-to-stderr", action="store_true", help="write cc's debug log to stderr")
    p.add_argument("-d", "--debug", nargs="?", const="", metavar="filter",
                   help="debug log on stderr, optionally of some categories only (e.g. "
                   "--debug=hooks,mcp or --debug='!hooks')")
    p.add_argument("--debug-file", metavar="path",
                   help="write the debug log to this file (turns debugging on)")
    p.add_argument("--bare", action="store_true",
                   help="minimal mode: no hooks, CLAUDE.md, auto memory, MCP servers from "
                   "files, agent and command files, or attribution lines; give context with "
                   "--system-prompt, --append-system-prompt, --settings, --mcp-config, --agents")
    p.add_argument("--disable-slash-commands", action="store_true",
                   help="no skills and no custom commands")
    p.add_argument("--permission-prompts", choices=("host", "none"),
                   help='who answers permission prompts in print mode: "host" (the program '
                   'driving cc) or "none" (whatever would ask is denied)')
    p.add_argument("-n", "--name", help="a display name for this session (the /resume "
                   "picker shows it)")
    p.add_argument("--allow-dangerously-skip-permissions", action="store_true",
                   help="offer bypassPermissions in the Shift+Tab cycle without starting in it")
    p.add_argument("--init", action="store_true",
                   help="run the Setup hooks (trigger init) before the session starts")
    p.add_argument("--init-only", action="store_true",
                   help="run the Setup hooks (trigger init), then exit")
    p.add_argument("--maintenance", action="store_true",
                   help="run the Setup hooks (trigger maintenance) before the session starts")
    p.add_argument("--autocompact", type=_autocompact, metavar="auto|tokens",
                   help="the window compaction works to: auto (the model's), or at least "
                   "100k tokens")
    for flags, nargs, what in UNSUPPORTED:
        # (a value is optional here, so that the flag alone is refused by name too)
        nargs = {None: "?", "+": "*"}.get(nargs, nargs)
        p.add_argument(*flags, nargs=nargs, action=_Unsupported, help=argparse.SUPPRESS,
                       default=None, dest=f"unsupported_{flags[-1].lstrip('-')}",
                       metavar=what)
    return p


#: Claude Code's flags for what cc does not have: each is refused, naming itself.
UNSUPPORTED: tuple[tuple[tuple[str, ...], int | str | None, str], ...] = (
    (("--agent",), None, "running the session as a custom agent"),
    (("--ax-screen-reader",), 0, "a screen-reader rendering"),
    (("--bg", "--background"), 0, "background sessions"),
    (("--brief",), 0, "the SendUserMessage tool"),
    (("--chrome",), 0, "Claude in Chrome"),
    (("--no-chrome",), 0, "Claude in Chrome"),
    (("--cloud",), "?", "cloud sessions"),
    (("--desktop",), 0, "the Claude Desktop app"),
    (("--environment",), None, "cloud environments"),
    (("--exclude-dynamic-system-prompt-sections",), 0, "moving prompt sections"),
    (("--file",), "+", "file downloads at start-up"),
    (("--forward-subagent-text",), 0, "forwarding sub-agent text"),
    (("--from-pr",), "?", "sessions linked to pull requests"),
    (("--ide",), 0, "IDE integration"),
    (("--plugin-url",), None, "plugins"),
    (("--prompt-suggestions",), "?", "prompt suggestions"),
    (("--remote-control",), "?", "Remote Control"),
    (("--remote-control-session-name-prefix",), None, "Remote Control"),
    (("--restricted",), 0, "restricted mode"),
    (("--safe-mode",), 0, "safe mode (--bare starts without most customizations)"),
    (("--system-prompt-snapshot",), None, "system prompt snapshots"),
    (("--teleport",), "?", "teleport sessions"),
    (("--tmux",), 0, "tmux sessions"),
    (("-w", "--worktree"), "?", "worktree sessions"),
)


class _Unsupported(argparse.Action):
    """A Claude Code flag cc refuses: the parse ends with an error naming it."""

    def __init__(self, option_strings: list[str], dest: str, nargs: object = None,
                 metavar: str = "", **kwargs: object) -> None:
        self.what = metavar
        super().__init__(option_strings, dest, nargs=nargs, **kwargs)  # type: ignore[arg-type]

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        parser.error(f"{option_string} is a Claude Code flag that cc does not support "
                     f"({self.what})")


def _autocompact(text: str) -> int | None:
    """`auto` (None) or a number of tokens, at least 100k (`150000`, `150k`)."""
    value = text.strip().lower()
    if value == "auto":
        return None
    try:
        tokens = int(float(value[:-1]) * 1000) if value.endswith("k") else int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not auto or a number of tokens") from None
    if tokens < 100_000:
        raise argparse.ArgumentTypeError(f"{text!r} is under 100k tokens")
    return tokens


def _positive(kind: Callable[[str], N], what: str) -> Callable[[str], N]:
    """A flag's value, which must be `what` (argparse reports the message)."""

    def parse(text: str) -> N:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}")
        return value

    return parse


def split_tool_list(values: list[str] | str | None) -> list[str]:
    """`"Read,Bash"` / `["Read", "Bash(git *)"]` → names/rules; commas or spaces separate,
    except inside parentheses."""
    if values is None:
        return []
    if isinstance(values, str):
        values = [values]
    out: list[str] = []
    for value in values:
        out.extend(t for t in re.findall(r"[^,\s(]+(?:\([^)]*\))?", value) if t)
    return out
