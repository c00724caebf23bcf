"""/terminal-setup: how to type a new line in this terminal. cc changes no terminal
configuration: it reads every key sequence terminals send for Shift+Enter (kitty's
`CSI 13;2u`, xterm's modifyOtherKeys `CSI 27;2;13~`) and Alt/Option+Enter as a new line,
so this command says what works here and what to turn on where Shift+Enter is not sent."""

from __future__ import annotations

import os
from collections.abc import Mapping

from cc.commands.context import CommandContext, CommandResult

__all__ = ["terminal_advice", "terminal_setup_command"]

#: Terminals that report Shift+Enter distinctly out of the box.
NATIVE = {"iTerm.app": "iTerm2", "WezTerm": "WezTerm", "ghostty": "Ghostty",
          "kitty": "kitty", "WarpTerminal": "Warp"}
#: Those where a key binding must be added for Shift+Enter to send one.
NEEDS_BINDING = {"vscode": "VS Code (and Cursor)", "Apple_Terminal": "Terminal.app",
                 "alacritty": "Alacritty", "zed": "Zed"}


def terminal_name(env: Mapping[str, str]) -> str:
    program = env.get("TERM_PROGRAM", "")
    if env.get("KITTY_WINDOW_ID") or env.get("TERM") == "xterm-kitty":
        program = "kitty"
    if env.get("WT_SESSION"):
        return "Windows Terminal"
    return NATIVE.get(program) or NEEDS_BINDING.get(program) or program or env.get("TERM", "")


def terminal_advice(env: Mapping[str, str]) -> list[str]:
    program = env.get("TERM_PROGRAM", "")
    name = terminal_name(env) or "this terminal"
    lines = [f"Terminal: {name}",
             "cc needs no setup for new lines: \\ then Enter, Alt+Enter (Option+Enter), "
             "Esc then Enter, and Ctrl+J always work."]
    if env.get("TMUX") or env.get("STY"):
        lines.append("Inside tmux or screen, Shift+Enter reaches cc only if the multiplexer "
                     "passes extended keys on (tmux: `set -g extended-keys on`).")
    if name in NATIVE.values() or name in ("kitty", "Windows Terminal"):
        lines.append(f"{name} sends Shift+Enter as its own key, and cc reads it as a new line.")
    elif program in NEEDS_BINDING:
        lines.append(f"{name} sends Shift+Enter as a plain Enter. To use it for new lines, "
                     "bind Shift+Enter in its settings to send the text \"\\u001b\\r\" "
                     "(Esc, Enter), which cc reads as a new line.")
    else:
        lines.append("Shift+Enter gives a new line when the terminal reports it as its own "
                     "key (kitty's keyboard protocol or xterm's modifyOtherKeys); otherwise "
                     "bind it to send Esc then Enter.")
    lines.append("cc changed nothing in your terminal's configuration.")
    return lines


async def terminal_setup_command(ctx: CommandContext, args: str) -> CommandResult:
    for line in terminal_advice(os.environ):
        ctx.say(line)
    return CommandResult()
