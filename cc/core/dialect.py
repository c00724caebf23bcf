"""What an endpoint understands beyond the Messages API's core: Claude Code's betas and
the newer request fields (adaptive thinking, `output_config`, `context_management`).

    FULL           Anthropic's API (a host under anthropic.com): what Claude Code 2.1.332
                   sends, the betas of the model and the session and the newer fields
    CONSERVATIVE   CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS=1: the betas of thinking, effort
                   and the 1M window only, no `context_management`, no thinking display
                   (what Claude Code was seen sending with it)
    PLAIN          any other endpoint (a compatible server, a gateway): no `anthropic-beta`
                   header and only the fields every compatible server takes (a fixed
                   thinking budget when one is configured; no adaptive thinking, effort
                   or tool search)

`CC_API_DIALECT=full|conservative|plain` says which an endpoint speaks (a gateway in
front of Anthropic's API may well take everything). An endpoint that answers a request
with a 400 naming a beta or one of the newer fields (`refuses_extensions`) is taken to
speak PLAIN: the client sends that request again and keeps to PLAIN for the session.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from cc.config.env import truthy


@dataclass(frozen=True)
class Dialect:
    name: str
    #: `anthropic-beta` headers at all.
    betas: bool = True
    #: Claude Code's experimental betas and fields (context management, thinking display).
    experimental: bool = True
    #: Adaptive thinking and `output_config` (effort, task budget).
    extensions: bool = True


FULL = Dialect("full")
CONSERVATIVE = Dialect("conservative", experimental=False)
PLAIN = Dialect("plain", betas=False, experimental=False, extensions=False)

#: What a 400 says when the endpoint does not know a beta or a field we sent.
_REFUSAL = re.compile(
    r"anthropic-beta|\bbetas?\b|context_management|output_config|adaptive|"
    r"extra (inputs|fields)|not permitted|unrecognized|unknown (field|parameter|key)",
    re.IGNORECASE,
)


_NAMED = {d.name: d for d in (FULL, CONSERVATIVE, PLAIN)}


def anthropic_host(base_url: str | None) -> bool:
    """Whether requests go to Anthropic's own API (no base URL, or a host under
    anthropic.com), not a gateway or another server."""
    host = (urlsplit(base_url).hostname or "") if base_url else "api.anthropic.com"
    return host == "anthropic.com" or host.endswith(".anthropic.com")


def dialect_for(base_url: str | None, env: Mapping[str, str] | None = None) -> Dialect:
    """What to send to `base_url`: CC_API_DIALECT if set, else by the host (and
    CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS)."""
    env = os.environ if env is None else env
    named = _NAMED.get((env.get("CC_API_DIALECT") or "").strip().lower())
    dialect = named or (FULL if anthropic_host(base_url) else PLAIN)
    if dialect is FULL and truthy(env.get("CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS")):
        return CONSERVATIVE
    return dialect


def refuses_extensions(status: int | None, message: str) -> bool:
    """Whether a failed request's answer says the endpoint does not take what only
    Anthropic's API takes (so the same request in PLAIN may succeed)."""
    return status == 400 and bool(_REFUSAL.search(message))
