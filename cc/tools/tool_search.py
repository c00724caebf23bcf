"""ToolSearch: load deferred tools, by name (`select:A,B`) or by keywords.

Its result names each tool it loads with a `tool_reference` block; from the next request
on, the conversation's toolset sends those tools' full definitions. A query that
matches nothing, an unknown name or one loaded already is answered, never an error of
the loop.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import ConfigDict

from cc.tools.base import ReadOnlyTool, ToolContext, ToolInput, ToolResult


class ToolSearchInput(ToolInput):
    model_config = ConfigDict(extra="forbid")

    query: str
    max_results: int = 5


class ToolSearchTool(ReadOnlyTool):
    name = "ToolSearch"
    input_model: ClassVar[type[ToolInput]] = ToolSearchInput

    def input_schema(self) -> dict[str, Any]:
        # Claude Code's schema: both fields required, max_results a number defaulting to 5.
        return {"type": "object", "properties": {
            "query": {"type": "string"},
            "max_results": {"default": 5, "type": "number"}},
            "required": ["query", "max_results"], "additionalProperties": False}

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, ToolSearchInput)
        toolset = ctx.services().toolset
        query = inp.query.strip()
        loaded = set(toolset.loaded())
        waiting = toolset.deferred()
        every = sorted({*waiting, *loaded})
        notes: list[str] = []
        if query.lower().startswith("select:"):
            wanted = [n.strip() for n in query[len("select:"):].split(",") if n.strip()]
            unknown = [n for n in wanted if n not in every]
            already = [n for n in wanted if n in loaded]
            matches = toolset.load(wanted)
            if unknown:
                notes.append(f"No deferred tool is named {', '.join(unknown)}.")
            if already:
                notes.append(f"Loaded already: {', '.join(already)} (call it directly).")
        else:
            found = toolset.search(query, max(1, int(inp.max_results)))
            matches = toolset.load(found)
            already = [n for n in found if n in loaded]
            if already:
                notes.append(f"Loaded already: {', '.join(already)} (call it directly).")
        data = {"matches": matches, "query": inp.query, "total_deferred_tools": len(every)}
        if not matches:
            listing = ", ".join(waiting) or "none"
            lead = "No matching deferred tools found"
            text = " ".join([lead + ".", *notes, f"Deferred tools you can load: {listing}."])
            return ToolResult(text, data=data, summary=lead)
        content: list[dict[str, Any]] = [{"type": "tool_reference", "tool_name": name}
                                         for name in matches]
        if notes:
            content.append({"type": "text", "text": " ".join(notes)})
        return ToolResult(content, data=data, summary=f"Loaded {', '.join(matches)}")
