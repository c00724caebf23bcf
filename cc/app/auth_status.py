"""How this session authenticates, as `cc auth status` reports it (Claude Code's JSON
fields) and /login, /logout and /doctor describe it. cc signs in to no account: a key
comes from ANTHROPIC_API_KEY, a bearer token from ANTHROPIC_AUTH_TOKEN, or a key from
the settings' `apiKeyHelper` script (not run here, only found), in that order, with the
settings' `env` applied first as at start-up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cc.core.credentials import Credentials

__all__ = ["HOW_TO_AUTHENTICATE", "AuthState", "auth_state", "session_state", "status_json",
           "status_text"]

HOW_TO_AUTHENTICATE = (
    "cc uses an Anthropic API key; it signs in to no account. Configure one of:",
    "  ANTHROPIC_API_KEY      an API key (sent as x-api-key)",
    "  ANTHROPIC_AUTH_TOKEN   a bearer token (sent as Authorization: Bearer), e.g. for a gateway",
    "  apiKeyHelper           a settings key naming a script that prints a key",
    "Set them in the environment, or in a settings file's \"env\" object.",
)


@dataclass(frozen=True)
class AuthState:
    #: "api_key", "oauth_token", "api_key_helper" or "none" (Claude Code's names).
    method: str
    #: Where the key comes from ("ANTHROPIC_API_KEY", "apiKeyHelper"); None otherwise.
    key_source: str | None = None
    helper: str | None = None

    @property
    def logged_in(self) -> bool:
        return self.method != "none"


def auth_state(env: Mapping[str, str], settings: Mapping[str, Any]) -> AuthState:
    extra = settings.get("env")
    merged = {**env, **({str(k): str(v) for k, v in extra.items()}
                        if isinstance(extra, dict) else {})}
    helper = settings.get("apiKeyHelper")
    if merged.get("ANTHROPIC_API_KEY"):
        return AuthState("api_key", "ANTHROPIC_API_KEY")
    if merged.get("ANTHROPIC_AUTH_TOKEN"):
        return AuthState("oauth_token")
    if isinstance(helper, str) and helper.strip():
        return AuthState("api_key_helper", "apiKeyHelper", helper.strip())
    return AuthState("none")


def session_state(credentials: Credentials) -> AuthState:
    """What a running session authenticates with (its key found at start-up)."""
    if credentials.from_helper:
        return AuthState("api_key_helper", "apiKeyHelper")
    if credentials.api_key:
        return AuthState("api_key", "ANTHROPIC_API_KEY")
    if credentials.auth_token:
        return AuthState("oauth_token")
    return AuthState("none")


def status_json(state: AuthState, config_dir: Path, env: Mapping[str, str]) -> dict[str, Any]:
    """`auth status` in Claude Code's shape."""
    out: dict[str, Any] = {
        "loggedIn": state.logged_in,
        "authMethod": state.method,
        "apiProvider": _provider(env),
        "analyticsDisabled": any(env.get(k) for k in (
            "DISABLE_TELEMETRY", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC")),
        "projectsDirectory": str(config_dir / "projects"),
        "configDirectory": str(config_dir),
        "loginExpiresAt": None,
    }
    if state.key_source is not None:
        out["apiKeySource"] = state.key_source
    return out


def status_text(state: AuthState) -> str:
    if state.method == "api_key":
        return "API key: ANTHROPIC_API_KEY"
    if state.method == "oauth_token":
        return "Auth token: ANTHROPIC_AUTH_TOKEN"
    if state.method == "api_key_helper":
        return "Auth token: apiKeyHelper"
    return "Not logged in. Set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN, or an apiKeyHelper)."


def _provider(env: Mapping[str, str]) -> str:
    for key, name in (("CLAUDE_CODE_USE_BEDROCK", "bedrock"), ("CLAUDE_CODE_USE_VERTEX", "vertex"),
                      ("CLAUDE_CODE_USE_FOUNDRY", "foundry")):
        if env.get(key, "").strip().lower() in ("1", "true", "yes"):
            return name
    return "firstParty"
