"""Run one `http` hook: POST the input JSON to its url; the response body is the hook's
output, read as a command's stdout would be.

    {"type": "http", "url": "http://localhost:8080/hook", "timeout": 30,
     "headers": {"Authorization": "Bearer $TOKEN"}, "allowedEnvVars": ["TOKEN"]}

A header value takes `$VAR` or `${VAR}` from the environment only for the names in
`allowedEnvVars`; any other variable becomes the empty string, so a settings file
cannot send the user's secrets anywhere by naming them. A 2xx answer is a success
(exit 0); any other status, or no answer (refused, unreachable), is a non-blocking
error (exit 1 with the reason on stderr); no answer in time is a timeout.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping

from cc.hooks.config import HookCommand
from cc.hooks.process import HookResult, parse_json_output

_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def expand_header(value: str, allowed: tuple[str, ...], env: Mapping[str, str]) -> str:
    """`value` with `$VAR`/`${VAR}` replaced: allowed names from `env`, others by ''."""

    def sub(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        return env.get(name, "") if name in allowed else ""

    return _VAR.sub(sub, value)


async def run_http_hook(hook: HookCommand, body: bytes, *, env: Mapping[str, str],
                        timeout: float) -> HookResult:
    """POST `body` to `hook.command` (the url); never raises for the server's failures."""
    started = time.monotonic()
    headers = {"Content-Type": "application/json",
               **{k: expand_header(v, hook.allowed_env_vars, env) for k, v in hook.headers}}

    result = await _post(hook, body, headers, timeout)
    result.duration_ms = int((time.monotonic() - started) * 1000)
    result.timeout = timeout
    return result


async def _post(hook: HookCommand, body: bytes, headers: dict[str, str],
                timeout: float) -> HookResult:
    import httpx

    try:
        async with httpx.AsyncClient(timeout=timeout) as client:
            response = await client.post(hook.command, content=body, headers=headers)
    except httpx.TimeoutException:
        return HookResult(hook, None, timed_out=True)
    except (httpx.HTTPError, httpx.InvalidURL, ValueError) as exc:  # ValueError: a header
        why = str(exc) or type(exc).__name__                     # that is not ASCII
        return HookResult(hook, 1, stderr=f"HTTP request to {hook.command} failed: {why}")
    text = response.text
    if not response.is_success:
        return HookResult(hook, 1, stdout=text, http_status=response.status_code,
                          stderr=f"HTTP {response.status_code} from {hook.command}")
    data, error = parse_json_output(text)
    return HookResult(hook, 0, stdout=text, json=data, json_error=error,
                      http_status=response.status_code)
