"""An MCP server's tool as one of ours: `mcp__<server>__<tool>`.

The definition is the server's: its description and input schema as given (no output
schema). A call goes through the server's connection (`ServerConnection.call`), bounded
by MCP_TOOL_TIMEOUT; the result maps as Claude Code maps it:

    structuredContent      the tool_result is its JSON (a string)
    text / images          text blocks / image blocks, each image also saved beside the
                           transcript (a line names the file, for tools that take a path)
    embedded resources     their text (or an image block; other binary data is named)
    resource links         a line naming the resource
    isError                an error result with the server's text

Output estimated above MAX_MCP_OUTPUT_TOKENS is cut, with a note saying so.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ConfigDict

from cc.config.env import env_number
from cc.tools.base import Tool, ToolContext, ToolInput, ToolResult

if TYPE_CHECKING:
    from cc.mcp.connection import ServerConnection

#: Claude Code's defaults: a call may take very long (about 28 hours); output is capped
#: at 25,000 tokens.
DEFAULT_TOOL_TIMEOUT_MS = 100_000_000
DEFAULT_MAX_OUTPUT_TOKENS = 25_000
#: Characters per token, for the output cap's estimate.
CHARS_PER_TOKEN = 4


def call_timeout() -> float:
    """Seconds an MCP request may take: MCP_TOOL_TIMEOUT (ms), else Claude Code's default."""
    return env_number("MCP_TOOL_TIMEOUT", DEFAULT_TOOL_TIMEOUT_MS) / 1000


def output_limit() -> int:
    """Tokens of MCP output kept: MAX_MCP_OUTPUT_TOKENS, else 25,000."""
    return env_number("MAX_MCP_OUTPUT_TOKENS", DEFAULT_MAX_OUTPUT_TOKENS)


def clean_name(name: str) -> str:
    """A server's or tool's name as it goes into `mcp__…`: characters outside
    [A-Za-z0-9_-] become `_`."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", name)


def tool_name(server: str, tool: str) -> str:
    return f"mcp__{clean_name(server)}__{clean_name(tool)}"


class McpInput(ToolInput):
    """Whatever the server's schema takes: the server checks it."""

    model_config = ConfigDict(extra="allow")


class McpTool(Tool):
    input_model = McpInput

    def __init__(self, connection: ServerConnection, spec: Any) -> None:
        self.connection = connection
        self.server_tool = str(spec.name)
        self.name = tool_name(connection.name, self.server_tool)
        self._description = str(spec.description or "")
        schema = spec.input_schema if isinstance(spec.input_schema, dict) else {}
        self._schema: dict[str, Any] = schema or {"type": "object", "properties": {}}
        annotations = getattr(spec, "annotations", None)
        self._read_only_hint = bool(getattr(annotations, "read_only_hint", False))

    def description(self) -> str:
        return self._description

    def input_schema(self) -> dict[str, Any]:
        return self._schema

    def validate(self, raw: dict[str, Any]) -> ToolInput | str:
        if not isinstance(raw, dict):
            return f"{self.name} takes an object of arguments"
        required = self._schema.get("required")
        missing = [k for k in required if k not in raw] if isinstance(required, list) else []
        if missing:
            return (f"InputValidationError: {self.name} failed because the required "
                    f"parameter{'s' if len(missing) > 1 else ''} "
                    f"{', '.join(f'`{k}`' for k in missing)} "
                    f"{'are' if len(missing) > 1 else 'is'} missing")
        return McpInput.model_validate(raw)

    def is_read_only(self, inp: ToolInput) -> bool:
        # Permission treats every MCP tool as acting (the rules decide); running beside
        # others is safe when the server says the tool only reads.
        return False

    def is_concurrency_safe(self, inp: ToolInput) -> bool:
        return self._read_only_hint

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        from cc.mcp.connection import ServerDown

        arguments = inp.model_dump()
        timeout = call_timeout()
        try:
            result = await self.connection.call(
                lambda client: client.call_tool(self.server_tool, arguments),
                timeout)
        except TimeoutError:
            return _error(f'MCP server "{self.connection.name}" tool "{self.server_tool}" '
                          f"timed out after {timeout:g}s")
        except ServerDown as exc:
            return _error(str(exc))
        except Exception as exc:  # noqa: BLE001 - the server's failure, told to the model
            from cc.mcp.client import describe_error

            return _error(f"MCP server \"{self.connection.name}\": {describe_error(exc)}")
        return map_result(result, self.connection, saved_in=_folder(ctx))


def _folder(ctx: ToolContext) -> Path | None:
    return ctx.results_dir() if ctx.results_dir is not None else None


def _error(text: str) -> ToolResult:
    return ToolResult(text, is_error=True, data=_record(f"Error: {text}", None))


def map_result(result: Any, connection: ServerConnection | None = None, *,
               saved_in: Path | None = None) -> ToolResult:
    """A `CallToolResult` as the model and the transcript get it (Claude Code's shapes:
    a list of blocks, or the JSON of `structuredContent` as a string)."""
    blocks = [b for item in (result.content or []) for b in content_blocks(item)]
    structured = getattr(result, "structured_content", None)
    meta = getattr(result, "meta", None)
    if result.is_error:
        text = "\n".join(b["text"] for b in blocks if b["type"] == "text") or "Error"
        return ToolResult(text, is_error=True, data=_record(f"Error: {text}", meta))
    content: str | list[dict[str, Any]]
    if structured is not None:
        content = json.dumps(structured, ensure_ascii=False, separators=(",", ":"))
    else:
        server = connection.name if connection is not None else "mcp"
        blocks = _with_saved_images(blocks, server, saved_in)
        content = cap_output(blocks, output_limit())
        if not content:
            content = [{"type": "text", "text": "(no content)"}]
    data = _record(content, meta)
    if structured is not None:
        data["structuredContent"] = structured
    return ToolResult(content, data=data)


def _record(content: Any, meta: Any) -> dict[str, Any]:
    """The `toolUseResult` of an MCP call."""
    data: dict[str, Any] = {"content": content}
    if meta:
        data["_meta"] = meta
    return data


def _with_saved_images(blocks: list[dict[str, Any]], server: str,
                       folder: Path | None) -> list[dict[str, Any]]:
    """Each image block followed by a line naming the file it was saved to."""
    if folder is None or not any(b["type"] == "image" for b in blocks):
        return blocks
    import base64
    import secrets
    import time

    out: list[dict[str, Any]] = []
    for block in blocks:
        out.append(block)
        if block["type"] != "image":
            continue
        source = block["source"]
        suffix = source["media_type"].split("/")[-1].split("+")[0] or "bin"
        path = folder / (f"mcp-{clean_name(server)}-blob-{int(time.time() * 1000)}-"
                         f"{secrets.token_hex(3)}.{suffix}")
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_bytes(base64.b64decode(source["data"]))
        except (OSError, ValueError):
            continue
        out.append({"type": "text", "text": f"[Image: source: {path}]"})
    return out


def content_blocks(item: Any) -> list[dict[str, Any]]:
    """One MCP content item as API content blocks."""
    kind = getattr(item, "type", "")
    if kind == "text":
        return [{"type": "text", "text": item.text}]
    if kind == "image":
        return [_image(item.mime_type, item.data)]
    if kind == "audio":
        return [{"type": "text", "text": f"[audio ({item.mime_type}) not shown]"}]
    if kind == "resource":
        return resource_blocks(item.resource)
    if kind == "resource_link":
        described = f": {item.description}" if getattr(item, "description", None) else ""
        return [{"type": "text", "text": f"[Resource link: {item.name}] {item.uri}{described}"}]
    return [{"type": "text", "text": f"[{kind or 'unknown'} content not shown]"}]


def resource_blocks(resource: Any) -> list[dict[str, Any]]:
    """The contents of a resource (embedded in a result, or read)."""
    mime = getattr(resource, "mime_type", None) or ""
    text = getattr(resource, "text", None)
    if text is not None:
        return [{"type": "text", "text": text}]
    blob = getattr(resource, "blob", None)
    if blob is not None and mime.startswith("image/"):
        return [_image(mime, blob)]
    return [{"type": "text", "text": f"[Resource {resource.uri} ({mime or 'binary'}): "
                                     "binary data not shown]"}]


def _image(mime: str, data: str) -> dict[str, Any]:
    return {"type": "image", "source": {"type": "base64", "media_type": mime, "data": data}}


def cap_output(blocks: list[dict[str, Any]], max_tokens: int) -> list[dict[str, Any]]:
    """Text past `max_tokens` (estimated) cut, with a note saying so."""
    budget = max_tokens * CHARS_PER_TOKEN
    used = sum(len(b["text"]) for b in blocks if b["type"] == "text")
    if used <= budget:
        return blocks
    out: list[dict[str, Any]] = []
    left = budget
    for block in blocks:
        if block["type"] != "text":
            out.append(block)
            continue
        if left <= 0:
            continue
        out.append({"type": "text", "text": block["text"][:left]})
        left -= len(block["text"])
    out.append({"type": "text", "text": (
        f"\n[Output truncated: the tool's output was about {used // CHARS_PER_TOKEN:,} tokens, "
        f"over the limit of {max_tokens:,} (MAX_MCP_OUTPUT_TOKENS). Ask for less, for "
        "example with a narrower query or pagination.]")})
    return out
