"""/config: show the settings, or change one key in one settings file.

    /config                                 the keys cc knows, their values and files,
                                            then the merged settings
    /config set [--user|--project|--local] <key> <value>
    /config unset [--user|--project|--local] <key>

A subcommand rather than an interactive list: /config already prints the settings as
text, the same text works where no picker exists, and `set` takes any value a key
allows (objects and lists as JSON), which a list of toggles could not. The value is
JSON when it parses as JSON, else a string; it is checked against the key's type
(`cc.config.keys`) before anything is written. `--user` (the default, as Claude Code's
/config) is `<config>/settings.json`, `--project` `.claude/settings.json`, `--local`
`.claude/settings.local.json`. Settings are read at start-up: a change applies from
the next session (`outputStyle` from the next conversation, /clear).
"""

from __future__ import annotations

import json
import re
from typing import Any

from cc.commands.context import CommandContext, CommandResult

_USAGE = "Usage: /config [set [--user|--project|--local] <key> <value> | unset <key>]"
_COMMAND = re.compile(r"(?P<action>set|unset)\s+(?:(?P<scope>--user|--project|--local)\s+)?"
                      r"(?P<key>[A-Za-z_][\w.-]*)(?:\s+(?P<value>.+))?", re.S)
_SCOPES = {"--user": "user", "--project": "project", "--local": "local"}


async def config_command(ctx: CommandContext, args: str) -> CommandResult:
    from cc.commands.info import config_command as show_merged

    match = _COMMAND.fullmatch(args.strip())
    if not args.strip():
        _show_keys(ctx)
        return await show_merged(ctx, args)
    if match is None or (match["action"] == "set") != bool(match["value"]):
        ctx.say(_USAGE, style="red")
        return CommandResult()
    scope = _SCOPES[match["scope"]] if match["scope"] else "user"
    if match["action"] == "set":
        _set(ctx, scope, match["key"], _parse(match["value"]))
    else:
        _set(ctx, scope, match["key"], None, remove=True)
    return CommandResult()


def _show_keys(ctx: CommandContext) -> None:
    from cc.config.keys import KEYS

    settings = ctx.runtime.settings
    width = max(map(len, KEYS)) + 2
    ctx.say("Settings cc reads (/config set <key> <value> to change one):", style="bold")
    for key, (_, about) in KEYS.items():
        where = [f.source for f in settings.files if key in f.data]
        value = json.dumps(settings.merged[key], ensure_ascii=False) \
            if key in settings.merged else "(not set)"
        source = f"  [{', '.join(where)}]" if where else ""
        ctx.say(f"  {key:<{width}}{value}{source}")
        ctx.say(f"  {'':<{width}}{about}", style="dim")
    ctx.say("")


def _parse(raw: str) -> Any:
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


def _set(ctx: CommandContext, scope: str, key: str, value: Any, *, remove: bool = False) -> None:
    from cc.config.keys import KEYS, check_value
    from cc.config.settings import edit_settings_file, settings_paths

    problem = None if remove else check_value(key, value)
    if problem is not None:
        ctx.say(f"Not saved: {problem}", style="red")
        return
    path = settings_paths(ctx.cwd, ctx.config_dir)[scope]

    def edit(data: dict[str, Any]) -> None:
        if remove:
            data.pop(key, None)
        else:
            data[key] = value

    warning = edit_settings_file(path, edit)
    if warning is not None:
        ctx.say(warning, style="red")
        return
    shown = "removed" if remove else f"= {json.dumps(value, ensure_ascii=False)}"
    when = ("from the next conversation (/clear)" if key == "outputStyle"
            else "from the next session")
    ctx.say(f"{key} {shown} in {path}; it applies {when}.")
    if key not in KEYS:
        ctx.say(f"cc does not use {key}; it is kept in the file.", style="dim")
