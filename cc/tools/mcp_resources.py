"""The MCP resource tools: what the session's MCP servers offer besides tools.

    ListMcpResourcesTool {server?}     JSON text: [{"name","uri","description","mimeType",
                                       "server"}] of one server, or of every connected one
    ReadMcpResourceTool {server, uri}  JSON text: {"contents":[{"uri","mimeType","text"}]};
                                       binary data is saved to a file, and the item names
                                       it (`blobSavedTo`) instead of carrying it
    ReadMcpResourceDirTool {server, uri}  not available: says so

The MCP hub makes them (with itself as their `ResourceAccess`) once a server has
connected; they only read, so they run without asking. An unknown server, a server
without resources or one that is down is a tool error; a uri the server does not know
is an ordinary result saying so (as Claude Code answers it), so the model lists again.
"""

from __future__ import annotations

import asyncio
import json
import mimetypes
import secrets
import tempfile
import time
from pathlib import Path
from typing import Any, ClassVar

from pydantic import ConfigDict

from cc.tools.base import ReadOnlyTool, ToolContext, ToolInput, ToolResult, optional_without_null
from cc.tools.mcp_access import ResourceAccess, ResourceContents, ResourceProblem

#: The three tools, by name (the catalog defers them).
NAMES = ("ListMcpResourcesTool", "ReadMcpResourceTool", "ReadMcpResourceDirTool")


class ListInput(ToolInput):
    model_config = ConfigDict(extra="forbid", json_schema_extra=optional_without_null)

    server: str | None = None


class ReadInput(ToolInput):
    server: str
    uri: str


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _failure(problem: ResourceProblem) -> ToolResult:
    return ToolResult(problem.text, is_error=True, data=f"Error: {problem.text}")


class ListMcpResourcesTool(ReadOnlyTool):
    name = "ListMcpResourcesTool"
    input_model: ClassVar[type[ToolInput]] = ListInput

    def __init__(self, access: ResourceAccess) -> None:
        self.access = access

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, ListInput)
        found = await self.access.list_resources(inp.server)
        if isinstance(found, ResourceProblem):
            return _failure(found)
        rows = [{k: v for k, v in (("name", r.name), ("uri", r.uri),
                                   ("description", r.description), ("mimeType", r.mime_type),
                                   ("server", r.server)) if v is not None} for r in found]
        where = f"server {inp.server}" if inp.server else "the connected MCP servers"
        if not rows:
            text = (f"No resources are listed by {where}. A server may still offer tools "
                    "without listing any resources.")
            return ToolResult(text, data=[], summary="no resources")
        return ToolResult(_json(rows), data=rows,
                          summary=f"{len(rows)} resource{'s' if len(rows) != 1 else ''}")


class ReadMcpResourceTool(ReadOnlyTool):
    name = "ReadMcpResourceTool"
    input_model: ClassVar[type[ToolInput]] = ReadInput

    def __init__(self, access: ResourceAccess) -> None:
        self.access = access

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, ReadInput)
        got = await self.access.read_resource(inp.server, inp.uri)
        if isinstance(got, ResourceProblem):
            if got.kind == "not_found":  # an ordinary answer: the model lists again
                return ToolResult(got.text, data={"contents": [], "error": got.text},
                                  summary="not found")
            return _failure(got)
        folder = _folder(ctx)
        items = [await _item(inp.server, part, i, folder) for i, part in enumerate(got)]
        data = {"contents": items}
        return ToolResult(_json(data), data=data, summary=f"read {inp.uri}")


class ReadMcpResourceDirTool(ReadOnlyTool):
    """Listing a resource "directory": Claude Code's build says it is not enabled."""

    name = "ReadMcpResourceDirTool"
    input_model: ClassVar[type[ToolInput]] = ReadInput

    def __init__(self, access: ResourceAccess) -> None:
        self.access = access

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        text = ("Listing a resource folder is not available in cc; use ListMcpResourcesTool "
                "to see a server's resources and ReadMcpResourceTool to read one.")
        return ToolResult(text, is_error=True, data=f"Error: {text}")


async def _item(server: str, part: ResourceContents, index: int,
                folder: Path) -> dict[str, Any]:
    """One part of a read as the model gets it: text as is; binary data saved to a file
    that the item names."""
    item: dict[str, Any] = {"uri": part.uri}
    if part.mime_type:
        item["mimeType"] = part.mime_type
    if part.text is not None or part.blob is None:
        item["text"] = part.text or ""
        return item
    path, size = await asyncio.to_thread(_save_blob, part, index, folder)
    item["blobSavedTo"] = str(path)
    item["text"] = (f"Binary resource {part.uri} of server {server} "
                    f"({part.mime_type or 'unknown type'}, {size:,} bytes), saved to {path}. "
                    "Open that file with a tool that reads its kind of data.")
    return item


def _folder(ctx: ToolContext) -> Path:
    """Where binary data goes: the session's tool-results folder, else a temp folder."""
    folder = ctx.results_dir() if ctx.results_dir is not None else None
    return folder or Path(tempfile.gettempdir()) / "cc-mcp-resources"


def _save_blob(part: ResourceContents, index: int, folder: Path) -> tuple[Path, int]:
    import base64
    import binascii

    try:
        data = base64.b64decode(part.blob or "", validate=False)
    except (binascii.Error, ValueError):
        data = (part.blob or "").encode()
    suffix = mimetypes.guess_extension(part.mime_type or "") or ".bin"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (f"mcp-resource-{int(time.time() * 1000)}-{index}-"
                     f"{secrets.token_hex(3)}{suffix}")
    path.write_bytes(data)
    return path, len(data)
