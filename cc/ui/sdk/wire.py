"""The stream-json wire of a program driving cc (the Agent SDK): what one stdin line is.

    read_line(text)   a `UserInput`, `ControlRequest`, `ControlResponse`,
                      `ControlCancel`, or a `BadLine` saying why the line was not read

Lines are JSON objects, one per line (`claude_code_interface.md` §1.6). Nothing here
acts on them; `cc.ui.sdk.host` does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class UserInput:
    """A user message: its content (a string, or content blocks as the API takes them)."""

    content: str | list[dict[str, Any]]
    uuid: str | None = None
    #: False: add it to the conversation without asking the model (`shouldQuery`).
    should_query: bool = True
    raw: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ControlRequest:
    request_id: str
    subtype: str
    body: dict[str, Any]


@dataclass(frozen=True)
class ControlResponse:
    request_id: str
    ok: bool
    body: dict[str, Any]
    error: str | None = None


@dataclass(frozen=True)
class ControlCancel:
    request_id: str


@dataclass(frozen=True)
class BadLine:
    why: str


Inbound = UserInput | ControlRequest | ControlResponse | ControlCancel | BadLine


def read_line(text: str) -> Inbound | None:
    """One stdin line (None: a blank line, nothing to do)."""
    if not text.strip():
        return None
    try:
        data = json.loads(text)
    except ValueError as exc:
        return BadLine(f"not JSON ({exc})")
    if not isinstance(data, dict):
        return BadLine("not a JSON object")
    kind = data.get("type")
    if kind == "user":
        return _user(data)
    if kind == "control_request":
        request = data.get("request")
        request_id = data.get("request_id")
        if not isinstance(request, dict) or not isinstance(request_id, str):
            return BadLine("a control_request needs a request_id and a request object")
        return ControlRequest(request_id, str(request.get("subtype", "")), request)
    if kind == "control_response":
        response = data.get("response")
        if not isinstance(response, dict) or not isinstance(response.get("request_id"), str):
            return BadLine("a control_response needs a response with its request_id")
        body = response.get("response")
        return ControlResponse(response["request_id"], response.get("subtype") != "error",
                               body if isinstance(body, dict) else {},
                               str(response.get("error") or "") or None)
    if kind == "control_cancel_request":
        return ControlCancel(str(data.get("request_id", "")))
    return BadLine(f"unknown message type {kind!r}")


def _user(data: dict[str, Any]) -> Inbound:
    message = data.get("message")
    if not isinstance(message, dict):
        return BadLine("a user message needs a message object")
    content = message.get("content")
    if isinstance(content, list):
        if not all(isinstance(b, dict) and isinstance(b.get("type"), str) for b in content):
            return BadLine("a user message's content blocks must be objects with a type")
    elif not isinstance(content, str):
        return BadLine("a user message's content must be a string or a list of blocks")
    uuid = data.get("uuid")
    return UserInput(content, uuid if isinstance(uuid, str) else None,
                     data.get("shouldQuery") is not False, data)


def control_response(request_id: str, response: dict[str, Any] | None = None, *,
                     error: str | None = None, code: str | None = None) -> dict[str, Any]:
    """The line answering a control request: a success with `response`, or an error."""
    if error is not None:
        body: dict[str, Any] = {"subtype": "error", "request_id": request_id, "error": error}
        if code:
            body["error_code"] = code
        return {"type": "control_response", "response": body}
    return {"type": "control_response", "response": {
        "subtype": "success", "request_id": request_id, "response": response or {}}}


def control_request(request_id: str, request: dict[str, Any]) -> dict[str, Any]:
    return {"type": "control_request", "request_id": request_id, "request": request}
