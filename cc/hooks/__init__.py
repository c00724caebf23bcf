"""Hooks: the user's commands run at Claude Code's events (see `runner.HookRunner`).

config.py    the `hooks` settings of every file, combined; `load_hooks()`
matchers.py  `matcher` (names, lists, regexes) and the `if` rule of a handler
process.py   one command: stdin JSON, captured output, timeout, process-group kill
outcome.py   one event's results combined into a `HookOutcome`
runner.py    `HookRunner`: payloads per event, parallel runs; implements `HookGate`
gate.py      the protocol the tool executor calls, and the no-op `NoHooks`
lifecycle.py each command's start and end, for a watcher (stream-json's hook records)
"""
