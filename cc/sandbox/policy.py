"""What the sandbox changes in a Bash command's permission check.

    runs sandboxed, autoAllowBashIfSandboxed   allowed without asking: deny rules, ask
                                               rules and the serious safety concerns
                                               (protected files, critical rm) still win;
                                               an unparsable command is contained, so fine
    runs outside at the model's request        the normal checks, and when they ask, the
                                               question says it would leave the sandbox
    excluded, or no sandbox                    the normal checks
    refused (failIfUnavailable)                let through: the Bash tool refuses it, saying why
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cc.permissions.verdict import Assessment, Verdict

if TYPE_CHECKING:
    from cc.sandbox.sandbox import Sandbox


def apply_sandbox(a: Assessment, sandbox: Sandbox, command: str, disable: bool) -> None:
    place = sandbox.placement(command, disable)
    if place.refused:
        a.approved = Verdict("allow", "the Bash tool refuses it itself", "sandbox")
        return
    if place.by_request:
        a.need = "it would run outside the sandbox, as dangerouslyDisableSandbox asks"
        return
    if place.sandboxed and sandbox.config.auto_allow:
        if a.safety is not None and a.safety_level == "unverifiable":
            a.safety = None
        if a.approved is None:
            a.approved = Verdict("allow", "it runs in the sandbox", "sandbox")
