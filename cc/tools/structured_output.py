"""StructuredOutput: the final answer as JSON conforming to a schema (`--json-schema`).

The tool's input schema is the schema given, as is; a call checks its input against it
with a real JSON Schema validator (`cc.tools.json_schema`). The result says whether the
answer conforms, for the model (its text) and for the agent's loop (`ToolResult.answer`,
an `AnswerCheck`), which ends the turn on a conforming answer, counts the others against
a bound and asks for the call when the model answers without it
(`cc.core.structured_answer`). A call refused before it runs (a deny rule, a hook)
carries no check, and counts for nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import ConfigDict

from cc.tools.base import ReadOnlyTool, ToolContext, ToolInput, ToolResult

TOOL_NAME = "StructuredOutput"
ACCEPTED = "tools/StructuredOutput_accepted.md"
MISMATCH = "tools/StructuredOutput_mismatch.md"


@dataclass(frozen=True)
class AnswerCheck:
    """What a StructuredOutput call made of the answer it was given: the value if it
    conforms, else what in it does not (a line each)."""

    value: dict[str, Any] | None = None
    problems: tuple[str, ...] = ()

    @property
    def conforms(self) -> bool:
        return not self.problems


class AnswerInput(ToolInput):
    """Whatever the model sent: the schema, not pydantic, says what is right."""

    model_config = ConfigDict(extra="allow")


class StructuredOutputTool(ReadOnlyTool):
    name = TOOL_NAME
    input_model: ClassVar[type[ToolInput]] = AnswerInput

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema

    def input_schema(self) -> dict[str, Any]:
        return self.schema

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        from cc.prompts import load_text
        from cc.tools.json_schema import mismatches

        value = dict(inp.model_extra or {})
        problems = mismatches(self.schema, value)
        if problems:
            text = load_text(MISMATCH).strip().format(problems="\n".join(problems))
            return ToolResult(text, is_error=True, data=f"Error: {text}",
                              answer=AnswerCheck(problems=tuple(problems)))
        text = load_text(ACCEPTED).strip()
        return ToolResult(text, data=text, answer=AnswerCheck(value=value))
