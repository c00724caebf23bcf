"""Temporary grants: a custom command's `allowed-tools`, allowed for one use."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from cc.permissions.checker import PermissionChecker
from cc.tools.base import Tool


def grant_rules(gate: PermissionChecker, rules: Sequence[str]) -> tuple[Callable[[], None], list[str]]:
    """Allow `rules` until the returned undo is called; also the warnings for bad rules."""
    if not rules:
        return (lambda: None), []
    bucket = gate.context.rules.allow
    before = {id(rule) for rule in bucket}
    warnings = gate.add_rules("allow", list(rules), persist=False)
    added = [rule for rule in bucket if id(rule) not in before]

    def undo() -> None:
        bucket[:] = [rule for rule in bucket if rule not in added]

    return undo, warnings


async def permit_command(
    gate: PermissionChecker, bash: Tool, command: str, allowed: Sequence[str]
) -> bool:
    """May a command's `` !`cmd` `` run? The same check a Bash call gets, plus `allowed`."""
    undo, _ = grant_rules(gate, allowed)
    try:
        inp = bash.input_model.model_validate({"command": command})
        decision = await gate.check(bash, inp, "command-expansion")
    finally:
        undo()
    return decision.behavior == "allow"


def command_permit(
    gate: PermissionChecker | None, bash: Tool | None
) -> Callable[[str, Sequence[str]], Awaitable[bool]]:
    """The check custom commands use for `` !`cmd` ``; nothing runs without a checker."""

    async def permit(command: str, allowed: Sequence[str]) -> bool:
        if gate is None or bash is None:
            return False
        return await permit_command(gate, bash, command, allowed)

    return permit
