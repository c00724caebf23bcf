"""Did the sandbox make a command fail? One line for the model when it plausibly did."""

from __future__ import annotations

import re
from collections.abc import Iterable

_FILESYSTEM = re.compile(r"read-only file system|permission denied|operation not permitted",
                         re.IGNORECASE)
_NETWORK = re.compile(
    r"could not resolve|temporary failure in name resolution|name or service not known"
    r"|network is unreachable|no address associated|getaddrinfo|enotfound|eai_again"
    r"|connection refused|failed to connect|couldn't connect|unable to connect"
    r"|no route to host|blocked by the cc sandbox|proxy connect aborted|403 forbidden",
    re.IGNORECASE,
)


def failure_hint(output: str, exit_code: int | None, *, domains: list[str],
                 blocked: Iterable[str] = (), allow_unsandboxed: bool) -> str | None:
    """The note for a failed sandboxed command, or None when nothing points at the sandbox."""
    if exit_code == 0:
        return None
    causes = []
    if _FILESYSTEM.search(output):
        causes.append("it can write only in the working folders and the temp folder, and "
                      "protected files stay read-only")
    refused = sorted(set(blocked))
    if refused:
        causes.append("its network proxy refused " + ", ".join(refused)
                      + " (not in sandbox.network.allowedDomains)")
    elif _NETWORK.search(output):
        causes.append("it reaches only " + ", ".join(domains) if domains
                      else "it has no network access")
    if not causes:
        return None
    then = ("ask the user, or retry with dangerouslyDisableSandbox: true (the user is asked "
            "to approve it)" if allow_unsandboxed else
            "ask the user to change the sandbox settings; running outside it is not allowed")
    return f"[This may be the sandbox's doing: {'; '.join(causes)}. To proceed, {then}.]"
