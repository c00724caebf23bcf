"""Hooks: the user's commands run at Claude Code's events (see `runner.HookRunner`).

config.py    the `hooks` settings of every file, combined; `load_hooks()`
matchers.py  `matcher` (names, lists, regexes) and the `if` rule of a handler
process.py   one command: stdin JSON, captured output, timeout, process-group kill
prompt_hook.py  one `prompt` handler: the model judges the event, `{ok, reason}`
http_hook.py    one `http` handler: the input POSTed, the response body as output
permission_request.py  PermissionRequest's suggestions and decision, as Claude Code's
file_watch.py   a set of watched files, and what changed since the last look
watches.py      FileChanged's and ConfigChange's watches, polled behind the turn
background.py   `async` hooks and the file watch, running behind the turn
payload.py      pieces of inputs: a teammate's names, a failure's text, tool data as JSON
outcome.py   one event's results combined into a `HookOutcome`
runner.py    `HookRunner`: payloads per event, parallel runs, `async` hooks in the
             background; implements `HookGate`
gate.py      the protocol the tool executor calls, and the no-op `NoHooks`
lifecycle.py each command's start and end, for a watcher (stream-json's hook records)
"""
