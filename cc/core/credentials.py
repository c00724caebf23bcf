"""Who the session talks to the API as: the key or token, and the base URL, from the
environment or the settings' `apiKeyHelper` script. Light on purpose: start-up reads it
before the model client (and its imports) is needed."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass
class Credentials:
    api_key: str | None = None
    auth_token: str | None = None
    base_url: str | None = None
    #: The key came from the settings' apiKeyHelper script.
    from_helper: bool = False

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Credentials:
        env = dict(os.environ) if env is None else env
        return cls(
            api_key=env.get("ANTHROPIC_API_KEY") or None,
            auth_token=env.get("ANTHROPIC_AUTH_TOKEN") or None,
            base_url=env.get("ANTHROPIC_BASE_URL") or None,
        )

    @property
    def source(self) -> str:
        """Claude Code's `apiKeySource` label."""
        if self.from_helper:
            return "apiKeyHelper"
        return "ANTHROPIC_API_KEY" if self.api_key else "none"

    @property
    def present(self) -> bool:
        return bool(self.api_key or self.auth_token)


def run_api_key_helper(command: str, timeout: float = 10.0) -> tuple[str | None, str | None]:
    """(key, None) from the apiKeyHelper script's stdout, or (None, why it failed)."""
    import subprocess

    try:
        proc = subprocess.run(
            ["/bin/sh", "-c", command], capture_output=True, text=True, timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"apiKeyHelper failed: {exc}"
    key = proc.stdout.strip()
    if proc.returncode != 0 or not key:
        detail = proc.stderr.strip().splitlines()[:1] or [f"exit code {proc.returncode}"]
        return None, f"apiKeyHelper did not print a key ({detail[0]})"
    return key, None
